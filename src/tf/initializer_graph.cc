#include "tf/initializer_graph.h"

#include <set>

#include "proto/deterministic_bytes.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

using tensorflow::GraphDef;
using tensorflow::NodeDef;

std::string Unused(const std::string& base, const std::set<std::string>& taken) {
  std::string name = base;
  for (int i = 1; taken.count(name) != 0; ++i) name = base + "_" + std::to_string(i);
  return name;
}

}  // namespace

std::vector<std::string> CollectionNodeList(const tensorflow::MetaGraphDef& meta, const char* key) {
  auto it = meta.collection_def().find(key);
  if (it == meta.collection_def().end()) return {};
  const auto& values = it->second.node_list().value();
  return {values.begin(), values.end()};
}

std::string LoaderInitOp(const tensorflow::MetaGraphDef& meta) {
  auto signature = meta.signature_def().find(kInitOpSignatureKey);
  if (signature != meta.signature_def().end()) {
    auto output = signature->second.outputs().find(kInitOpSignatureKey);
    if (output != signature->second.outputs().end()) return InputNodeName(output->second.name());
  }
  for (const char* key : {kMainOpCollection, kLegacyInitOpCollection}) {
    std::vector<std::string> ops = CollectionNodeList(meta, key);
    if (!ops.empty()) return InputNodeName(ops[0]);
  }
  return "";
}

MergedInitializer MergeInitializer(const GraphDef& initializer,
                                   const std::vector<ResourceLink>& links,
                                   tensorflow::MetaGraphDef* meta_graph) {
  MergedInitializer merged;
  GraphDef* graph = meta_graph->mutable_graph_def();
  std::map<std::string, const NodeDef*> existing;
  std::set<std::string> taken;
  for (const NodeDef& node : graph->node()) {
    existing[node.name()] = &node;
    taken.insert(node.name());
  }
  for (const NodeDef& node : initializer.node()) taken.insert(node.name());

  std::set<std::string> shared;
  for (const NodeDef& node : initializer.node()) {
    ++merged.nodes;
    auto same = existing.find(node.name());
    if (same == existing.end()) continue;
    if (proto::DeterministicBytes(*same->second) == proto::DeterministicBytes(node)) {
      shared.insert(node.name());
      ++merged.shared;
    } else {
      std::string name = Unused("initializer/" + node.name(), taken);
      taken.insert(name);
      merged.renamed[node.name()] = name;
    }
  }
  auto renamed = [&](const std::string& name) {
    auto it = merged.renamed.find(name);
    return it == merged.renamed.end() ? name : it->second;
  };

  std::set<std::string> read;  // initializer nodes another initializer node reads
  std::vector<std::string> order;
  for (const NodeDef& node : initializer.node()) {
    for (const std::string& input : node.input()) read.insert(renamed(InputNodeName(input)));
    order.push_back(renamed(node.name()));
    if (shared.count(node.name()) != 0) continue;
    NodeDef* copy = graph->add_node();
    *copy = node;
    copy->set_name(order.back());
    if (order.back() != node.name()) {
      (*copy->mutable_attr())[kInitializerNameAttr].set_s(node.name());
    }
    for (std::string& input : *copy->mutable_input()) {
      std::string from = InputNodeName(input);
      auto it = merged.renamed.find(from);
      if (it == merged.renamed.end()) continue;
      size_t at = input.find(from);
      input.replace(at, from.size(), it->second);
    }
  }
  for (const std::string& name : order) {
    if (read.count(name) == 0) merged.init_ops.push_back(name);
  }
  std::set<std::string> initializer_names(order.begin(), order.end());
  for (const ResourceLink& link : links) {
    std::string from = renamed(InputNodeName(link.tensor));
    if (initializer_names.count(from) == 0) continue;
    for (NodeDef& node : *graph->mutable_node()) {
      if (node.name() != link.placeholder || node.op().rfind("Placeholder", 0) != 0) continue;
      node.set_op("Identity");
      node.clear_input();
      std::string index = link.tensor.substr(InputNodeName(link.tensor).size());
      node.add_input(index == ":0" ? from : from + index);
      node.mutable_attr()->clear();
      (*node.mutable_attr())["T"].set_type(tensorflow::DT_RESOURCE);
      (*node.mutable_attr())[kResourceIdAttr].set_i(link.resource_id);
      if (!link.signature_key.empty()) {
        (*node.mutable_attr())[kSignatureKeyAttr].set_s(link.signature_key);
      }
      merged.linked.push_back(node.name());
      break;
    }
  }
  if (merged.init_ops.empty()) return merged;

  NodeDef* main_op = graph->add_node();
  merged.main_op = Unused("init_all_tables", taken);
  main_op->set_name(merged.main_op);
  main_op->set_op("NoOp");
  for (const std::string& op : merged.init_ops) main_op->add_input("^" + op);
  auto& collections = *meta_graph->mutable_collection_def();
  auto* tables = collections[kTableInitializerCollection].mutable_node_list();
  tables->Clear();
  for (const std::string& op : merged.init_ops) tables->add_value(op);
  auto* main = collections[kMainOpCollection].mutable_node_list();
  main->Clear();
  main->add_value(merged.main_op);
  return merged;
}

}  // namespace graphport::tf
