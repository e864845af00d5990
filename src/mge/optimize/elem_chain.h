// What ReorderArithChain and ArithFuse share (research megengine_optimize.md §2.3 P10-P12):
// a walk that finds chains of one Elemwise mode and hands each to the pass once, from its
// endpoint, in topological order. An endpoint is a var of a chain mode read by an operator of
// another mode or class, read by more than one operator, or a graph endpoint; the links under
// it are the same-mode Elemwise read only by the chain. Passes see the original graph's
// chain and the current (replaced) vars of its leaves.
#ifndef GRAPHPORT_MGE_OPTIMIZE_ELEM_CHAIN_H_
#define GRAPHPORT_MGE_OPTIMIZE_ELEM_CHAIN_H_

#include <optional>
#include <set>
#include <vector>

#include "mge/optimize/rewriter.h"
#include "mge/optimize/unique_readers.h"
#include "mge/optimize/var_set.h"

namespace graphport::mge::opt {

class ElemChainPass {
 public:
  explicit ElemChainPass(OptGraph* g);
  virtual ~ElemChainPass() = default;

 protected:
  // Visits every operator, processing chains as their endpoints are found, then points the
  // graph's endpoints at their replacements.
  void Run();

  // Whether chains of this Elemwise mode are the pass's.
  virtual bool IsChainMode(uint32_t mode) const = 0;
  // Rewrites the chain of `mode` that ends at `endpoint` (a var of the original graph).
  virtual void ProcessChain(VarRef endpoint, uint32_t mode) = 0;
  // Called after an Elemwise operator's inputs were handled; false keeps its own output from
  // being processed as a chain endpoint.
  virtual bool OnVisitFinished(uint32_t node) {
    (void)node;
    return true;
  }

  // The leaves of the chain of `mode` under `endpoint`, depth first in input order, a leaf
  // met twice listed twice. Empty when the chain is too large to take apart (a hostile
  // graph whose shared links would multiply its leaves). Valid until the next call: one
  // buffer serves every chain (three allocations each for 100k chains otherwise).
  const std::vector<VarRef>& ChainTerms(VarRef endpoint, uint32_t mode) const;
  // The Elemwise mode of the operator of `v`, when it has the usual one output.
  std::optional<uint32_t> ModeOf(VarRef v) const;
  // The static shape of `v`, when known.
  const std::optional<Shape>& ShapeOf(VarRef v) const { return g_->var(v).shape; }

  OptGraph* g_;
  Rewriter rw_;
  UniqueReaders readers_;
  OprMaker& m_;

 private:
  void Visit(uint32_t node);
  void Process(VarRef endpoint, uint32_t mode);

  std::set<VarRef> endpoints_;
  // ChainTerms' walk, kept across chains (one allocation each for 100k chains otherwise).
  mutable std::vector<VarRef> stack_, leaves_;
};

// A left fold of `vars` with the Elemwise `mode`: ((v0 m v1) m v2) ...
VarRef ReduceVarList(OprMaker* m, const std::vector<VarRef>& vars, uint32_t mode);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_ELEM_CHAIN_H_
