#include "mge/optimize/folding_global_pooling/folding_global_pooling.h"

#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/optimize/unique_readers.h"
#include "mge/schema/cpp_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

class GlobalPoolingFolder {
 public:
  explicit GlobalPoolingFolder(OptGraph* g) : g_(g), rw_(g), readers_(OperatorReaderCounts(*g)) {}

  uint32_t Run() {
    return rw_.RewriteMatches(
        [&](uint32_t node) { return TryAxisOperators(node) || TryDimshuffle(node); });
  }

 private:
  // AxisAddRemove (one reader at most) with a (N,C,1,1) output, over more AxisAddRemove
  // (one reader each), over the Reduce.
  bool TryAxisOperators(uint32_t node) {
    if (g_->Key(node) != "AxisAddRemove" || readers_[node] > 1) return false;
    const std::optional<Shape>& out = g_->var({node, 0}).shape;
    if (!out || out->size() != 4 || (*out)[2] != 1 || (*out)[3] != 1) return false;
    uint32_t below = g_->node(node).inputs[0].node;
    while (g_->Key(below) == "AxisAddRemove") {
      if (readers_[below] != 1) return false;
      below = g_->node(below).inputs[0].node;
    }
    return Fold(node, below);
  }

  // Dimshuffle (0,1,-1,-1) over one AxisAddRemove over the Reduce.
  bool TryDimshuffle(uint32_t node) {
    if (g_->Key(node) != "Dimshuffle") return false;
    const auto* p = g_->node(node).op().ParamAs<param::Dimshuffle>(kDimshuffleParam);
    if (p == nullptr || p->pattern() == nullptr || p->pattern()->size() != 4) return false;
    const int32_t want[] = {0, 1, -1, -1};
    for (int k = 0; k < 4; ++k) {
      if (p->pattern()->Get(k) != want[k]) return false;
    }
    const uint32_t axis = g_->node(node).inputs[0].node;
    if (g_->Key(axis) != "AxisAddRemove") return false;
    return Fold(node, g_->node(axis).inputs[0].node);
  }

  // `reduce` must be Reduce MEAN or MAX over axis 2 of a Reshape that merges H and W.
  bool Fold(uint32_t top, uint32_t reduce) {
    const auto* rp = g_->node(reduce).op().ParamAs<param::Reduce>(kReduceParam);
    if (g_->Key(reduce) != "Reduce" || rp == nullptr) return false;
    const bool max = rp->mode() == param::ReduceMode_MAX_;
    if ((!max && rp->mode() != param::ReduceMode_MEAN) || rp->axis() != 2) return false;
    const uint32_t reshape = g_->node(reduce).inputs[0].node;
    if (g_->Key(reshape) != "Reshape") return false;
    const std::optional<Shape>& in = g_->var(g_->node(reshape).inputs[0]).shape;
    const std::optional<Shape>& out = g_->var({reshape, 0}).shape;
    if (!in || !out || in->size() != 4 || out->size() != 3 || (*in)[2] * (*in)[3] != (*out)[2]) {
      return false;
    }
    // AdaptivePooling::make(x, {1, 1}, {mode, NCHW}): the target shape a cached constant.
    OprMaker& m = rw_.maker();
    const VarRef x = rw_.Get(g_->node(reshape).inputs[0]);
    OptNode pool;
    pool.set_op(g_->NewOperator("AdaptivePooling"));
    pool.inputs = {x, m.Imm(HostValue::Ints({2}, {1, 1}), x)};
    pool.outputs.resize(1);
    flatbuffers::FlatBufferBuilder fbb(64);
    pool.mutable_op().params.push_back(g_->OwnParam(
        kAdaptivePoolingParam, &fbb,
        param::CreateAdaptivePooling(fbb,
                                     max ? param::PoolingV0Mode_MAX_ : param::PoolingV0Mode_AVERAGE,
                                     param::ConvolutionFormat_NCHW)
            .Union()));
    pool.mutable_op().items = {{DumpItem::kParam, 0}};
    rw_.Replace({top, 0}, m.Insert(std::move(pool), "AdaptivePooling"));
    return true;
  }

  OptGraph* g_;
  Rewriter rw_;
  std::vector<uint32_t> readers_;
};

}  // namespace

PassReport FoldingGlobalPooling(OptGraph* g) {
  if (!g->Holds("Reduce")) return {"FoldingGlobalPooling", false, ""};  // nothing to rewrite
  return CountedReport("FoldingGlobalPooling", GlobalPoolingFolder(g).Run(),
                       "global poolings made AdaptivePooling");
}

}  // namespace graphport::mge::opt
