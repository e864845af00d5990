#include "mge/optimize/eval/graph_eval.h"

#include <vector>

namespace graphport::mge::opt {
namespace {

bool ReadsShapesOnly(std::string_view key) { return key == "GetVarShape"; }

}  // namespace

// GetVarShape reads its inputs' static shapes; an input whose static shape is not known (an
// operator static inference lacks, such as a packed convolution) is computed for its shape.
bool GraphEvaluator::ShapesKnown(const OptNode& n) const {
  for (const VarRef& r : n.inputs) {
    if (!g_.var(r).shape) return false;
  }
  return true;
}

std::optional<HostValue> GraphEvaluator::Value(VarRef root, std::string* why) {
  // Iterative post-order over the inputs still to compute: graphs are deep.
  std::vector<std::pair<VarRef, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [v, expanded] = stack.back();
    if (memo_.count(v) || failed_.count(v)) {
      stack.pop_back();
      continue;
    }
    const OptNode& n = g_.node(v.node);
    if (!expanded && (!ReadsShapesOnly(g_.Key(v.node)) || !ShapesKnown(n))) {
      stack.back().second = true;
      for (auto it = n.inputs.rbegin(); it != n.inputs.rend(); ++it) {
        if (!memo_.count(*it) && !failed_.count(*it)) stack.push_back({*it, false});
      }
      continue;
    }
    stack.pop_back();
    std::string reason;
    std::optional<HostValue> value = EvalNode(v, &reason);
    if (value) {
      memo_[v] = std::move(*value);
    } else {
      failed_[v] = reason;
    }
  }
  auto it = memo_.find(root);
  if (it != memo_.end()) return it->second;
  *why = failed_[root];
  return std::nullopt;
}

std::optional<HostValue> GraphEvaluator::EvalNode(VarRef v, std::string* why) {
  const OptNode& n = g_.node(v.node);
  const std::string_view key = g_.Key(v.node);
  std::string label = n.op().DisplayType() + (n.op().name ? " '" + *n.op().name + "'" : "");
  if (key == "Host2DeviceCopy") {
    *why = label + ": no value given for the input";
    return std::nullopt;
  }
  if (n.inputs.empty()) {
    std::optional<HostValue> stored = StoredValue(n.op(), v.output);
    if (!stored) *why = label + ": no stored value the evaluator can read";
    return stored;
  }
  const bool batch_norm_y = key == "BatchNorm" && v.output + 1 == n.outputs.size();
  if (v.output != 0 && !batch_norm_y) {
    *why = label + ": output " + std::to_string(v.output) + " is not evaluated";
    return std::nullopt;
  }
  std::vector<HostValue> shapes_only;
  std::vector<const HostValue*> in;
  if (ReadsShapesOnly(key)) {
    shapes_only.reserve(n.inputs.size());
    for (const VarRef& r : n.inputs) {
      const std::optional<Shape>& shape = g_.var(r).shape;
      auto computed = memo_.find(r);
      if (!shape && computed == memo_.end()) {
        auto failed = failed_.find(r);
        *why = failed != failed_.end() ? failed->second
                                       : label + ": an input's shape is not known statically";
        return std::nullopt;
      }
      shapes_only.push_back(HostValue{});
      shapes_only.back().shape = shape ? *shape : computed->second.shape;
    }
    for (const HostValue& s : shapes_only) in.push_back(&s);
  } else {
    for (const VarRef& r : n.inputs) {
      auto failed = failed_.find(r);
      if (failed != failed_.end()) {
        *why = failed->second;
        return std::nullopt;
      }
      in.push_back(&memo_.at(r));
    }
  }
  std::string reason;
  std::optional<HostValue> out = EvalOperator(n.op(), in, options_, &reason);
  if (!out) *why = label + ": " + reason;
  return out;
}

}  // namespace graphport::mge::opt
