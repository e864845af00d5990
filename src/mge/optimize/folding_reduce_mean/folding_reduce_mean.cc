#include "mge/optimize/folding_reduce_mean/folding_reduce_mean.h"

#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/optimize/unique_readers.h"
#include "mge/schema/dtype_generated.h"
#include "mge/schema/mgb_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

class ReduceMeanFolder {
 public:
  explicit ReduceMeanFolder(OptGraph* g) : g_(g), rw_(g), readers_(OperatorReaderCounts(*g)) {}

  uint32_t Run() {
    return rw_.RewriteMatches([&](uint32_t node) { return TryFold(node); });
  }

 private:
  bool TryFold(uint32_t node) {
    const OptNode& div = g_->node(node);
    if (div.elemwise_mode() != kTrueDiv || div.inputs.size() != 2) return false;
    // The numerator: Reduce SUM, maybe under one AxisAddRemove.
    uint32_t reduce = div.inputs[0].node;
    std::optional<uint32_t> axis_op;
    if (g_->Key(reduce) == "AxisAddRemove") {
      axis_op = reduce;
      reduce = g_->node(reduce).inputs[0].node;
    }
    const auto* rp = g_->node(reduce).op().ParamAs<param::Reduce>(kReduceParam);
    if (g_->Key(reduce) != "Reduce" || rp == nullptr || rp->mode() != param::ReduceMode_SUM) {
      return false;
    }
    // The denominator: TypeCvt to Float32 of GetVarShape.
    const uint32_t cvt = div.inputs[1].node;
    const auto* dt = g_->node(cvt).op().ParamAs<mgb::serialization::fbs::DType>(kDTypeParam);
    if (g_->Key(cvt) != "TypeCvt" || dt == nullptr ||
        dt->type() != mgb::serialization::fbs::DTypeEnum_Float32) {
      return false;
    }
    const uint32_t shape = g_->node(cvt).inputs[0].node;
    const auto* sp = g_->node(shape).op().ParamAs<param::OptionalAxisV1>(kOptionalAxisV1Param);
    if (g_->Key(shape) != "GetVarShape" || sp == nullptr) return false;
    // Both read the same operator, which nothing else reads, along the same axis.
    const uint32_t parent = g_->node(shape).inputs[0].node;
    if (parent != g_->node(reduce).inputs[0].node || readers_[parent] != 2) return false;
    if (sp->axis() != rp->axis()) return false;
    VarRef mean = rw_.maker().Reduce(rw_.Get(g_->node(reduce).inputs[0]), param::ReduceMode_MEAN,
                                     rp->axis(), rp->data_type());
    if (axis_op) mean = {rw_.maker().Copy(*axis_op, {mean}, /*keep_var_names=*/false), 0};
    rw_.Replace({node, 0}, mean);
    return true;
  }

  OptGraph* g_;
  Rewriter rw_;
  std::vector<uint32_t> readers_;
};

}  // namespace

PassReport FoldingReduceMean(OptGraph* g) {
  if (!g->Holds("Reduce")) return {"FoldingReduceMean", false, ""};  // nothing to rewrite
  return CountedReport("FoldingReduceMean", ReduceMeanFolder(g).Run(),
                       "sums over counts made Reduce MEAN");
}

}  // namespace graphport::mge::opt
