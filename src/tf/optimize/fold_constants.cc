#include "tf/optimize/fold_constants.h"

#include <set>

#include "tf/optimize/constant_ops.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

using tensorflow::NodeDef;

constexpr size_t kMaxGrownBytes = 100 * 1024;
// The most a fold reads, counting each read: its inputs are copied to be evaluated, and a node
// may read one large Const many times. A larger fold is left to the runtime.
constexpr size_t kMaxReadBytes = size_t{64} << 20;

// The values of `node`'s data inputs when each is output 0 of a Const it can read, up to
// kMaxReadBytes in all; the Consts go to `consts`.
bool ConstInputs(const tensorflow::GraphDef& graph, const GraphDefIndex& index, const NodeDef& node,
                 std::vector<DenseTensor>* values, std::vector<const NodeDef*>* consts) {
  size_t read = 0;
  for (const std::string& input : node.input()) {
    if (IsControlInput(input)) continue;
    const NodeDef* source = ConstInput(graph, index, input);
    if (source == nullptr || !ReadsOutput0(input, source->name())) return false;
    auto value = source->attr().find("value");
    if (value == source->attr().end()) return false;
    values->emplace_back();
    if (!ReadDenseTensor(value->second.tensor(), &values->back())) return false;
    consts->push_back(source);
    read += values->back().bytes.size();
    if (read > kMaxReadBytes) return false;
  }
  return !values->empty();
}

// Rewrites `node` as the Const holding `value`, keeping its name and device.
void ReplaceWithFolded(NodeDef* node, const std::vector<const NodeDef*>& consts,
                       const DenseTensor& value) {
  std::vector<std::string> controls;
  for (const std::string& input : node->input()) {
    if (IsControlInput(input)) controls.push_back(input);
  }
  for (const NodeDef* c : consts) {
    for (const std::string& input : c->input()) {
      if (IsControlInput(input)) controls.push_back(input);
    }
  }
  node->set_op("Const");
  node->clear_input();
  for (const std::string& control : controls) AddControlInput(node, InputNodeName(control));
  node->clear_attr();
  (*node->mutable_attr())["dtype"].set_type(value.dtype);
  WriteDenseTensor(value, (*node->mutable_attr())["value"].mutable_tensor());
}

}  // namespace

ConstantFolding FoldConstants(tensorflow::GraphDef* graph, const std::vector<std::string>& roots) {
  ConstantFolding result;
  std::set<std::string> keep = NodeNamesOf(roots);
  // Folding rewrites nodes in place (none is added or removed), so one index serves; a sweep
  // in node order folds a chain at once when the graph is in topological order, and further
  // sweeps catch the rest.
  GraphDefIndex index(*graph);
  std::set<std::string> too_large;
  for (bool changed = true; changed;) {
    changed = false;
    for (NodeDef& node : *graph->mutable_node()) {
      if (!IsFoldableOp(node.op()) || keep.count(node.name()) || too_large.count(node.name())) {
        continue;
      }
      std::vector<DenseTensor> values;
      std::vector<const NodeDef*> consts;
      if (!ConstInputs(*graph, index, node, &values, &consts)) continue;
      // What the fold reads: each Const once, however many times the node reads it. No op
      // here makes more than all its reads together (Pack of one Const read N times makes N
      // copies), so that bound is checked first, before anything is made.
      size_t read = 0, reads = 0;
      std::set<const NodeDef*> counted;
      for (size_t i = 0; i < consts.size(); ++i) {
        reads += values[i].bytes.size();
        if (counted.insert(consts[i]).second) read += values[i].bytes.size();
      }
      DenseTensor value;
      bool grows = reads > read && reads > kMaxGrownBytes;
      if (!grows && !EvaluateConstantOp(node, values, &value)) continue;
      if (grows || (value.bytes.size() > read && value.bytes.size() > kMaxGrownBytes)) {
        too_large.insert(node.name());
        ++result.too_large;
        continue;
      }
      ++result.folded[node.op()];
      ReplaceWithFolded(&node, consts, value);
      changed = true;
    }
  }
  return result;
}

}  // namespace graphport::tf
