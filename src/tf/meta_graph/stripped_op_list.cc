#include "tf/meta_graph/stripped_op_list.h"

#include <algorithm>
#include <deque>
#include <map>
#include <string_view>
#include <unordered_set>

namespace graphport::tf {
namespace {

// Ops that only exist inside function bodies as TensorFlow lowers them; never registered
// for graphs, so never listed and never reported.
bool IsInternalFunctionOp(const std::string& op) {
  return op == "_Arg" || op == "_Retval" || op == "_ListToArray" || op == "_ArrayToList";
}

void CollectFunctionRefs(const tensorflow::AttrValue& value, std::vector<std::string>* out) {
  if (value.has_func()) {
    out->push_back(value.func().name());
    for (const auto& [key, nested] : value.func().attr()) CollectFunctionRefs(nested, out);
  }
  for (const auto& f : value.list().func()) {
    out->push_back(f.name());
    for (const auto& [key, nested] : f.attr()) CollectFunctionRefs(nested, out);
  }
}

void RemoveDescriptions(tensorflow::OpDef* op) {
  op->clear_summary();
  op->clear_description();
  for (auto& arg : *op->mutable_input_arg()) arg.clear_description();
  for (auto& arg : *op->mutable_output_arg()) arg.clear_description();
  for (auto& attr : *op->mutable_attr()) attr.clear_description();
}

}  // namespace

std::set<std::string> FunctionNames(const tensorflow::GraphDef& graph) {
  std::set<std::string> names;
  for (const auto& f : graph.library().function()) names.insert(f.signature().name());
  return names;
}

std::vector<std::string> OpsUsedByGraph(const tensorflow::GraphDef& graph) {
  std::map<std::string, const tensorflow::FunctionDef*> functions;
  for (const auto& f : graph.library().function()) functions[f.signature().name()] = &f;

  // Views of the graph's own strings, hashed: a node-heavy graph names a handful of ops
  // hundreds of thousands of times, and a sorted set's string compares cost twice as much.
  std::unordered_set<std::string_view> ops;
  std::set<std::string> visited;
  std::deque<const tensorflow::FunctionDef*> pending;
  auto visit_node = [&](const tensorflow::NodeDef& node) {
    if (functions.empty()) {
      // Without a library nothing can be called, so the attrs need not be read: walking
      // every node's attr map was most of this pass on a node-heavy graph.
      ops.insert(node.op());
      return;
    }
    std::vector<std::string> refs;
    if (functions.count(node.op())) {
      refs.push_back(node.op());
    } else {
      ops.insert(node.op());
    }
    for (const auto& [key, value] : node.attr()) CollectFunctionRefs(value, &refs);
    for (const auto& name : refs) {
      auto it = functions.find(name);
      if (it != functions.end() && visited.insert(name).second) pending.push_back(it->second);
    }
  };
  for (const auto& node : graph.node()) visit_node(node);
  while (!pending.empty()) {
    const tensorflow::FunctionDef* f = pending.front();
    pending.pop_front();
    for (const auto& node : f->node_def()) visit_node(node);
  }
  std::vector<std::string> sorted(ops.begin(), ops.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

void BuildStrippedOpList(const tensorflow::GraphDef& graph, const OpRegistry& registry,
                         tensorflow::OpList* out, std::vector<std::string>* unregistered) {
  BuildStrippedOpList(OpsUsedByGraph(graph), registry, out, unregistered);
}

void BuildStrippedOpList(const std::vector<std::string>& used_ops, const OpRegistry& registry,
                         tensorflow::OpList* out, std::vector<std::string>* unregistered) {
  out->Clear();
  for (const auto& name : used_ops) {
    if (IsInternalFunctionOp(name)) continue;
    const tensorflow::OpDef* op = registry.FindComplete(name);
    if (op == nullptr) {
      unregistered->push_back(name);
      continue;
    }
    tensorflow::OpDef* copy = out->add_op();
    *copy = *op;
    RemoveDescriptions(copy);
  }
}

}  // namespace graphport::tf
