#include "tfjs/model_json.h"

#include "core/error.h"
#include "core/json_parse.h"
#include "core/limits.h"
#include "core/resize_for_overwrite.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

// Where JSON text first opens an array or object deeper than `max_depth`, looking only at the
// brackets outside strings; npos when it never does. A scan of its own, not nlohmann's parse
// callback: that callback parser looks through the parent for discarded values each time an
// object closes, which made a model.json of 200k nodes take 29 s to read.
size_t FirstTooDeep(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // whatever is escaped, it does not end the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if (c == ']' || c == '}') {
      --depth;  // unbalanced text is the parser's to report
    }
  }
  return std::string_view::npos;
}

}  // namespace

using nlohmann::json;

json ParseModelJson(ByteSource* source, const std::string& name, uint64_t* bytes) {
  std::string text;
  std::string_view contiguous;
  if (source->Contiguous(&contiguous)) {
    if (contiguous.size() > kMaxProtoBytes) {
      throw Error(ErrorCode::kTooLarge, name + ": a model.json of " +
                                            std::to_string(contiguous.size()) +
                                            " bytes is over the 2 GiB limit");
    }
  } else {
    for (;;) {
      size_t before = text.size();
      ResizeForOverwrite(&text, before + kStreamChunkBytes);
      size_t got = source->Read(reinterpret_cast<uint8_t*>(&text[before]), kStreamChunkBytes);
      text.resize(before + got);
      if (got == 0) break;
      if (text.size() > kMaxProtoBytes) {
        throw Error(ErrorCode::kTooLarge, name + ": model.json is over the 2 GiB limit");
      }
    }
    contiguous = text;
  }
  *bytes = contiguous.size();
  // Deeper than any graph's messages can nest (two JSON levels per message, and some room):
  // refused while parsing, so no deep value is ever built, printed or destroyed recursively.
  constexpr int kMaxDepth = 2 * kMaxProtoNesting + 16;
  const size_t too_deep = FirstTooDeep(contiguous, kMaxDepth);
  if (too_deep != std::string_view::npos) {
    throw Error(ErrorCode::kParseError,
                name + ": JSON values nest more than " + std::to_string(kMaxDepth) +
                    " levels deep, more than any graph model holds (at byte " +
                    std::to_string(too_deep) + ")",
                ErrorLocation::InFile(name, static_cast<int64_t>(too_deep)));
  }
  try {
    return ParseJson(contiguous);
  } catch (const json::parse_error& e) {
    ErrorLocation location;
    location.file = name;
    location.offset = e.byte > 0 ? static_cast<int64_t>(e.byte - 1) : 0;
    std::string what = e.what();
    // nlohmann's text starts "[json.exception.parse_error.101] parse error at line 1, ...".
    size_t start = what.find("] ");
    throw Error(ErrorCode::kParseError,
                name + ": not valid JSON at byte " + std::to_string(location.offset) + ": " +
                    (start == std::string::npos ? what : what.substr(start + 2)),
                location);
  }
}

ModelJsonKind ClassifyModelJson(const json& model) {
  if (model.is_array()) {
    for (const json& group : model) {
      if (!group.is_object() || !group.contains("paths") || !group.contains("weights")) {
        return ModelJsonKind::kNotTfjs;
      }
    }
    return ModelJsonKind::kWeightsOnly;
  }
  if (!model.is_object()) return ModelJsonKind::kNotTfjs;
  auto topology = model.find("modelTopology");
  auto format = model.find("format");
  bool layers_format = format != model.end() && *format == "layers-model";
  if (topology == model.end() || topology->is_null()) {
    if (layers_format) return ModelJsonKind::kLayersModel;
    return model.contains("weightsManifest") ? ModelJsonKind::kWeightsOnly
                                             : ModelJsonKind::kNotTfjs;
  }
  if (!topology->is_object()) return ModelJsonKind::kNotTfjs;
  if (layers_format || topology->contains("model_config") || topology->contains("class_name") ||
      topology->contains("keras_version")) {
    return ModelJsonKind::kLayersModel;
  }
  if (topology->contains("node")) return ModelJsonKind::kGraphModel;
  return ModelJsonKind::kNotTfjs;
}

void RequireGraphModel(const json& model, const std::string& name) {
  ErrorLocation location;
  location.file = name;
  switch (ClassifyModelJson(model)) {
    case ModelJsonKind::kGraphModel:
      break;
    case ModelJsonKind::kLayersModel:
      throw Error(ErrorCode::kUnsupported,
                  name +
                      ": this is a Keras layers model, not a graph model (its modelTopology "
                      "is Keras JSON; graphport reads TensorFlow.js graph models)",
                  location);
    case ModelJsonKind::kWeightsOnly:
      throw Error(ErrorCode::kUnsupported,
                  name +
                      ": this is a weights manifest only, with no modelTopology: there is no "
                      "graph to read",
                  location);
    case ModelJsonKind::kNotTfjs:
      throw Error(ErrorCode::kUnknownFormat,
                  name +
                      ": not a TensorFlow.js graph model (no modelTopology with a \"node\" "
                      "list)",
                  location);
  }
  auto format = model.find("format");
  if (format != model.end() && !format->is_null() && *format != "graph-model") {
    throw Error(ErrorCode::kUnsupported,
                name + ": \"format\" is " + format->dump() + ", not \"graph-model\"", location);
  }
  auto manifest = model.find("weightsManifest");
  if (manifest == model.end() || !manifest->is_array()) {
    throw Error(ErrorCode::kParseError,
                name + ": a TensorFlow.js graph model without a \"weightsManifest\" array",
                location);
  }
}

}  // namespace graphport::tfjs
