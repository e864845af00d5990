// Which fused Elemwise operators the pipeline's ExpandFusedArith -> ArithFuse round trip gives
// back unchanged (research megengine_optimize.md §6.1: an optimized model's fused operators
// are expanded by P5 and fused again by P11, deduplicated into the loaded ones). Taking such
// an operator apart re-creates everything downstream of it twice (once expanded, once fused
// again) to end where it started: on a 100k-operator model that is ~80x a plain re-dump. The
// pipeline keeps these operators as they are instead.
//
// An operator qualifies only when no pass between P5 and P11 could touch its expansion:
// its operands are distinct, of known shape, none a one-element value (a coefficient or an
// in-place shortcut), none made by arithmetic that a chain pass would extend (ADD, SUB,
// NEGATE, MUL, TRUE_DIV, POW, MAX, MIN, PowC, the fused modes), the factors of a product not
// Convolution or MatrixMul outputs (ParamRedistribute) and not both constant (folding), no
// operand a computed constant (ParamFuse), its inputs already in the order the Elemwise
// constructor stores them, its dtype not quantized (ArithFuse does not fuse those), and
// ArithFuse's grouping (products by operand shapes, a bias of a factor's shape) rebuilds the
// same mode. FUSE_MUL_ADD3/4, whose expansion is an ADD, also need every reader to be an
// activation (RELU, SIGMOID, TANH, H_SWISH) that no pass looks through, and not be a graph
// output.
#ifndef GRAPHPORT_MGE_OPTIMIZE_EXPAND_FUSED_ARITH_ROUND_TRIP_H_
#define GRAPHPORT_MGE_OPTIMIZE_EXPAND_FUSED_ARITH_ROUND_TRIP_H_

#include <cstdint>
#include <vector>

#include "mge/optimize/const_vars.h"
#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

class FusedRoundTrip {
 public:
  // Looks at the graph's readers once.
  explicit FusedRoundTrip(const OptGraph& g);

  // Whether the fused operator `node` (of Elemwise `mode`) reading `inputs` (its current
  // inputs) comes back unchanged from the round trip.
  bool Unchanged(uint32_t node, uint32_t mode, const std::vector<VarRef>& inputs) const;

 private:
  bool Operand(VarRef v, bool factor) const;

  const OptGraph& g_;
  ConstVars const_;
  // Per node: read by an operator other than an activation, or a graph output.
  std::vector<bool> exposed_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_EXPAND_FUSED_ARITH_ROUND_TRIP_H_
