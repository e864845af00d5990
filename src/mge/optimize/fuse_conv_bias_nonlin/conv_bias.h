// What the two ConvBias fusion passes share (research megengine_optimize.md §4.1-§4.2): the
// ConvBias made from a Convolution or a ConvBias, and who reads a var.
#ifndef GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_NONLIN_CONV_BIAS_H_
#define GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_NONLIN_CONV_BIAS_H_

#include <map>
#include <optional>
#include <vector>

#include "mge/optimize/opr_maker.h"

namespace graphport::mge::opt {

// ConvBias's class key: its registration token is ConvBiasForward.
inline constexpr char kConvBiasKey[] = "ConvBiasForward";

// ConvBias::Param::NonlineMode.
enum NonlineMode : uint32_t {
  kIdentity = fbs::param::ConvBiasV0NonlineMode_IDENTITY,
  kNonlineRelu = fbs::param::ConvBiasV0NonlineMode_RELU,
  kNonlineSigmoid = fbs::param::ConvBiasV0NonlineMode_SIGMOID,
  kHSwish = fbs::param::ConvBiasV0NonlineMode_H_SWISH,
};

// The convolution params of a Convolution or ConvBias operator: nullopt for another
// operator or a param table of another version.
struct ConvParams {
  uint32_t nonline = kIdentity;  // ConvBias's
  uint32_t mode = 0, sparse = 0, format = 0;
  uint32_t pad_h = 0, pad_w = 0, stride_h = 1, stride_w = 1, dilate_h = 1, dilate_w = 1;
  uint32_t compute_mode = 0;
};
std::optional<ConvParams> ConvParamsOf(const OptGraph& g, uint32_t node);

// ConvBias::make(inputs, param, execution policy, config) with `from`'s convolution params
// and `nonline`; its execution policy and its config (name, comp node, output dtype) are
// `from`'s, the output dtype `dtype` when given. The output takes `like`'s static shape.
VarRef MakeConvBias(OprMaker* maker, uint32_t from, const ConvParams& params,
                    std::vector<VarRef> inputs, VarRef like,
                    std::optional<int> dtype = std::nullopt);

// How many operators reachable from the endpoints read each var, each once, whatever the
// input is for (the passes' reader map, built before their walk).
std::map<VarRef, uint32_t> OperatorsReading(const OptGraph& g);

// Whether one operator alone reads `v` in such a map: the operator may be folded into it.
inline bool ReadOnce(const std::map<VarRef, uint32_t>& readers, VarRef v) {
  auto it = readers.find(v);
  return it != readers.end() && it->second == 1;
}

// Whether both vars have a static shape, the same one.
inline bool SameShape(const OptGraph& g, VarRef a, VarRef b) {
  return g.var(a).shape && g.var(b).shape && *g.var(a).shape == *g.var(b).shape;
}

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_NONLIN_CONV_BIAS_H_
