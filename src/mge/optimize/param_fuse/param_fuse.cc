#include "mge/optimize/param_fuse/param_fuse.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "mge/optimize/const_vars.h"
#include "mge/optimize/eval/graph_eval.h"
#include "mge/optimize/opr_name.h"
#include "mge/optimize/rewriter.h"

namespace graphport::mge::opt {
namespace {

class ParamFuser {
 public:
  explicit ParamFuser(OptGraph* g) : g_(g), rw_(g), eval_(*g, EvalOptions{}) {}

  PassReport Run() {
    const std::vector<uint32_t>& order = g_->TopoOrder();
    is_const_.assign(g_->size(), false);
    for (uint32_t node : order) {
      const OptNode& n = g_->node(node);
      const std::string_view key = g_->Key(node);
      bool c = IsConstSource(key);
      if (!c && !n.inputs.empty() && n.cls() != nullptr) {
        c = std::all_of(n.inputs.begin(), n.inputs.end(),
                        [&](const VarRef& r) { return is_const_[r.node]; }) &&
            !IsImpure(key);
      }
      is_const_[node] = c;
    }
    std::set<VarRef> endpoints(g_->endpoints().begin(), g_->endpoints().end());
    rw_.ForEachOperator([&](uint32_t node) {
      if (!is_const_[node]) {
        for (const VarRef& in : g_->node(node).inputs) {
          if (is_const_[in.node] && !g_->node(in.node).inputs.empty()) Fold(in);
        }
        rw_.AutoReplaceOutputs(node);
        return;
      }
      rw_.AutoReplaceOutputs(node);
      if (g_->node(node).inputs.empty()) return;
      for (uint32_t k = 0; k < g_->node(node).outputs.size(); ++k) {
        if (endpoints.count({node, k})) Fold({node, k});
      }
    });
    rw_.Apply();
    PassReport report{"ParamFuse", folded_ != 0, ""};
    if (folded_) report.summary = std::to_string(folded_) + " constant vars folded";
    if (!kept_.empty()) {
      report.summary += (report.summary.empty() ? "" : "; ") + std::to_string(kept_.size()) +
                        " kept (" + kept_.front() + ")";
    }
    return report;
  }

 private:
  void Fold(VarRef v) {
    if (done_.count(v)) return;
    done_.insert(v);
    std::string why;
    std::optional<HostValue> value = eval_.Value(v, &why);
    if (!value) {
      kept_.push_back(why);
      return;
    }
    // MegEngine computes the value by compiling the var with a callback, which puts a
    // CallbackCaller (an operator and its var) into the graph first.
    g_->SpendIds(2);
    std::set<std::string> shared = SharedSources(v);
    const OptVar& old = g_->var(v);
    const std::string var_name = VarName(*g_, v);
    std::string name = "fuse(";
    bool first = true;
    for (const std::string& s : shared) {  // std::set: sorted as strcmp sorts
      name += (first ? "" : ",") + s;
      first = false;
    }
    name += "):" + var_name + "@" + std::to_string(old.id);
    VarRef folded;
    // Statically inferable values (from ImmutableTensors and constant shapes) become
    // ImmutableTensors; values that need a shared tensor's contents, SharedDeviceTensors.
    // The holder's config names it and nothing else (no comp node: its tensor has one).
    if (g_->node(v.node).value_const) {
      const size_t before = g_->size();
      folded = rw_.maker().Imm(*value, v);
      if (g_->size() > before) {
        Operator& op = g_->mutable_node(folded.node).mutable_op();
        op.name = name;
        op.comp_nodes.reset();
      }
    } else {
      folded = SharedTensor(*value, v, name);
      g_->mutable_node(folded.node).mutable_op().comp_nodes.reset();
    }
    rw_.Replace(v, folded);
    ++folded_;
  }

  // The names of the SharedDeviceTensor / holder operators `v` depends on.
  std::set<std::string> SharedSources(VarRef v) {
    std::set<std::string> shared;
    std::vector<uint32_t> stack{v.node};
    std::set<uint32_t> seen;
    while (!stack.empty()) {
      uint32_t node = stack.back();
      stack.pop_back();
      if (!seen.insert(node).second) continue;
      if (IsParamSource(g_->Key(node))) shared.insert(g_->node(node).op().name.value_or(""));
      for (const VarRef& in : g_->node(node).inputs) stack.push_back(in.node);
    }
    return shared;
  }

  VarRef SharedTensor(const HostValue& value, VarRef like, const std::string& name) {
    return {g_->Add(TensorHolderNode(g_, "SharedDeviceTensor", value.shape, value.dtype,
                                     EncodeValue(value), g_->LocatorOf(like), name)),
            0};
  }

  OptGraph* g_;
  Rewriter rw_;
  GraphEvaluator eval_;
  std::vector<bool> is_const_;
  std::set<VarRef> done_;
  std::vector<std::string> kept_;
  uint32_t folded_ = 0;
};

}  // namespace

PassReport ParamFuse(OptGraph* g) { return ParamFuser(g).Run(); }

}  // namespace graphport::mge::opt
