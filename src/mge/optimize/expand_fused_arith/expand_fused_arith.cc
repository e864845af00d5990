#include "mge/optimize/expand_fused_arith/expand_fused_arith.h"

#include <algorithm>
#include <iterator>
#include <optional>

#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"

namespace graphport::mge::opt {
namespace {

// ElemwiseMode numbers (opr_params.fbs) of the fused modes and what they apply after ADD.

std::optional<uint32_t> ModeAfterAdd(uint32_t fused) {
  switch (fused) {
    case kFuseAddRelu:
      return kRelu;
    case kFuseAddSigmoid:
      return kSigmoid;
    case kFuseAddTanh:
      return kTanh;
    case kFuseAddHSwish:
      return kHSwishMode;
    default:
      return std::nullopt;
  }
}

}  // namespace

PassReport ExpandFusedArith(OptGraph* g) {
  // Nothing to expand (the walk and the round-trip check each cost ~10 ms on 100k nodes).
  const uint32_t fused[] = {kFuseMulAdd3,    kFuseMulAdd4, kFuseAddRelu,
                            kFuseAddSigmoid, kFuseAddTanh, kFuseAddHSwish};
  if (std::none_of(std::begin(fused), std::end(fused),
                   [&](uint32_t mode) { return g->HoldsElemwise(mode); })) {
    return {"ExpandFusedArith", false, ""};
  }
  Rewriter rw(g);
  OprMaker& m = rw.maker();
  uint32_t expanded = 0;
  rw.ForEachOperator([&](uint32_t node) {
    // As MegEngine does: the operator is re-made on its replaced inputs first, then expanded
    // from those inputs.
    rw.AutoReplaceOutputs(node);
    const std::optional<uint32_t> mode = g->node(node).elemwise_mode();
    if (!mode) return;
    const std::vector<VarRef> in = rw.Inputs(node);
    VarRef out;
    if (*mode == kFuseMulAdd3 && in.size() == 3) {
      out = m.Elemwise(kAdd, {m.Elemwise(kMul, {in[0], in[1]}), in[2]});
    } else if (*mode == kFuseMulAdd4 && in.size() == 4) {
      const VarRef ab = m.Elemwise(kMul, {in[0], in[1]});
      const VarRef cd = m.Elemwise(kMul, {in[2], in[3]});
      out = m.Elemwise(kAdd, {ab, cd});
    } else if (std::optional<uint32_t> after = ModeAfterAdd(*mode); after && in.size() == 2) {
      out = m.Elemwise(*after, {m.Elemwise(kAdd, {in[0], in[1]})});
    } else {
      return;
    }
    rw.Replace({node, 0}, out);
    ++expanded;
  });
  rw.Apply();
  PassReport report{"ExpandFusedArith", expanded != 0, ""};
  if (expanded) report.summary = std::to_string(expanded) + " fused Elemwise expanded";
  return report;
}

}  // namespace graphport::mge::opt
