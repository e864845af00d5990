// How a pass rewrites the graph (research megengine_optimize.md §2.1.4): it visits the
// operators in TopoOrder(), re-creates each one whose inputs were replaced (copy_opr_shallow,
// the copy's outputs keep the old outputs' names), and replaces vars; a replacement inherits
// the replaced var's explicit name when it has none. Apply() points the endpoints at their
// replacements.
#ifndef GRAPHPORT_MGE_OPTIMIZE_REWRITER_H_
#define GRAPHPORT_MGE_OPTIMIZE_REWRITER_H_

#include <functional>
#include <vector>

#include "mge/optimize/opr_maker.h"

namespace graphport::mge::opt {

class Rewriter {
 public:
  explicit Rewriter(OptGraph* g) : g_(g), maker_(g) {}

  OptGraph& graph() { return *g_; }
  OprMaker& maker() { return maker_; }

  // What stands for `v` now: its replacement, or v.
  VarRef Get(VarRef v) const;
  std::vector<VarRef> Inputs(uint32_t node) const;
  void Replace(VarRef src, VarRef dst);
  // Whether `v` was replaced by Replace() (not by re-making its operator).
  bool ReplacedByHand(VarRef v) const {
    const Slot* s = Find(v);
    return s != nullptr && s->by_hand;
  }
  // Re-creates `node` on its replaced inputs when any was replaced; replaces its outputs.
  void AutoReplaceOutputs(uint32_t node);
  // Visits the operators reachable from the endpoints in MegEngine's order; `visit` either
  // rewrites the operator (replacing its outputs) or calls AutoReplaceOutputs. Operators a
  // visit creates take the visited operator's priority.
  void ForEachOperator(const std::function<void(uint32_t node)>& visit);
  void Apply();
  // The walk of a pass that rewrites the operators matching its pattern: `rewrite` rewrites
  // the visited operator and returns true, or returns false and the operator is re-made on
  // its replaced inputs. Applies the replacements; returns how many operators it rewrote.
  uint32_t RewriteMatches(const std::function<bool(uint32_t node)>& rewrite);
  // The same for a pass that matches its pattern on the operator re-made on its replaced
  // inputs: each operator is re-made first, then `rewrite` may replace its output.
  uint32_t RewriteRemade(const std::function<bool(uint32_t node)>& rewrite);

  uint32_t replaced() const { return replaced_; }

 private:
  // A var's replacement: where its node's outputs start in replacements_, or kNone.
  struct Slot {
    VarRef to;
    bool set = false;
    bool by_hand = false;
  };
  static constexpr uint32_t kNone = ~uint32_t{0};
  const Slot* Find(VarRef v) const {
    if (v.node >= first_slot_.size() || first_slot_[v.node] == kNone) return nullptr;
    const Slot& s = slots_[first_slot_[v.node] + v.output];
    return s.set ? &s : nullptr;
  }
  Slot& Make(VarRef v);
  // Inputs(), in the list a copy of the node holds (no allocation).
  VarList CurrentInputs(uint32_t node) const;

  OptGraph* g_;
  OprMaker maker_;
  // Indexed by node: a pass that changes a large graph replaces most of its vars, and every
  // visit looks up each input (a hash table of 100k vars cost more than the visits).
  std::vector<uint32_t> first_slot_;
  std::vector<Slot> slots_;
  bool any_replaced_ = false;
  uint32_t replaced_ = 0;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_REWRITER_H_
