#include "tfjs/write_graph_model.h"

#include <cmath>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "core/error.h"
#include "core/input_set.h"
#include "core/json_parse.h"
#include "core/ordered_json.h"
#include "proto/deterministic_bytes.h"
#include "tensorflow/schemas.h"
#include "tf/dtype.h"
#include "tf/option_names.h"
#include "tfjs/const_header.h"
#include "tfjs/float16.h"
#include "tfjs/json_stream.h"
#include "tfjs/option_names.h"
#include "tfjs/proto_to_json.h"
#include "tfjs/quantize.h"
#include "tfjs/read_graph_model.h"
#include "tfjs/shard_writer.h"
#include "tfjs/tensor_weight.h"
#include "tfjs/weight_values.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;
using ojson = OrderedJson;
using tensorflow::NodeDef;

// One Const that becomes a weight: a node of a function or of the initializer, or else node
// `index` of the graph (which hands its nodes out one at a time).
struct WeightSource {
  const NodeDef* node;
  size_t index;
  std::string name;  // the weight's (and the written node's) name
};

class GraphModelWriter {
 public:
  GraphModelWriter(tf::GraphNodes* graph, const WriteOptions& options, OutputSet* out)
      : graph_(*graph), options_(options), out_(out) {}

  json Write(const tensorflow::SignatureDef* signature) {
    CheckOptions();
    CollectWeights();
    uint64_t total = 0;
    for (const WeightSource& w : weights_) total += StoredBytes(w);
    ShardWriter shards(out_, 1, total, options_.shard_size);
    // The manifest's entries as their text: a graph of many Consts has as many entries, which
    // as JSON values would take several times the space (measured: 30 MB for 66k entries).
    std::string entries = "[";
    for (const WeightSource& w : weights_) {
      if (entries.size() > 1) entries += ',';
      if (!WriteWeight(w, &shards).Dump(&entries)) NotUtf8("weight '" + w.name + "'");
    }
    entries += ']';
    shards.Finish();

    // The members before the topology, which is written node by node after them.
    ojson model = ojson::Object();
    model["format"] = "graph-model";
    model["generatedBy"] = ojson::FromJson(options_.generated_by);
    model["convertedBy"] = options_.converted_by;
    if (signature != nullptr) {
      ojson s = ojson::Object();
      ojson full = MessageToJson(*signature);
      for (const char* side : {"inputs", "outputs"}) {
        if (const ojson* found = full.Find(side)) s[side] = *found;
      }
      model["signature"] = std::move(s);
    }
    for (const ResourceLink& link : options_.resource_links) {
      // A SignatureDef's inputs are a map, written as an object (or absent: null here).
      std::string key = link.signature_key.empty() ? link.placeholder + ":0" : link.signature_key;
      model["signature"]["inputs"][key] = ojson::Object({{"name", link.placeholder + ":0"},
                                                         {"dtype", "DT_RESOURCE"},
                                                         {"tensorShape", ojson::Object()},
                                                         {"resourceId", link.resource_id}});
    }
    const bool has_initializer =
        options_.initializer != nullptr && options_.initializer->node_size() > 0;
    // Made before model.json is opened, as everything that can refuse the model.
    const ojson initializer_signature = has_initializer ? InitializerSignature() : ojson();
    JsonStream text(out_->Open(options_.model_json));
    text.BeginObject();
    for (const auto& [key, value] : model.members()) {
      text.Key(key);
      text.Value(value, key);
    }
    text.Key("modelTopology");
    Topology(&graph_, &text);
    if (!options_.user_metadata.is_null()) {
      text.Key("userDefinedMetadata");
      text.Value(ojson::FromJson(options_.user_metadata), "userDefinedMetadata");
    }
    if (has_initializer) {
      text.Key("modelInitializer");
      tf::ParsedGraphNodes initializer(*options_.initializer);
      Topology(&initializer, &text);
      if (!initializer_signature.is_null()) {
        text.Key("initializerSignature");
        text.Value(initializer_signature, "initializerSignature");
      }
    }
    ojson paths = ojson::Array();
    for (const std::string& name : shards.names()) paths.PushBack(name);
    text.Key("weightsManifest");
    text.BeginArray();
    text.BeginObject();
    text.Key("paths");
    text.Value(paths, "the shard paths");
    text.Key("weights");
    text.DumpedValue(entries);
    text.EndObject();
    text.EndArray();
    text.EndObject();
    text.Flush();
    out_->Close();

    json files = json::array();
    for (const std::string& name : shards.names()) files.push_back(name);
    files.push_back(options_.model_json);
    return {{"files", files},
            {"weights", weights_.size()},
            {"shards", shards.names().size()},
            {"weightBytes", total},
            {"quantized", quantized_},
            {"renamedFunctionConsts", renamed_consts_}};
  }

 private:
  // The input model.json's initializerSignature (keys in nlohmann::json's sorted order, as it
  // was read) with the resourceId of each linked table output, which is added at the end of
  // `outputs` when the signature did not name it.
  ojson InitializerSignature() {
    ojson signature = ojson::FromJson(options_.initializer_signature);
    for (const ResourceLink& link : options_.resource_links) {
      if (signature.is_null()) signature = ojson::Object({{"outputs", ojson::Object()}});
      const ojson* outputs = signature.Find("outputs");
      if (!signature.is_object() ||
          (outputs != nullptr && !outputs->is_null() && !outputs->is_object())) {
        throw Error(ErrorCode::kParseError,
                    "TF.js export: the model's initializerSignature is not an object of "
                    "\"inputs\" and \"outputs\" objects, so table output '" +
                        link.tensor + "' cannot get its resourceId");
      }
      ojson& output = signature["outputs"][link.tensor];
      if (!output.is_object()) {
        output = ojson::Object(
            {{"name", link.tensor}, {"dtype", "DT_RESOURCE"}, {"tensorShape", ojson::Object()}});
      }
      output["resourceId"] = link.resource_id;
    }
    return signature;
  }

  [[noreturn]] void OptionError(const std::string& option, const std::string& what) {
    ErrorLocation location;
    location.option = option;
    throw Error(ErrorCode::kInvalidOption, "TF.js export: " + what, location);
  }

  void CheckOptions() {
    const std::string& q = options_.quantize;
    if (!q.empty() && q != "float16" && q != "uint8" && q != "uint16") {
      OptionError(option::kQuantize, "quantize must be float16, uint8 or uint16, not '" + q + "'");
    }
    if (q.empty() && !options_.quantize_weights.empty()) {
      OptionError(option::kQuantizeWeights, "quantizeWeights needs quantize (the dtype to use)");
    }
    if (options_.shard_size == 0) OptionError(option::kShardSize, "shardSize must be positive");
    const std::string& name = options_.model_json;
    bool json_name = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
    if (!json_name || name.find_first_of("/\\") != std::string::npos || !IsSafeInputName(name)) {
      OptionError(tf::option::kFilename,
                  "filename names the model JSON of the output folder: a bare name ending in "
                  ".json (a TF.js reader looks for one), not '" +
                      name + "'");
    }
  }

  static bool KeptCodes(const NodeDef& node) { return node.attr().count(kQuantizationAttr) != 0; }

  void CollectWeights() {
    for (size_t i = 0; i < graph_.size(); ++i) {
      if (graph_.op(i) == "Const") weights_.push_back({nullptr, i, std::string(graph_.name(i))});
    }
    for (const auto& f : graph_.library().function()) {
      for (const NodeDef& node : f.node_def()) {
        if (node.op() != "Const") continue;
        weights_.push_back({&node, 0, f.signature().name() + "/" + node.name()});
        ++renamed_consts_;
      }
    }
    if (options_.initializer != nullptr) {
      weights_.reserve(weights_.size() + options_.initializer->node_size());
    }
    // Views of the weights' own names, which stay where they are from here on. Hashed: a
    // sorted set compared the long common prefixes of a large graph's names again and again
    // (a tenth of the 200k-node graph's export).
    std::unordered_set<std::string_view> names;
    names.reserve(weights_.capacity());
    for (const WeightSource& w : weights_) {
      if (!names.insert(w.name).second) {
        ErrorLocation location;
        location.node = w.name;
        throw Error(ErrorCode::kUnsupported,
                    "TF.js export: two Consts would both be weight '" + w.name + "'", location);
      }
    }
    // A Const in both graphs is one node of the TensorFlow graph: one weight serves both.
    if (options_.initializer == nullptr) return;
    for (const NodeDef& node : options_.initializer->node()) {
      if (node.op() != "Const" || names.count(node.name()) != 0) continue;
      weights_.push_back({&node, 0, node.name()});
      names.insert(weights_.back().name);
    }
  }

  // The Const a weight comes from; a node of the graph stays valid until the next call.
  const NodeDef& NodeOf(const WeightSource& w) {
    return w.node != nullptr ? *w.node : graph_.Node(w.index);
  }

  const tensorflow::TensorProto& Tensor(const NodeDef& node) {
    static const tensorflow::TensorProto empty;
    auto v = node.attr().find("value");
    return v == node.attr().end() ? empty : v->second.tensor();
  }

  bool WantsQuantized(const std::string& name, WeightDtype dtype, uint64_t elements) const {
    if (options_.quantize.empty() || dtype != WeightDtype::kFloat32 || elements == 0) {
      return false;
    }
    if (options_.quantize_weights.empty()) return true;
    for (const std::string& pattern : options_.quantize_weights) {
      if (FnMatch(pattern, name)) return true;
    }
    return false;
  }

  // The bytes a weight will take, known before any is converted (the shard count is in every
  // shard's name). From the node's bytes where the graph holds them (ReadConstHeader), else
  // from its parse.
  uint64_t StoredBytes(const WeightSource& w) {
    ConstHeader header;
    if (w.node == nullptr) {
      std::optional<std::string_view> bytes = graph_.SerializedNode(w.index);
      if (bytes && ReadConstHeader(*bytes, &header)) {
        if (std::optional<uint64_t> size = StoredBytes(w, header)) return *size;
      }
    }
    const NodeDef& node = NodeOf(w);
    if (std::optional<uint64_t> size = StoredBytes(w, ConstHeaderOf(node))) return *size;
    // Strings take what their values do; a dtype or shape TF.js cannot store is refused here,
    // with the error that names the node.
    return StoredSize(TensorToWeight(Tensor(node), node.name()));
  }

  // What the header alone tells: nothing for strings, nor for a dtype or shape TF.js cannot
  // store.
  std::optional<uint64_t> StoredBytes(const WeightSource& w, const ConstHeader& header) const {
    if (header.kept_codes) return header.content.size();
    WeightDtype dtype;
    if (!ManifestDtypeFor(header.dtype, &dtype) || dtype == WeightDtype::kString) {
      return std::nullopt;
    }
    const int64_t n = tf::ElementCount(header.shape);
    if (n < 0) return std::nullopt;
    const uint64_t elements = static_cast<uint64_t>(n);
    if (WantsQuantized(w.name, dtype, elements)) {
      return elements * (options_.quantize == "uint8" ? 1 : 2);
    }
    return elements * WeightDtypeBytes(dtype);
  }

  ojson Shape(const tensorflow::TensorShapeProto& shape) {
    ojson dims = ojson::Array();
    for (const auto& d : shape.dim()) dims.PushBack(d.size());
    return dims;
  }

  ojson WriteKeptCodes(const WeightSource& w, const NodeDef& node, ShardWriter* shards) {
    const tensorflow::TensorProto& t = Tensor(node);
    json q = ParseJson(node.attr().at(kQuantizationAttr).s(), /*allow_exceptions=*/false);
    WeightDtype logical = WeightDtype::kFloat32;
    auto dtype = node.attr().find("dtype");
    if (dtype != node.attr().end()) ManifestDtypeFor(dtype->second.type(), &logical);
    if (q.is_discarded() || !q.is_object()) {
      ErrorLocation location;
      location.node = node.name();
      throw Error(ErrorCode::kParseError,
                  "Const node '" + node.name() + "': " + kQuantizationAttr + " is not JSON",
                  location);
    }
    shards->Write(t.tensor_content());
    ojson quantization = ojson::Object();
    for (const char* key : {"dtype", "min", "scale", "original_dtype"}) {
      if (q.contains(key)) quantization[key] = ojson::FromJson(q[key]);
    }
    return ojson::Object({{"name", w.name},
                          {"shape", Shape(t.tensor_shape())},
                          {"dtype", WeightDtypeName(logical)},
                          {"quantization", std::move(quantization)}});
  }

  // A weight's values from its node's bytes where they lie there as TF.js stores them (most
  // float32 weights), else from its parse.
  ojson WriteWeight(const WeightSource& w, ShardWriter* shards) {
    if (w.node == nullptr) {
      std::optional<std::string_view> bytes = graph_.SerializedNode(w.index);
      ConstHeader header;
      if (bytes && ReadConstHeader(*bytes, &header) && !header.kept_codes) {
        if (std::optional<WeightData> data =
                ContentAsWeight(header.dtype, header.shape, header.content)) {
          // A graph node's weight is named as the node (CollectWeights).
          return WriteValues(w, header.shape, *data, w.name, shards);
        }
      }
    }
    const NodeDef& node = NodeOf(w);
    if (KeptCodes(node)) return WriteKeptCodes(w, node, shards);
    const tensorflow::TensorProto& t = Tensor(node);
    return WriteValues(w, t.tensor_shape(), TensorToWeight(t, node.name()), node.name(), shards);
  }

  // Writes `data`, quantized if the options say so; `node` is named by its errors.
  ojson WriteValues(const WeightSource& w, const tensorflow::TensorShapeProto& shape,
                    const WeightData& data, const std::string& node, ShardWriter* shards) {
    ojson entry = ojson::Object(
        {{"name", w.name}, {"shape", Shape(shape)}, {"dtype", WeightDtypeName(data.dtype)}});
    if (data.dtype == WeightDtype::kString) {
      for (const std::string& s : data.strings) {
        uint32_t n = static_cast<uint32_t>(s.size());
        char length[4] = {char(n & 0xff), char((n >> 8) & 0xff), char((n >> 16) & 0xff),
                          char(n >> 24)};
        shards->Write(std::string_view(length, 4));
        shards->Write(s);
      }
      return entry;
    }
    if (!WantsQuantized(w.name, data.dtype, data.elements)) {
      shards->Write(data.bytes());
      return entry;
    }
    std::vector<float> values(data.elements);
    std::memcpy(values.data(), data.bytes().data(), data.bytes().size());
    std::string codes;
    ojson quantization = ojson::Object();
    quantization["dtype"] = options_.quantize;
    if (options_.quantize == "float16") {
      codes.resize(values.size() * 2);
      for (size_t i = 0; i < values.size(); ++i) {
        uint16_t h = FloatToHalf(values[i]);
        std::memcpy(&codes[2 * i], &h, 2);
      }
    } else {
      for (float v : values) {
        if (!std::isfinite(v)) {
          ErrorLocation location;
          location.node = node;
          location.option = "quantize";
          throw Error(ErrorCode::kInvalidOption,
                      "TF.js export: weight '" + w.name + "' holds NaN or infinity, which " +
                          options_.quantize +
                          " quantization cannot represent (use float16, or leave the weight out "
                          "with quantizeWeights)",
                      location);
        }
      }
      bool u8 = options_.quantize == "uint8";
      AffineQuantized q = QuantizeAffine(values.data(), values.size(), u8 ? 255 : 65535);
      codes.resize(values.size() * (u8 ? 1 : 2));
      for (size_t i = 0; i < values.size(); ++i) {
        if (u8) {
          codes[i] = static_cast<char>(q.codes[i]);
        } else {
          std::memcpy(&codes[2 * i], &q.codes[i], 2);
        }
      }
      quantization["min"] = q.min;
      quantization["scale"] = q.scale;
    }
    quantization["original_dtype"] = "float32";
    shards->Write(codes);
    entry["quantization"] = std::move(quantization);
    quantized_.push_back(w.name);
    return entry;
  }

  // A Const as the topology holds it: everything but its values (what tfjs-converter's
  // CLEARED_TENSOR_FIELDS leaves: dtype, shape, version_number).
  NodeDef WithoutValues(const NodeDef& node, const std::string& name) {
    NodeDef copy;
    copy.set_name(name);
    copy.set_op(node.op());
    *copy.mutable_input() = node.input();
    copy.set_device(node.device());
    for (const auto& [key, value] : node.attr()) {
      if (key == kQuantizationAttr) continue;
      if (key != "value") {
        (*copy.mutable_attr())[key] = value;
        continue;
      }
      tensorflow::TensorProto* t = (*copy.mutable_attr())["value"].mutable_tensor();
      t->set_dtype(value.tensor().dtype());
      if (value.tensor().has_tensor_shape()) {
        *t->mutable_tensor_shape() = value.tensor().tensor_shape();
      }
      t->set_version_number(value.tensor().version_number());
      if (KeptCodes(node)) {
        // The codes' dtype was the reader's; the topology keeps the Const's own.
        auto dtype = node.attr().find("dtype");
        if (dtype != node.attr().end()) t->set_dtype(dtype->second.type());
      }
    }
    if (node.has_experimental_debug_info()) {
      *copy.mutable_experimental_debug_info() = node.experimental_debug_info();
    }
    if (node.has_experimental_type()) *copy.mutable_experimental_type() = node.experimental_type();
    return copy;
  }

  // Node i's JSON, printed into the text from its deterministic serialisation: the graph's own
  // bytes when it holds them as libprotobuf would write them, else its message's (a Const's
  // without its values). False when a string in it is not UTF-8.
  bool WriteNode(tf::GraphNodes* graph, size_t i, JsonStream* text) {
    const proto::MessageSchema& schema = proto::SchemaOf<NodeDef>();
    if (graph->op(i) != "Const") {
      if (std::optional<std::string_view> bytes = graph->SerializedNode(i)) {
        return text->TryMessageValue(*bytes, schema);
      }
    }
    const NodeDef& node = graph->Node(i);
    const std::string bytes = graph->op(i) == "Const"
                                  ? proto::DeterministicBytes(WithoutValues(node, node.name()))
                                  : proto::DeterministicBytes(node);
    return text->TryMessageValue(bytes, schema);
  }

  // Renames "<const>", "<const>:..." and "^<const>" references inside one function.
  static std::string Renamed(const std::string& input,
                             const std::map<std::string, std::string>& consts) {
    bool control = !input.empty() && input[0] == '^';
    std::string body = control ? input.substr(1) : input;
    std::string head = body.substr(0, body.find(':'));
    auto it = consts.find(head);
    if (it == consts.end()) return input;
    return (control ? "^" : "") + it->second + body.substr(head.size());
  }

  ojson FunctionJson(const tensorflow::FunctionDef& f) {
    std::map<std::string, std::string> consts;
    for (const NodeDef& node : f.node_def()) {
      if (node.op() == "Const") consts[node.name()] = f.signature().name() + "/" + node.name();
    }
    tensorflow::FunctionDef copy;
    *copy.mutable_signature() = f.signature();
    *copy.mutable_attr() = f.attr();
    *copy.mutable_arg_attr() = f.arg_attr();
    *copy.mutable_resource_arg_unique_id() = f.resource_arg_unique_id();
    for (const NodeDef& node : f.node_def()) {
      NodeDef* n = copy.add_node_def();
      if (node.op() == "Const") {
        *n = WithoutValues(node, consts[node.name()]);
      } else {
        *n = node;
      }
      for (std::string& input : *n->mutable_input()) input = Renamed(input, consts);
    }
    for (const auto& [key, value] : f.ret()) (*copy.mutable_ret())[key] = Renamed(value, consts);
    *copy.mutable_control_ret() = f.control_ret();
    return MessageToJson(copy);
  }

  // {"node": [...], "library": {...}, "versions": {...}}, a node at a time.
  void Topology(tf::GraphNodes* graph, JsonStream* text) {
    text->BeginObject();
    text->Key("node");
    text->BeginArray();
    for (size_t i = 0; i < graph->size(); ++i) {
      if (!WriteNode(graph, i, text)) NotUtf8("node '" + std::string(graph->name(i)) + "'");
    }
    text->EndArray();
    // TF.js reads "versions" unconditionally: it is written even when empty, and so is the
    // library, as the current converter does.
    const tensorflow::FunctionDefLibrary& functions = graph->library();
    ojson library = ojson::Object();
    if (functions.function_size() > 0) {
      ojson list = ojson::Array();
      for (const auto& f : functions.function()) list.PushBack(FunctionJson(f));
      library["function"] = std::move(list);
    }
    tensorflow::FunctionDefLibrary rest;
    *rest.mutable_gradient() = functions.gradient();
    *rest.mutable_registered_gradients() = functions.registered_gradients();
    ojson rest_json = MessageToJson(rest);
    for (auto& [key, value] : rest_json.members()) library[key] = std::move(value);
    text->Key("library");
    text->Value(library, "the function library");
    text->Key("versions");
    text->Value(MessageToJson(graph->versions()), "versions");
    text->EndObject();
  }

  tf::GraphNodes& graph_;
  const WriteOptions& options_;
  OutputSet* out_;
  std::vector<WeightSource> weights_;
  json quantized_ = json::array();
  int renamed_consts_ = 0;
};

}  // namespace

json WriteGraphModel(tf::GraphNodes* graph, const tensorflow::SignatureDef* signature,
                     const WriteOptions& options, OutputSet* out) {
  return GraphModelWriter(graph, options, out).Write(signature);
}

json WriteGraphModel(const tensorflow::GraphDef& graph, const tensorflow::SignatureDef* signature,
                     const WriteOptions& options, OutputSet* out) {
  tf::ParsedGraphNodes nodes(graph);
  return WriteGraphModel(&nodes, signature, options, out);
}

}  // namespace graphport::tfjs
