#include "mge/optimize/delay_broadcast/delay_broadcast.h"

#include <set>

#include "mge/optimize/rewriter.h"
#include "mge/optimize/unique_readers.h"

namespace graphport::mge::opt {
namespace {

constexpr int kUnknown = -2;
constexpr int kNotInChain = -1;

class Delayer {
 public:
  explicit Delayer(OptGraph* g)
      : g_(g),
        rw_(g),
        unique_(*g),
        loaded_(g->size()),
        chain_input_(loaded_, kUnknown),
        visited_(loaded_, false),
        dep_on_broadcast_(loaded_, false),
        endpoints_(g->endpoints().begin(), g->endpoints().end()) {}

  PassReport Run() {
    rw_.ForEachOperator([&](uint32_t node) { Visit(node); });
    rw_.Apply();
    PassReport report{"DelayBroadcast", moved_ != 0, ""};
    if (moved_) report.summary = std::to_string(moved_) + " Broadcasts moved after their chains";
    return report;
  }

 private:
  bool IsBroadcast(uint32_t node) const { return g_->Key(node) == "Broadcast"; }

  // The index of the node's chain input, or kNotInChain.
  int ChainInput(uint32_t node) {
    if (node >= loaded_) return kNotInChain;  // made by this pass
    int& idx = chain_input_[node];
    if (idx != kUnknown) return idx;
    idx = kNotInChain;
    const std::string_view key = g_->Key(node);
    const VarList& in = g_->node(node).inputs;
    if (key == "Broadcast") {
      if (in.size() == 2) idx = 0;
    } else if (key == "TypeCvt" || key == "Elemwise") {
      for (size_t k = 0; k < in.size(); ++k) {
        const OptVar& v = g_->var(in[k]);
        const bool const_scalar =
            g_->node(in[k].node).shape_const && v.shape && *v.shape == Shape{1};
        if (const_scalar) continue;
        if (idx != kNotInChain) return idx = kNotInChain;  // two that are not
        idx = static_cast<int>(k);
      }
    }
    return idx;
  }

  // Whether the node is a link, and its chain input; a link below the top must be the only
  // reader of the link under it.
  bool InChain(uint32_t node, VarRef* input, bool may_be_top) {
    const int idx = ChainInput(node);
    if (idx == kNotInChain) return false;
    *input = g_->node(node).inputs[idx];
    return may_be_top || unique_({node, 0});
  }

  bool IsTop(uint32_t node) const {
    return !unique_({node, 0}) || endpoints_.count({node, 0}) != 0;
  }

  void Visit(uint32_t node) {
    VarRef input;
    const bool in_chain = InChain(node, &input, true);
    dep_on_broadcast_[node] =
        IsBroadcast(node) || (in_chain && input.node < loaded_ && dep_on_broadcast_[input.node]);
    if (in_chain) {
      if (IsTop(node)) {
        ProcessFromTop(node);
      } else {
        AutoReplace(node);
      }
      return;
    }
    for (const VarRef& in : g_->node(node).inputs) {
      VarRef below;
      if (in.node < loaded_ && InChain(in.node, &below, true) && !visited_[in.node]) {
        ProcessFromTop(in.node);
      }
    }
    AutoReplace(node);
  }

  // What a rewrite made for `node` takes its priority (MegEngine's call_with_opr).
  void AutoReplace(uint32_t node) {
    g_->set_current_priority(g_->node(node).priority());
    rw_.AutoReplaceOutputs(node);
  }

  void ProcessFromTop(uint32_t top) {
    if (!dep_on_broadcast_[top]) {
      AutoReplace(top);
      return;
    }
    // Broadcasts at the very top stay there: skip to the first other link.
    std::vector<uint32_t> trailing;
    VarRef input;
    uint32_t node = top;
    while (InChain(node, &input, true) && !visited_[node] && IsBroadcast(node)) {
      visited_[node] = true;
      trailing.push_back(node);
      node = input.node;
    }
    std::vector<uint32_t> links, broadcasts;
    for (uint32_t it = node; it < loaded_ && InChain(it, &input, it == node); it = input.node) {
      if (visited_[it]) break;
      if (IsBroadcast(it)) broadcasts.push_back(it);
      visited_[it] = true;
      links.push_back(it);
    }
    if (broadcasts.empty()) {
      AutoReplace(node);
      ReplaceTrailing(trailing);
      return;
    }
    while (links.back() != broadcasts.back()) links.pop_back();
    // Bottom-up: the value under the deepest Broadcast, then each other link copied onto it
    // (reading its original other inputs), then the Broadcasts again, deepest first.
    VarRef prev{};
    bool started = false;
    for (auto it = links.rbegin(); it != links.rend(); ++it) {
      const uint32_t link = *it;
      const uint32_t idx = static_cast<uint32_t>(ChainInput(link));
      if (!started) {
        prev = rw_.Get(g_->node(link).inputs[idx]);
        started = true;
      }
      if (IsBroadcast(link)) continue;
      VarList in = g_->node(link).inputs;
      in[idx] = prev;
      g_->set_current_priority(g_->node(link).priority());
      prev = {rw_.maker().Copy(link, in, /*keep_var_names=*/false), 0};
    }
    for (auto it = broadcasts.rbegin(); it != broadcasts.rend(); ++it) {
      g_->set_current_priority(g_->node(*it).priority());
      prev = rw_.maker().Broadcast(prev, rw_.Get(g_->node(*it).inputs[1]));
      ++moved_;
    }
    rw_.Replace({node, 0}, prev);
    ReplaceTrailing(trailing);
  }

  void ReplaceTrailing(const std::vector<uint32_t>& trailing) {
    for (auto it = trailing.rbegin(); it != trailing.rend(); ++it) AutoReplace(*it);
  }

  OptGraph* g_;
  Rewriter rw_;
  UniqueReaders unique_;
  const uint32_t loaded_;  // nodes made before the pass; the chains are made of these
  std::vector<int> chain_input_;
  std::vector<bool> visited_;
  std::vector<bool> dep_on_broadcast_;
  std::set<VarRef> endpoints_;
  uint32_t moved_ = 0;
};

}  // namespace

PassReport DelayBroadcast(OptGraph* g) {
  if (!g->Holds("Broadcast")) return {"DelayBroadcast", false, ""};  // nothing to rewrite
  return Delayer(g).Run();
}

}  // namespace graphport::mge::opt
