// How a pass rewrites the graph (research megengine_optimize.md §2.1.4): it visits the
// operators in TopoOrder(), re-creates each one whose inputs were replaced (copy_opr_shallow,
// the copy's outputs keep the old outputs' names), and replaces vars; a replacement inherits
// the replaced var's explicit name when it has none. Apply() points the endpoints at their
// replacements.
#ifndef GRAPHPORT_MGE_OPTIMIZE_REWRITER_H_
#define GRAPHPORT_MGE_OPTIMIZE_REWRITER_H_

#include <functional>
#include <unordered_map>
#include <unordered_set>

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
  bool ReplacedByHand(VarRef v) const { return by_hand_.count(v) != 0; }
  // Re-creates `node` on its replaced inputs when any was replaced; replaces its outputs.
  void AutoReplaceOutputs(uint32_t node);
  // Visits the operators reachable from the endpoints in MegEngine's order; `visit` either
  // rewrites the operator (replacing its outputs) or calls AutoReplaceOutputs. Operators a
  // visit creates take the visited operator's priority.
  void ForEachOperator(const std::function<void(uint32_t node)>& visit);
  void Apply();

  uint32_t replaced() const { return replaced_; }

 private:
  OptGraph* g_;
  OprMaker maker_;
  // Hashed: a pass that changes a large graph replaces most of its vars, and every visit
  // looks up each input.
  std::unordered_map<VarRef, VarRef, VarRefHash> replace_;
  std::unordered_set<VarRef, VarRefHash> by_hand_;
  uint32_t replaced_ = 0;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_REWRITER_H_
