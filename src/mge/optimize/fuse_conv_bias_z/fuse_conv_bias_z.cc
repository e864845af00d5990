// For an Elemwise ADD or FUSE_ADD_RELU of two inputs, the inputs are scanned in order for a
// ConvBias with a bias, no z and no nonlinearity, read by that operator alone; z is the
// other input. It is fused when the ConvBias's format is NCHW, NHWC or NCHW4, its bias is
// not of the output's shape, and z has the output's shape and dtype: ConvBias(src, filter,
// bias, z), RELU for FUSE_ADD_RELU, with the Elemwise's output dtype. (MegEngine's quantized
// QADD / QFUSE_ADD_RELU forms are ElemwiseMultiType operators, left alone here.)
#include "mge/optimize/fuse_conv_bias_z/fuse_conv_bias_z.h"

#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"

namespace graphport::mge::opt {
namespace {

class ZFuser {
 public:
  explicit ZFuser(OptGraph* g) : g_(g), rw_(g), readers_(OperatorsReading(*g)) {}

  uint32_t Run() {
    return rw_.RewriteMatches([&](uint32_t node) { return Visit(node); });
  }

 private:
  bool Visit(uint32_t node) {
    const std::optional<uint32_t> mode = g_->node(node).elemwise_mode();
    const VarList original = g_->node(node).inputs;
    if (!mode || (*mode != kAdd && *mode != kFuseAddRelu) || original.size() != 2) return false;
    for (int i = 0; i < 2; ++i) {
      // Readers as the graph was before the pass; the operator that stands for the var now.
      const VarRef cb = rw_.Get(original[i]);
      if (!g_->Is(cb, kConvBiasKey) || !ReadOnce(readers_, original[i])) continue;
      std::optional<ConvParams> c = ConvParamsOf(*g_, cb.node);
      const std::vector<VarRef> in = rw_.Inputs(cb.node);
      if (!c || in.size() != 3 || c->nonline != kIdentity) continue;
      const VarRef z = rw_.Get(original[1 - i]);
      if (c->format != 0 && c->format != 1 && c->format != 3) return false;
      if (SameShape(*g_, cb, in[2]) || !SameShape(*g_, cb, z) || !g_->var(z).dtype ||
          g_->var(z).dtype != g_->var(cb).dtype) {
        return false;
      }
      c->nonline = *mode == kFuseAddRelu ? kNonlineRelu : kIdentity;
      // The Elemwise's output dtype, written only where it is not the ConvBias's already.
      const std::optional<int>& dtype = g_->var({node, 0}).dtype;
      rw_.Replace({node, 0},
                  MakeConvBias(&rw_.maker(), cb.node, *c, {in[0], in[1], in[2], z}, {node, 0},
                               dtype != g_->var(cb).dtype ? dtype : std::nullopt));
      return true;
    }
    return false;
  }

  OptGraph* g_;
  Rewriter rw_;
  std::map<VarRef, uint32_t> readers_;
};

}  // namespace

PassReport FuseConvBiasZ(OptGraph* g) {
  return CountedReport("FuseConvBiasZ", ZFuser(g).Run(), "additions fused into ConvBias as z");
}

}  // namespace graphport::mge::opt
