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

class Fuser {
 public:
  explicit Fuser(OptGraph* g) : g_(g), rw_(g), readers_(OperatorsReading(*g)) {}

  PassReport Run() {
    rw_.ForEachOperator([&](uint32_t node) {
      if (!Visit(node)) rw_.AutoReplaceOutputs(node);
    });
    rw_.Apply();
    PassReport report{"FuseConvBiasZ", fused_ != 0, ""};
    if (fused_) report.summary = std::to_string(fused_) + " additions fused into ConvBias as z";
    return report;
  }

 private:
  bool Visit(uint32_t node) {
    const std::optional<uint32_t> mode = g_->node(node).elemwise_mode();
    const VarList original = g_->node(node).inputs;
    if (!mode || (*mode != kAdd && *mode != kFuseAddRelu) || original.size() != 2) return false;
    for (int i = 0; i < 2; ++i) {
      // Readers as the graph was before the pass; the operator that stands for the var now.
      const VarRef cb = rw_.Get(original[i]);
      auto readers = readers_.find(original[i]);
      if (!g_->Is(cb, kConvBiasKey) || readers == readers_.end() || readers->second != 1) continue;
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
      ++fused_;
      return true;
    }
    return false;
  }

  OptGraph* g_;
  Rewriter rw_;
  std::map<VarRef, uint32_t> readers_;
  uint32_t fused_ = 0;
};

}  // namespace

PassReport FuseConvBiasZ(OptGraph* g) { return Fuser(g).Run(); }

}  // namespace graphport::mge::opt
