#include "tf/optimize/remove_identity_transposes.h"

#include <map>
#include <set>

#include "tf/optimize/dense_tensor.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

using tensorflow::NodeDef;

bool IsIdentityPermutation(const tensorflow::GraphDef& graph, const GraphDefIndex& index,
                           const NodeDef& transpose) {
  if (transpose.op() != "Transpose" || transpose.input_size() < 2 ||
      IsControlInput(transpose.input(1))) {
    return false;
  }
  const NodeDef* perm = ConstInput(graph, index, transpose.input(1));
  if (perm == nullptr || perm->attr().count("value") == 0) return false;
  DenseTensor value;
  std::vector<int64_t> order;
  if (!ReadDenseTensor(perm->attr().at("value").tensor(), &value) ||
      !IntegerValues(value, &order)) {
    return false;
  }
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

}  // namespace

int RemoveIdentityTransposes(tensorflow::GraphDef* graph, const std::vector<std::string>& roots) {
  std::set<std::string> keep = NodeNamesOf(roots);
  GraphDefIndex index(*graph);
  // transpose name -> {its input tensor, its control inputs}
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> bypass;
  for (const NodeDef& node : graph->node()) {
    if (keep.count(node.name()) || IsControlInput(node.input_size() > 0 ? node.input(0) : "^") ||
        !IsIdentityPermutation(*graph, index, node)) {
      continue;
    }
    std::vector<std::string> controls;
    for (const std::string& input : node.input()) {
      if (IsControlInput(input)) controls.push_back(InputNodeName(input));
    }
    bypass[node.name()] = {node.input(0), controls};
  }
  if (bypass.empty()) return 0;
  // A transpose of a bypassed transpose reads what that one read.
  auto source_of = [&](std::string tensor) {
    for (auto it = bypass.find(InputNodeName(tensor));
         it != bypass.end() && ReadsOutput0(tensor, it->first);
         it = bypass.find(InputNodeName(tensor))) {
      tensor = it->second.first;
    }
    return tensor;
  };
  std::set<std::string> gone;
  for (const auto& [name, how] : bypass) gone.insert(name);
  for (NodeDef& node : *graph->mutable_node()) {
    if (gone.count(node.name())) continue;
    std::vector<std::string> controls;
    for (std::string& input : *node.mutable_input()) {
      std::string from = InputNodeName(input);
      auto it = bypass.find(from);
      if (it == bypass.end()) continue;
      if (IsControlInput(input)) {
        input = "^" + InputNodeName(source_of(it->second.first));
      } else if (ReadsOutput0(input, from)) {
        input = source_of(input);
      } else {
        continue;
      }
      controls.insert(controls.end(), it->second.second.begin(), it->second.second.end());
    }
    for (const std::string& control : controls) AddControlInput(&node, control);
  }
  return EraseNodes(graph, gone);
}

}  // namespace graphport::tf
