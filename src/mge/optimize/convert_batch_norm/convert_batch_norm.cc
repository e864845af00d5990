#include "mge/optimize/convert_batch_norm/convert_batch_norm.h"

#include "mge/optimize/refuse_operator.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

}  // namespace

PassReport ConvertBatchNormToElemwise(OptGraph* g) {
  if (!g->Holds("BatchNorm"))
    return {"ConvertBatchNormToElemwise", false, ""};  // nothing to rewrite
  Rewriter rw(g);
  uint32_t converted = 0;
  rw.ForEachOperator([&](uint32_t node) {
    const OptNode& n = g->node(node);
    if (g->Key(node) != "BatchNorm" || n.inputs.size() != 5) {
      rw.AutoReplaceOutputs(node);
      return;
    }
    const param::BN* bn = nullptr;
    if (!n.op().params.empty() && n.op().params[0].type == kBNParam) {
      bn = reinterpret_cast<const param::BN*>(n.op().params[0].table);
    }
    if (bn == nullptr || bn->fwd_mode() != param::BNFwdMode_INFERENCE) {
      RefuseOperator(*g, node,
                     "BatchNorm is not in INFERENCE mode, which MegEngine's "
                     "ConvertBatchNormToElemwise asserts (the model was not in eval mode)");
    }
    std::vector<VarRef> in = rw.Inputs(node);
    const VarRef x = in[0], scale = in[1], bias = in[2], mean = in[3], variance = in[4];
    const VarRef y_old{node, static_cast<uint32_t>(n.outputs.size() - 1)};
    OprMaker& m = rw.maker();
    const int var_dtype = g->var(variance).dtype.value_or(kF32);
    const VarRef eps = m.ScalarImm(static_cast<float>(bn->epsilon()), var_dtype, variance);
    const VarRef invstd = m.PowC(m.Elemwise(kAdd, {variance, eps}), -0.5f);
    const VarRef centred = m.Elemwise(kSub, {x, mean});
    const VarRef scaled = m.Elemwise(kMul, {m.Elemwise(kMul, {scale, centred}), invstd});
    const VarRef y = m.Elemwise(kAdd, {scaled, bias});
    if (g->var(x).dtype && g->var(y).dtype && g->var(x).dtype != g->var(y).dtype) {
      RefuseOperator(*g, node, "the folded BatchNorm's dtype differs from its input's");
    }
    rw.Replace(y_old, y);
    ++converted;
  });
  rw.Apply();
  PassReport report{"ConvertBatchNormToElemwise", converted != 0, ""};
  if (converted) {
    report.summary = std::to_string(converted) + " BatchNorm converted to Elemwise (" +
                     std::to_string(rw.maker().folded()) + " constant operators folded)";
  }
  return report;
}

}  // namespace graphport::mge::opt
