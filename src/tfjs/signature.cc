#include "tfjs/signature.h"

#include "core/error.h"
#include "proto/proto_json.h"
#include "tensorflow/schemas.h"

namespace graphport::tfjs {

using nlohmann::json;

const json* FindSignature(const json& model, std::string* source) {
  auto metadata = model.find("userDefinedMetadata");
  if (metadata != model.end() && metadata->is_object()) {
    auto signature = metadata->find("signature");
    if (signature != metadata->end() && !signature->is_null()) {
      *source = "userDefinedMetadata.signature";
      return &*signature;
    }
  }
  auto signature = model.find("signature");
  if (signature != model.end() && !signature->is_null()) {
    *source = "signature";
    return &*signature;
  }
  return nullptr;
}

void ReadSignature(const json& value, const std::string& what,
                   tensorflow::SignatureDef* signature) {
  if (!value.is_object()) {
    throw Error(ErrorCode::kParseError, what + " is not a JSON object");
  }
  json cleaned = value;
  for (const char* side : {"inputs", "outputs"}) {
    auto map = cleaned.find(side);
    if (map == cleaned.end() || !map->is_object()) continue;
    for (auto& [key, info] : map->items()) {
      if (info.is_object()) info.erase("resourceId");
    }
  }
  proto::JsonToMessage(cleaned, signature, what);
  if (signature->method_name().empty()) signature->set_method_name("tensorflow/serving/predict");
  for (auto* map : {signature->mutable_inputs(), signature->mutable_outputs()}) {
    for (auto& [key, info] : *map) {
      if (info.has_name() && !info.name().empty() && info.name().find(':') == std::string::npos) {
        info.set_name(info.name() + ":0");
      }
    }
  }
}

}  // namespace graphport::tfjs
