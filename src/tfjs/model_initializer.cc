#include "tfjs/model_initializer.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tf/optimize/graph_edit.h"

namespace graphport::tfjs {
namespace {

using tensorflow::GraphDef;
using tensorflow::NodeDef;

// The initializer's nodes that a merge renamed (kInitializerNameAttr) get their own names back,
// unless the model's graph reads them too (a table both hold must keep one name).
void RestoreInitializerNames(const std::set<std::string>& needed_by_model, GraphDef* initializer,
                             std::vector<ResourceLink>* links) {
  std::map<std::string, std::string> original;
  for (NodeDef& node : *initializer->mutable_node()) {
    auto attr = node.attr().find(kInitializerNameAttr);
    if (attr == node.attr().end()) continue;
    if (needed_by_model.count(node.name()) == 0) {
      original[node.name()] = attr->second.s();
      node.set_name(attr->second.s());
    }
    node.mutable_attr()->erase(kInitializerNameAttr);
  }
  if (original.empty()) return;
  auto restored = [&](std::string* input) {
    std::string from = tf::InputNodeName(*input);
    auto it = original.find(from);
    if (it != original.end()) input->replace(input->find(from), from.size(), it->second);
  };
  for (NodeDef& node : *initializer->mutable_node()) {
    for (std::string& input : *node.mutable_input()) restored(&input);
  }
  if (links != nullptr) {
    for (ResourceLink& link : *links) restored(&link.tensor);
  }
}

// False when `meta_graph` names no init op at all (it may be null): then the split finds none
// whatever the graph's nodes are, and need not read them to ask.
bool NamesInitOps(const tensorflow::MetaGraphDef* meta_graph) {
  return meta_graph != nullptr &&
         (!tf::CollectionNodeList(*meta_graph, kTableInitializerCollection).empty() ||
          !tf::LoaderInitOp(*meta_graph).empty());
}

// What the split reads of a node before it copies any: the nodes hand them out one at a time
// (a wire graph's are parsed into one scratch message), so nothing may point into them.
struct NodeFacts {
  std::string name;
  std::string op;
  std::vector<std::string> inputs;  // the nodes its inputs name
  std::string first_input;          // as written: the tensor a resource link reads
  bool has_id = false;              // kResourceIdAttr: an Identity the reader linked to a resource
  int64_t id = 0;
  std::string key;  // kSignatureKeyAttr, or empty
};

NodeFacts FactsOf(const NodeDef& node) {
  NodeFacts facts;
  facts.name = node.name();
  facts.op = node.op();
  facts.inputs.reserve(node.input_size());
  for (const std::string& input : node.input()) facts.inputs.push_back(tf::InputNodeName(input));
  if (node.input_size() > 0) facts.first_input = node.input(0);
  auto id = node.attr().find(kResourceIdAttr);
  if (id != node.attr().end()) {
    facts.has_id = true;
    facts.id = id->second.i();
  }
  auto key = node.attr().find(kSignatureKeyAttr);
  if (key != node.attr().end()) facts.key = key->second.s();
  return facts;
}

}  // namespace

bool SplitInitializer(tf::GraphNodes* graph, const tensorflow::MetaGraphDef* meta_graph,
                      GraphDef* main, GraphDef* initializer, std::vector<ResourceLink>* links) {
  // Without init ops there is nothing to cut, and the nodes are not read.
  if (!NamesInitOps(meta_graph)) return false;
  std::vector<NodeFacts> facts;
  facts.reserve(graph->size());
  std::map<std::string, const NodeFacts*> nodes;
  for (size_t i = 0; i < graph->size(); ++i) facts.push_back(FactsOf(graph->Node(i)));
  for (const NodeFacts& node : facts) nodes[node.name] = &node;
  std::string init_op = tf::LoaderInitOp(*meta_graph);
  std::vector<std::string> roots = tf::CollectionNodeList(*meta_graph, kTableInitializerCollection);
  if (roots.empty() && nodes.count(init_op) != 0) {
    for (const std::string& input : nodes[init_op]->inputs) roots.push_back(input);
  }
  // A NoOp init op only groups the others: TF.js runs the initializer graph's ends itself.
  bool drop_init_op = nodes.count(init_op) != 0 && nodes[init_op]->op == "NoOp";

  // Everything the init ops need.
  std::set<std::string> needed_by_init;
  std::vector<std::string> frontier;
  for (const std::string& root : roots) {
    std::string name = tf::InputNodeName(root);
    if (nodes.count(name) != 0 && !(drop_init_op && name == init_op)) frontier.push_back(name);
  }
  if (frontier.empty()) return false;
  while (!frontier.empty()) {
    std::string name = frontier.back();
    frontier.pop_back();
    if (!needed_by_init.insert(name).second) continue;
    for (const std::string& from : nodes[name]->inputs) {
      if (nodes.count(from) != 0) frontier.push_back(from);
    }
  }
  // The model's resource inputs that the reader linked to the initializer's outputs.
  std::map<std::string, ResourceLink> linked;
  for (const NodeFacts& node : facts) {
    if (!node.has_id || node.op != "Identity" || node.inputs.empty()) continue;
    if (needed_by_init.count(node.name) != 0) continue;
    if (needed_by_init.count(node.inputs[0]) == 0) continue;
    std::string tensor = node.first_input;
    if (tensor.find(':') == std::string::npos) tensor += ":0";
    linked[node.name] = {node.name, tensor, node.id, node.key};
  }
  // Of those, what the rest of the graph reads too (its tables) stays in the model's graph.
  std::set<std::string> needed_by_model;
  for (const NodeFacts& node : facts) {
    if (needed_by_init.count(node.name) != 0) continue;
    if (drop_init_op && node.name == init_op) continue;
    frontier.push_back(node.name);
  }
  std::set<std::string> seen;
  while (!frontier.empty()) {
    std::string name = frontier.back();
    frontier.pop_back();
    if (!seen.insert(name).second || linked.count(name) != 0) continue;
    for (const std::string& from : nodes[name]->inputs) {
      if (nodes.count(from) == 0) continue;
      if (needed_by_init.count(from) != 0) needed_by_model.insert(from);
      frontier.push_back(from);
    }
  }

  main->Clear();
  initializer->Clear();
  for (size_t i = 0; i < facts.size(); ++i) {
    const std::string& name = facts[i].name;
    if (drop_init_op && name == init_op) continue;
    bool in_init = needed_by_init.count(name) != 0;
    bool in_main = !in_init || needed_by_model.count(name) != 0;
    if (in_init) *initializer->add_node() = graph->Node(i);
    if (linked.count(name) != 0) {
      NodeDef* placeholder = main->add_node();
      placeholder->set_name(name);
      placeholder->set_op("Placeholder");
      placeholder->set_device(graph->Node(i).device());
      (*placeholder->mutable_attr())["dtype"].set_type(tensorflow::DT_RESOURCE);
      (*placeholder->mutable_attr())["shape"].mutable_shape();
      if (links != nullptr) links->push_back(linked[name]);
      continue;
    }
    if (in_main) *main->add_node() = graph->Node(i);
  }
  *main->mutable_library() = graph->library();
  *main->mutable_versions() = graph->versions();
  *initializer->mutable_versions() = graph->versions();
  RestoreInitializerNames(needed_by_model, initializer, links);
  return true;
}

}  // namespace graphport::tfjs
