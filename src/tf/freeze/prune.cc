#include "tf/freeze/prune.h"

#include <set>
#include <unordered_map>

#include "tf/freeze/function_body.h"

namespace graphport::tf {
namespace {

// The library functions an attr names (f, then_branch, body, branches, ...).
void CollectFunctions(const tensorflow::AttrValue& value, std::vector<std::string>* names) {
  if (value.has_func()) names->push_back(value.func().name());
  for (const auto& f : value.list().func()) names->push_back(f.name());
}

}  // namespace

int PruneToOutputs(tensorflow::GraphDef* graph, const std::vector<std::string>& outputs) {
  std::unordered_map<std::string, int> by_name;
  for (int i = 0; i < graph->node_size(); ++i) by_name.emplace(graph->node(i).name(), i);
  std::vector<bool> keep(graph->node_size(), false);
  std::vector<int> stack;
  auto visit = [&](const std::string& input) {
    std::string node;
    int index = 0;
    SplitGraphInput(input, &node, &index);
    auto it = by_name.find(node);
    if (it != by_name.end() && !keep[it->second]) {
      keep[it->second] = true;
      stack.push_back(it->second);
    }
  };
  for (const auto& output : outputs) visit(output);
  while (!stack.empty()) {
    int i = stack.back();
    stack.pop_back();
    for (const auto& input : graph->node(i).input()) visit(input);
  }

  auto* nodes = graph->mutable_node();
  int kept = 0;
  for (int i = 0; i < nodes->size(); ++i) {
    if (!keep[i]) continue;
    if (kept != i) nodes->SwapElements(kept, i);
    ++kept;
  }
  int dropped = nodes->size() - kept;
  nodes->DeleteSubrange(kept, dropped);

  // Functions reached from the kept nodes, and from those functions' bodies.
  std::unordered_map<std::string, const tensorflow::FunctionDef*> library;
  for (const auto& f : graph->library().function()) library.emplace(f.signature().name(), &f);
  std::set<std::string> used;
  std::vector<std::string> pending;
  for (const auto& node : graph->node()) {
    if (library.count(node.op()) != 0) pending.push_back(node.op());
    for (const auto& [name, value] : node.attr()) CollectFunctions(value, &pending);
  }
  while (!pending.empty()) {
    std::string name = pending.back();
    pending.pop_back();
    auto it = library.find(name);
    if (it == library.end() || !used.insert(name).second) continue;
    for (const auto& node : it->second->node_def()) {
      if (library.count(node.op()) != 0) pending.push_back(node.op());
      for (const auto& [key, value] : node.attr()) CollectFunctions(value, &pending);
    }
  }
  auto* functions = graph->mutable_library()->mutable_function();
  int kept_functions = 0;
  for (int i = 0; i < functions->size(); ++i) {
    if (used.count(functions->Get(i).signature().name()) == 0) continue;
    if (kept_functions != i) functions->SwapElements(kept_functions, i);
    ++kept_functions;
  }
  functions->DeleteSubrange(kept_functions, functions->size() - kept_functions);
  // Gradients serve training: an inference graph keeps none.
  graph->mutable_library()->clear_gradient();
  if (graph->library().function_size() == 0 && graph->library().gradient_size() == 0) {
    graph->clear_library();
  }
  return dropped;
}

}  // namespace graphport::tf
