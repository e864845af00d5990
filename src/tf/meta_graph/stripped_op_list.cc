#include "tf/meta_graph/stripped_op_list.h"

#include <algorithm>

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

UsedOps::UsedOps(const tensorflow::FunctionDefLibrary& library) {
  for (const auto& f : library.function()) functions_[f.signature().name()] = &f;
}

void UsedOps::AddNode(std::string_view op, const tensorflow::NodeDef* attrs) {
  if (functions_.empty()) {
    // Without a library nothing can be called, so the attrs need not be read: walking
    // every node's attr map was most of this pass on a node-heavy graph.
    ops_.insert(op);
    return;
  }
  auto called = functions_.find(op);
  if (called != functions_.end()) {
    Call(called->first);
  } else {
    ops_.insert(op);
  }
  if (attrs == nullptr) return;
  std::vector<std::string> refs;
  for (const auto& [key, value] : attrs->attr()) CollectFunctionRefs(value, &refs);
  for (const auto& name : refs) Call(name);
}

void UsedOps::Call(const std::string& function) {
  auto it = functions_.find(function);
  if (it != functions_.end() && visited_.insert(function).second) pending_.push_back(it->second);
}

std::vector<std::string> UsedOps::Sorted() {
  while (!pending_.empty()) {
    const tensorflow::FunctionDef* f = pending_.front();
    pending_.pop_front();
    for (const auto& node : f->node_def()) AddNode(node.op(), &node);
  }
  std::vector<std::string> sorted(ops_.begin(), ops_.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

std::vector<std::string> OpsUsedByGraph(const tensorflow::GraphDef& graph) {
  UsedOps used(graph.library());
  for (const auto& node : graph.node()) used.AddNode(node.op(), &node);
  return used.Sorted();
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
