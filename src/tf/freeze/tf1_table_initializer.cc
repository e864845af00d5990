#include "tf/freeze/tf1_table_initializer.h"

#include <set>
#include <unordered_map>

#include "tf/freeze/function_body.h"
#include "tf/freeze/prune.h"
#include "tf/freeze/text_file_initializers.h"
#include "tf/initializer_graph.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

using nlohmann::json;
using tensorflow::GraphDef;
using tensorflow::NodeDef;

// The nodes `root` needs, itself included, by data and control edges.
std::set<std::string> Needed(const std::unordered_map<std::string, const NodeDef*>& nodes,
                             const std::string& root) {
  std::set<std::string> needed;
  std::vector<std::string> stack = {root};
  while (!stack.empty()) {
    std::string name = stack.back();
    stack.pop_back();
    auto it = nodes.find(name);
    if (it == nodes.end() || !needed.insert(name).second) continue;
    for (const auto& input : it->second->input()) stack.push_back(InputNodeName(input));
  }
  return needed;
}

}  // namespace

std::vector<std::string> Tf1TableInitOps(const tensorflow::MetaGraphDef& meta_graph,
                                         const GraphDef& graph) {
  std::unordered_map<std::string, const NodeDef*> nodes;
  for (const auto& node : graph.node()) nodes.emplace(node.name(), &node);
  std::vector<std::string> init_ops;
  std::set<std::string> seen;
  auto add = [&](const std::string& name) {
    if (nodes.count(name) != 0 && seen.insert(name).second) init_ops.push_back("^" + name);
  };
  std::vector<std::string> listed = CollectionNodeList(meta_graph, kTableInitializerCollection);
  for (const std::string& value : listed) add(InputNodeName(value));
  if (!listed.empty()) return init_ops;
  // No collection: what the loader's init op waits on, through the NoOps that group it.
  std::vector<std::string> stack;
  std::string loader = LoaderInitOp(meta_graph);
  if (!loader.empty()) stack.push_back(loader);
  std::set<std::string> visited;
  while (!stack.empty()) {
    std::string name = stack.back();
    stack.pop_back();
    auto it = nodes.find(name);
    if (it == nodes.end() || !visited.insert(name).second) continue;
    if (IsTableInitOp(it->second->op())) add(name);
    if (it->second->op() != "NoOp") continue;
    // Reversed, so that the init ops come out in the order the NoOps list them.
    for (int k = it->second->input_size() - 1; k >= 0; --k) {
      stack.push_back(InputNodeName(it->second->input(k)));
    }
  }
  return init_ops;
}

std::map<std::string, std::string> Tf1AssetNodes(const tensorflow::MetaGraphDef& meta_graph) {
  std::map<std::string, std::string> assets;
  for (const auto& asset : meta_graph.asset_file_def()) {
    assets[InputNodeName(asset.tensor_info().name())] = asset.filename();
  }
  if (!assets.empty()) return assets;
  auto it = meta_graph.collection_def().find("saved_model_assets");
  if (it == meta_graph.collection_def().end()) return assets;
  for (const auto& any : it->second.any_list().value()) {
    tensorflow::AssetFileDef asset;
    if (any.type_url() != "type.googleapis.com/tensorflow.AssetFileDef" ||
        !asset.ParseFromString(any.value())) {
      continue;
    }
    assets[InputNodeName(asset.tensor_info().name())] = asset.filename();
  }
  return assets;
}

TableInitializer BuildTf1TableInitializer(GraphDef graph, const std::vector<std::string>& init_ops,
                                          const std::vector<std::string>& names,
                                          const GraphDef& frozen,
                                          const tensorflow::MetaGraphDef& meta_graph,
                                          const OpRegistry& registry,
                                          const AssetReader& read_asset) {
  TableInitializer result;
  json& report = result.report;
  report = {{"tables", json::array()},
            {"initOpsLeftOut", json::array()},
            {"tablesNotFilled", json::array()}};
  std::set<std::string> frozen_tables;
  for (const auto& node : frozen.node()) {
    if (IsTableOp(node.op())) frozen_tables.insert(node.name());
  }
  PruneToOutputs(&graph, init_ops);
  std::unordered_map<std::string, const NodeDef*> nodes;
  for (const auto& node : graph.node()) nodes.emplace(node.name(), &node);

  // Each init op with the tables it fills; kept when the signature reads one of them.
  std::vector<std::string> kept;
  std::map<std::string, std::vector<std::string>> filled_by;  // table -> init ops (as named)
  for (size_t k = 0; k < init_ops.size(); ++k) {
    const std::string& name = k < names.size() ? names[k] : init_ops[k];
    std::vector<std::string> tables;
    bool read = false;
    for (const std::string& needed : Needed(nodes, InputNodeName(init_ops[k]))) {
      if (!IsTableOp(nodes.at(needed)->op())) continue;
      tables.push_back(needed);
      read = read || frozen_tables.count(needed) != 0;
    }
    if (!read) {
      report["initOpsLeftOut"].push_back(
          {{"initOp", name},
           {"why",
            tables.empty() ? "it fills no table" : "it fills no table the signature reads"}});
      continue;
    }
    kept.push_back(init_ops[k]);
    for (const std::string& table : tables) filled_by[table].push_back(name);
  }
  for (const std::string& table : frozen_tables) {
    if (filled_by.count(table) == 0) report["tablesNotFilled"].push_back(table);
  }
  if (kept.empty()) {
    graph.Clear();
    result.graph = std::move(graph);
    return result;
  }
  PruneToOutputs(&graph, kept);

  TextFileTablesContext context;
  context.asset_nodes = Tf1AssetNodes(meta_graph);
  context.registry = &registry;
  context.read_asset = read_asset;
  context.describe = [&names](const std::string& node) {
    std::string what = "table initializer '" + node + "'";
    for (const std::string& name : names) {
      std::string op = InputNodeName(name);
      if (node == op || node.rfind(op + "/", 0) == 0) {
        what += " (init op '" + op + "')";
        break;
      }
    }
    return what;
  };
  report["fromTextFiles"] = FillTextFileTables(&graph, context);
  // The file names a filled table no longer reads (absolute paths of the machine that saved
  // the model) go with their Identities.
  PruneToOutputs(&graph, kept);
  for (const auto& node : graph.node()) {
    auto tables = filled_by.find(node.name());
    if (tables == filled_by.end()) continue;
    report["tables"].push_back({{"node", node.name()},
                                {"op", node.op()},
                                {"filledBy", tables->second},
                                {"readBySignature", frozen_tables.count(node.name()) != 0}});
  }
  report["initializerNodes"] = graph.node_size();
  result.graph = std::move(graph);
  return result;
}

}  // namespace graphport::tf
