#include "tfjs/read_graph_model.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/error.h"
#include "tf/dtype.h"
#include "tf/freeze/op_outputs.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf/registry_ops.h"
#include "tfjs/manifest.h"
#include "tfjs/model_initializer.h"
#include "tfjs/model_json.h"
#include "tfjs/shard_reader.h"
#include "tfjs/signature.h"
#include "tfjs/tfjs_ops.h"
#include "tfjs/topology.h"
#include "tfjs/weight_values.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

json QuantizationJson(const Quantization& q) {
  json out = json::object();
  out["dtype"] = WeightDtypeName(q.dtype);
  if (q.dtype != WeightDtype::kFloat16) {
    out["scale"] = q.scale;
    out["min"] = q.min;
  }
  if (q.has_original_dtype) out["original_dtype"] = q.original_dtype;
  return out;
}

class GraphModelReader {
 public:
  GraphModelReader(InputSet* inputs, const std::string& model_json, const ReadOptions& options)
      : inputs_(inputs), model_json_(model_json), options_(options) {}

  ReadResult Read(ByteSource* source, tensorflow::MetaGraphDef* meta_graph) {
    ReadResult result;
    json model = ParseModelJson(source, model_json_, &result.input_bytes);
    RequireGraphModel(model, model_json_);
    meta_graph->Clear();
    tensorflow::GraphDef* graph = meta_graph->mutable_graph_def();
    json& topology = model["modelTopology"];
    NormalizeCharCodeBytes(&topology);
    ReadTopology(topology, model_json_, graph);
    CheckOps(*graph, "");
    IndexConsts(graph);
    // The initializer graph's Consts have their weights in the same manifest, after the
    // model's: it is read now and merged into the graph once they are filled.
    tensorflow::GraphDef initializer;
    auto initializer_json = model.find("modelInitializer");
    bool has_initializer = initializer_json != model.end() && initializer_json->is_object() &&
                           initializer_json->contains("node");
    if (has_initializer) {
      NormalizeCharCodeBytes(&*initializer_json);
      ReadTopology(*initializer_json, model_json_, &initializer, "modelInitializer");
      CheckOps(initializer, "modelInitializer: ");
      IndexConsts(&initializer);
    }

    Manifest manifest = ReadManifest(model["weightsManifest"], model_json_, *inputs_);
    json weights = json::array();
    json shards = json::array();
    json unused = json::array();
    for (size_t g = 0; g < manifest.groups.size(); ++g) {
      ReadGroup(manifest.groups[g], g, &weights, &shards, &unused, &result.input_bytes);
    }
    CheckConstsFilled();
    json initializer_summary;
    if (has_initializer) {
      MergedInitializer merged = MergeInitializer(initializer, ResourceLinks(model), meta_graph);
      linked_ = merged.linked;
      initializer_summary = {{"nodes", merged.nodes},     {"shared", merged.shared},
                             {"renamed", merged.renamed}, {"initOps", merged.init_ops},
                             {"mainOp", merged.main_op},  {"linkedInputs", merged.linked}};
    }

    std::string signature_source;
    if (const json* signature = FindSignature(model, &signature_source)) {
      tensorflow::SignatureDef* def = &(*meta_graph->mutable_signature_def())[kSignatureKey];
      ReadSignature(*signature, model_json_ + ": " + signature_source, def);
      // A table's handle is no input of the TensorFlow graph: it comes from the initializer.
      for (auto it = def->mutable_inputs()->begin(); it != def->mutable_inputs()->end();) {
        std::string node = it->second.name().substr(0, it->second.name().find(':'));
        bool linked = std::find(linked_.begin(), linked_.end(), node) != linked_.end();
        it = linked ? def->mutable_inputs()->erase(it) : std::next(it);
      }
    }
    json& summary = result.manifest;
    summary = json::object();
    for (const char* key :
         {"format", "generatedBy", "convertedBy", "userDefinedMetadata", "initializerSignature"}) {
      auto it = model.find(key);
      summary[key] = it == model.end() ? json() : *it;
    }
    summary["signatureSource"] = signature_source.empty() ? json() : json(signature_source);
    summary["modelInitializer"] = initializer_summary;
    summary["dequantized"] = options_.dequantize;
    summary["weights"] = std::move(weights);
    summary["shards"] = std::move(shards);
    summary["unusedWeights"] = std::move(unused);
    return result;
  }

 private:
  [[noreturn]] void Fail(ErrorCode code, const std::string& message, const std::string& node) {
    ErrorLocation location;
    location.file = model_json_;
    location.node = node;
    throw Error(code, model_json_ + ": " + message, location);
  }

  // The signature inputs and initializer outputs that TF.js pairs by resourceId.
  static std::vector<ResourceLink> ResourceLinks(const json& model) {
    std::vector<ResourceLink> links;
    std::string source;
    const json* signature = FindSignature(model, &source);
    auto init = model.find("initializerSignature");
    if (signature == nullptr || !signature->is_object() || init == model.end() ||
        !init->is_object()) {
      return links;
    }
    auto side = [](const json& s, const char* key) {
      auto it = s.find(key);
      return it != s.end() && it->is_object() ? *it : json::object();
    };
    json outputs = side(*init, "outputs");
    json inputs = side(*signature, "inputs");
    for (const auto& [key, input] : inputs.items()) {
      if (!input.is_object() || !input.contains("resourceId") || !input.contains("name")) continue;
      for (const auto& [out_key, output] : outputs.items()) {
        if (!output.is_object() || !output.contains("name") || !output["name"].is_string() ||
            !input["name"].is_string() ||
            output.value("resourceId", json()) != input["resourceId"]) {
          continue;
        }
        if (!input["resourceId"].is_number_integer()) continue;
        std::string placeholder = input["name"].get<std::string>();
        links.push_back({placeholder.substr(0, placeholder.find(':')),
                         output["name"].get<std::string>(), input["resourceId"].get<int64_t>(),
                         key});
      }
    }
    return links;
  }

  bool KnownOp(const std::string& op) {
    if (IsTfjsOp(op)) return true;
    // TensorFlow's ops with several outputs (op_outputs.h), which a TF.js model written with
    // allowUnsupportedOps may hold: BoostedTreesBucketize, say.
    std::vector<tf::OutputArgLayout> outputs;
    if (tf::BuiltinOutputArgs(op, &outputs)) return true;
    // Any op of TensorFlow's registry (AsString, ParseExampleV2...): a model written with
    // allowUnsupportedOps holds them, and what graphport writes it reads back.
    if (tf::InTensorflowRegistry(op)) return true;
    if (known_.empty()) {
      for (const auto& def : tf::BuiltinDefaultsOpList().op()) known_.insert(def.name());
      if (options_.op_registry != nullptr) {
        for (const auto& def : options_.op_registry->op()) known_.insert(def.name());
      }
    }
    return known_.count(op) != 0;
  }

  void CheckNodeOps(const google::protobuf::RepeatedPtrField<tensorflow::NodeDef>& nodes,
                    const std::set<std::string>& functions, const std::string& where) {
    for (const auto& node : nodes) {
      // A node may call a function of the library by its name.
      if (KnownOp(node.op()) || functions.count(node.op()) != 0) continue;
      Fail(ErrorCode::kUnsupported,
           where + "node '" + node.name() + "' has op '" + node.op() +
               "', which neither TensorFlow.js nor TensorFlow" +
               (options_.op_registry != nullptr ? " (the op registry given)" : "") + " defines",
           node.name());
    }
  }

  void CheckOps(const tensorflow::GraphDef& graph, const std::string& where) {
    std::set<std::string> functions;
    for (const auto& f : graph.library().function()) functions.insert(f.signature().name());
    CheckNodeOps(graph.node(), functions, where);
    for (const auto& f : graph.library().function()) {
      CheckNodeOps(f.node_def(), functions, where + "function '" + f.signature().name() + "': ");
    }
  }

  // Const nodes by name: the graph's own, then those of function bodies (tfjs-converter
  // renames those "<function>/<const>", which is also their weight's name), then the
  // initializer's. TF.js has one weight map for both graphs: a name in both gets one weight.
  void IndexConsts(tensorflow::GraphDef* graph) {
    for (auto& node : *graph->mutable_node()) {
      if (node.op() == "Const") consts_.emplace(node.name(), &node);
    }
    for (auto& f : *graph->mutable_library()->mutable_function()) {
      for (auto& node : *f.mutable_node_def()) {
        if (node.op() == "Const") consts_.emplace(node.name(), &node);
      }
    }
  }

  void ReadGroup(const WeightGroup& group, size_t g, json* weights, json* shards, json* unused,
                 uint64_t* input_bytes) {
    ShardReader reader(inputs_, group, model_json_);
    std::vector<std::pair<uint64_t, uint64_t>> spans;  // offset, bytes of each weight
    for (const WeightSpec& spec : group.weights) {
      uint64_t start = reader.offset();
      auto found = consts_.find(spec.name);
      if (found == consts_.end()) {
        SkipWeight(&reader, spec);
        unused->push_back(spec.name);
      } else {
        if (!filled_.insert(spec.name).second) {
          Fail(ErrorCode::kParseError,
               spec.where + ": weight '" + spec.name + "' is in the manifest twice", spec.name);
        }
        auto [first, last] = consts_.equal_range(spec.name);
        FillConst(&reader, spec, first->second);
        for (auto it = std::next(first); it != last; ++it) CopyValue(*first->second, it->second);
      }
      spans.emplace_back(start, reader.offset() - start);
    }
    uint64_t extra = reader.Finish();
    // Where each shard starts in the group's bytes, to say which shards a weight lies in.
    std::vector<uint64_t> shard_start;
    uint64_t at = 0;
    for (size_t s = 0; s < group.shards.size(); ++s) {
      int64_t bytes = reader.shard_bytes()[s];
      shard_start.push_back(at);
      at += bytes < 0 ? 0 : static_cast<uint64_t>(bytes);
      shards->push_back({{"path", group.shards[s].path},
                         {"input", group.shards[s].input},
                         {"group", g},
                         {"bytes", bytes}});
    }
    *input_bytes += at;
    if (extra != 0 && !shards->empty()) shards->back()["trailingBytes"] = extra;
    for (size_t i = 0; i < group.weights.size(); ++i) {
      const WeightSpec& spec = group.weights[i];
      json entry = {
          {"name", spec.name}, {"dtype", WeightDtypeName(spec.dtype)}, {"shape", spec.shape}};
      if (spec.quantization.present) entry["quantization"] = QuantizationJson(spec.quantization);
      entry["group"] = g;
      entry["offset"] = spans[i].first;
      entry["bytes"] = spans[i].second;
      json in = json::array();
      uint64_t begin = spans[i].first, end = spans[i].first + spans[i].second;
      for (size_t s = 0; s < group.shards.size(); ++s) {
        uint64_t s_begin = shard_start[s];
        uint64_t s_end = s + 1 < shard_start.size() ? shard_start[s + 1] : at;
        if (begin < s_end && end > s_begin) in.push_back(group.shards[s].path);
      }
      entry["shards"] = std::move(in);
      weights->push_back(std::move(entry));
    }
  }

  void FillConst(ShardReader* reader, const WeightSpec& spec, tensorflow::NodeDef* node) {
    auto& attrs = *node->mutable_attr();
    tensorflow::TensorProto* tensor = attrs["value"].mutable_tensor();
    tensorflow::DataType dtype = tensor->dtype();
    auto dtype_attr = attrs.find("dtype");
    if (dtype_attr != attrs.end() && dtype_attr->second.type() != tensorflow::DT_INVALID) {
      dtype = dtype_attr->second.type();
    }
    if (tensor->has_tensor_shape()) {
      int64_t elements = tf::ElementCount(tensor->tensor_shape());
      if (elements < 0 || static_cast<uint64_t>(elements) != spec.elements) {
        Fail(ErrorCode::kParseError,
             spec.where + ": weight '" + spec.name + "' has " + std::to_string(spec.elements) +
                 " elements but its Const node's tensorShape holds " +
                 (elements < 0 ? std::string("an unknown number") : std::to_string(elements)),
             node->name());
      }
    } else {
      for (int64_t d : spec.shape) tensor->mutable_tensor_shape()->add_dim()->set_size(d);
    }
    // The converter cleared these; clear them again in case a writer left any.
    tensorflow::TensorShapeProto shape = tensor->tensor_shape();
    int version = tensor->version_number();
    tensor->Clear();
    *tensor->mutable_tensor_shape() = std::move(shape);
    tensor->set_version_number(version);
    ReadWeightValues(reader, spec, dtype, options_.dequantize, node->name(), model_json_, tensor);
    if (spec.quantization.present && !options_.dequantize) {
      attrs[kQuantizationAttr].set_s(QuantizationJson(spec.quantization).dump());
    }
  }

  static void CopyValue(const tensorflow::NodeDef& from, tensorflow::NodeDef* to) {
    for (const char* key : {"value", kQuantizationAttr}) {
      auto it = from.attr().find(key);
      if (it != from.attr().end()) (*to->mutable_attr())[key] = it->second;
    }
  }

  void CheckConstsFilled() {
    for (const auto& [name, node] : consts_) {
      if (filled_.count(name) != 0) continue;
      auto value = node->attr().find("value");
      if (value == node->attr().end()) continue;
      const tensorflow::TensorProto& t = value->second.tensor();
      int64_t elements = tf::ElementCount(t.tensor_shape());
      bool has_values = !t.tensor_content().empty() || t.float_val_size() || t.double_val_size() ||
                        t.int_val_size() || t.string_val_size() || t.int64_val_size() ||
                        t.bool_val_size() || t.half_val_size() || t.scomplex_val_size() ||
                        t.dcomplex_val_size() || t.uint32_val_size() || t.uint64_val_size() ||
                        t.resource_handle_val_size() || t.variant_val_size() ||
                        !t.float8_val().empty();
      if (elements != 0 && !has_values) {
        Fail(ErrorCode::kParseError,
             "Const node '" + name + "' has no value and no weight of that name in the manifest",
             name);
      }
    }
  }

  InputSet* inputs_;
  const std::string& model_json_;
  const ReadOptions& options_;
  std::set<std::string> known_;
  std::multimap<std::string, tensorflow::NodeDef*> consts_;
  std::set<std::string> filled_;
  std::vector<std::string> linked_;  // Placeholders the initializer's outputs now feed
};

}  // namespace

ReadResult ReadGraphModel(ByteSource* source, InputSet* inputs, const std::string& model_json,
                          const ReadOptions& options, tensorflow::MetaGraphDef* meta_graph) {
  return GraphModelReader(inputs, model_json, options).Read(source, meta_graph);
}

}  // namespace graphport::tfjs
