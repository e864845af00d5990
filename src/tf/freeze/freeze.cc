#include "tf/freeze/freeze.h"

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "tf/freeze/function_body.h"
#include "tf/freeze/inline_calls.h"
#include "tf/freeze/prune.h"
#include "tf/freeze/signature_graph.h"
#include "tf/freeze/table_initializer.h"
#include "tf/freeze/tf1_table_initializer.h"
#include "tf/freeze/variable_values.h"
#include "tf/freeze/variables_to_consts.h"
#include "tf/initializer_graph.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf/meta_graph/op_registry.h"
#include "tf/optimize/optimize_for_tfjs.h"

namespace graphport::tf {

using nlohmann::json;

namespace {

// The captured resources that are tables (TrackableResources of the object graph).
std::vector<ResourceCapture> ResourceCaptures(const SignatureGraph& start,
                                              const tensorflow::MetaGraphDef& meta_graph) {
  std::vector<ResourceCapture> tables;
  const auto& objects = meta_graph.object_graph_def().nodes();
  for (const auto& capture : start.captures) {
    if (capture.object_id < 0 || capture.object_id >= objects.size()) continue;
    if (objects[capture.object_id].kind_case() != tensorflow::SavedObject::kResource) continue;
    tables.push_back({capture.node, capture.object_id});
  }
  return tables;
}

}  // namespace

bool NeedsFreeze(const tensorflow::GraphDef& graph) {
  for (const auto& node : graph.node()) {
    if (IsVariableOp(node.op()) || node.op() == "ReadVariableOp" ||
        CalledFunction(node, graph.library()) != nullptr) {
      return true;
    }
  }
  return false;
}

namespace {

// Moves `from` (on the heap) into `to` (on the output model's arena). Protobuf copies a
// message that changes arena, and the frozen graph's Consts hold every weight: their
// tensor_content is taken out first and moved in after, so the weights are never held
// twice (the 200 MB benchmark's export peaked at 2.0x the model with the copy, 1.0x without).
void MoveGraph(tensorflow::GraphDef* from, tensorflow::GraphDef* to) {
  std::vector<std::pair<int, std::unique_ptr<std::string>>> contents;
  for (int i = 0; i < from->node_size(); ++i) {
    tensorflow::NodeDef* node = from->mutable_node(i);
    auto value = node->mutable_attr()->find("value");
    if (value == node->mutable_attr()->end() || !value->second.has_tensor() ||
        value->second.tensor().tensor_content().empty()) {
      continue;
    }
    contents.emplace_back(i, value->second.mutable_tensor()->release_tensor_content());
  }
  *to = std::move(*from);
  for (auto& [i, content] : contents) {
    auto& value = (*to->mutable_node(i)->mutable_attr())["value"];
    value.mutable_tensor()->set_tensor_content(std::move(*content));
  }
}

AssetReader NoAssets() {
  return [](const std::string&, std::string*, std::string*) { return false; };
}

// A TF1 table initializer that reads variables (keys or values computed from them) gets their
// checkpoint values, as TensorFlow's freeze of the init ops would.
void FreezeInitializerVariables(tensorflow::GraphDef* initializer,
                                const tensorflow::GraphDef& graph, VariableStore* store,
                                const std::string& signature) {
  bool any = false;
  for (const auto& node : initializer->node()) any = any || IsVariableOp(node.op());
  if (!any) return;
  if (store == nullptr) {
    throw Error(ErrorCode::kNotFound,
                "the tables of signature '" + signature +
                    "' are filled from variables, and no checkpoint (variables/variables.index) "
                    "was given");
  }
  std::map<std::string, VariableValue> values = GraphVariableValues(*initializer, graph, store);
  VariablesToConsts(initializer, &values);
}

}  // namespace

json Freeze(const tensorflow::MetaGraphDef& meta_graph, const tensorflow::GraphDef& graph,
            VariableStore* store, const FreezeOptions& options, tensorflow::MetaGraphDef* out) {
  OpRegistry registry;
  if (options.op_registry != nullptr) {
    registry.AddLayer(options.op_registry, "the op registry given", true);
  }
  registry.AddLayer(&meta_graph.meta_info_def().stripped_op_list(), "the model's stripped_op_list",
                    true);

  SignatureGraph start = BuildSignatureGraph(meta_graph, graph, options.signature, registry);
  // Tables stay resource inputs, fed by their initializer graph; the rest are variables.
  std::vector<ResourceCapture> tables = ResourceCaptures(start, meta_graph);
  size_t variables = start.captures.size() - tables.size();
  std::map<std::string, VariableValue> values;
  if (variables != 0) {
    if (store == nullptr) {
      throw Error(ErrorCode::kNotFound,
                  "signature '" + options.signature + "' reads " + std::to_string(variables) +
                      " variables, and no checkpoint (variables/variables.index) was given");
    }
    values = CapturedValues(start, meta_graph, graph, store);
  }
  TableInitializer initializer;
  if (!tables.empty()) {
    initializer = BuildTableInitializer(meta_graph, graph, tables, registry,
                                        options.read_asset ? options.read_asset : NoAssets());
  }

  std::vector<std::string> fetches;
  for (const auto& [key, info] : start.outputs) fetches.push_back(info.name());
  // TF1: the tables' init ops go through the inlining with the outputs, and the initializer
  // graph is cut from the same graph, so that both hold each table under one name.
  std::vector<std::string> init_ops;
  if (start.function.empty()) init_ops = Tf1TableInitOps(meta_graph, start.graph);
  fetches.insert(fetches.end(), init_ops.begin(), init_ops.end());
  int inlined = InlineCalls(&start.graph, registry, &fetches);
  std::vector<std::string> init_fetches(fetches.begin() + start.outputs.size(), fetches.end());
  fetches.resize(start.outputs.size());
  // Copied before the variables become Consts: the copy holds no checkpoint value.
  tensorflow::GraphDef unpruned;
  if (!init_ops.empty()) unpruned = start.graph;
  for (size_t k = 0; k < fetches.size(); ++k) {
    std::string node;
    int index = 0;
    SplitGraphInput(fetches[k], &node, &index);
    start.outputs[k].second.set_name(node + ":" + std::to_string(index));
  }
  int before = start.graph.node_size();
  int dropped = PruneToOutputs(&start.graph, fetches);
  if (start.function.empty()) {
    bool any = false;
    for (const auto& node : start.graph.node()) any = any || IsVariableOp(node.op());
    if (any && store == nullptr) {
      throw Error(ErrorCode::kNotFound,
                  "signature '" + options.signature +
                      "' reads variables, and no checkpoint (variables/variables.index) was "
                      "given");
    }
    if (any) values = GraphVariableValues(start.graph, graph, store);
  }
  if (!init_ops.empty()) {
    std::vector<std::string> names;
    for (const std::string& op : init_ops) names.push_back(op.substr(1));
    initializer =
        BuildTf1TableInitializer(std::move(unpruned), init_fetches, names, start.graph, meta_graph,
                                 registry, options.read_asset ? options.read_asset : NoAssets());
    FreezeInitializerVariables(&initializer.graph, graph, store, options.signature);
  }
  VariablesToConstsResult frozen = VariablesToConsts(&start.graph, &values);
  // An input the outputs do not need was pruned with its Placeholder: TF.js (like
  // tfjs-converter's signature) lists only inputs the graph has.
  std::set<std::string> kept;
  for (const auto& node : start.graph.node()) kept.insert(node.name());
  std::vector<std::string> unused_inputs;
  for (auto it = start.inputs.begin(); it != start.inputs.end();) {
    std::string node;
    int index = 0;
    SplitGraphInput(it->second.name(), &node, &index);
    if (kept.count(node) != 0) {
      ++it;
      continue;
    }
    unused_inputs.push_back(it->first);
    it = start.inputs.erase(it);
  }

  json optimized = nullptr;
  if (options.optimize_for_tfjs) {
    std::vector<std::string> inputs;
    for (const auto& [key, info] : start.inputs) inputs.push_back(info.name());
    std::vector<std::string> outputs;
    for (const auto& [key, info] : start.outputs) outputs.push_back(info.name());
    optimized = OptimizeForTfjs(&start.graph, inputs, &outputs);
    for (size_t k = 0; k < outputs.size(); ++k) {
      std::string node;
      int index = 0;
      SplitGraphInput(outputs[k], &node, &index);
      start.outputs[k].second.set_name(node + ":" + std::to_string(index));
    }
  }

  out->Clear();
  *out->mutable_meta_info_def() = meta_graph.meta_info_def();
  out->mutable_meta_info_def()->clear_any_info();
  MoveGraph(&start.graph, out->mutable_graph_def());
  tensorflow::SignatureDef& signature = (*out->mutable_signature_def())[options.signature];
  signature.set_method_name(start.method_name);
  for (const auto& [key, info] : start.inputs) (*signature.mutable_inputs())[key] = info;
  for (const auto& [key, info] : start.outputs) (*signature.mutable_outputs())[key] = info;
  json tables_report = nullptr;
  if (!tables.empty() || !init_ops.empty()) {
    MergedInitializer merged = MergeInitializer(initializer.graph, initializer.links, out);
    tables_report = std::move(initializer.report);
    tables_report["initOps"] = merged.init_ops;
    tables_report["mainOp"] = merged.main_op;
    tables_report["renamed"] = merged.renamed;
    tables_report["shared"] = merged.shared;
  }

  json report = {{"signature", options.signature},
                 {"function", start.function.empty() ? json(nullptr) : json(start.function)},
                 {"inlinedCalls", inlined},
                 {"variables", frozen.variables},
                 {"variableBytes", frozen.value_bytes},
                 {"readsMadeIdentity", frozen.reads},
                 {"gathersRewritten", frozen.gathers},
                 {"nodesPruned", dropped},
                 {"nodes", out->graph_def().node_size()},
                 {"nodesBeforePrune", before}};
  if (!unused_inputs.empty()) report["unusedInputsDropped"] = unused_inputs;
  report["optimized"] = std::move(optimized);
  report["tables"] = std::move(tables_report);
  json consts = json::array();
  for (const auto& [node, key] : frozen.consts) consts.push_back({{"node", node}, {"key", key}});
  report["constants"] = std::move(consts);
  return report;
}

}  // namespace graphport::tf
