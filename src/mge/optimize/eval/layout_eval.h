// The reference evaluator's operators of the NCHW44 / NCHW88 graphs (EnableNchwxx): ConvBias,
// and Convolution and Pooling in NCHW and in the channel-packed formats. A packed operator is
// computed as its NCHW form on the unpacked operands, and its result packed again, with the
// index mappings of research megengine_optimize.md §4.7: each output element is then the
// same float32 sum of products as the NCHW operator's.
#ifndef GRAPHPORT_MGE_OPTIMIZE_EVAL_LAYOUT_EVAL_H_
#define GRAPHPORT_MGE_OPTIMIZE_EVAL_LAYOUT_EVAL_H_

#include <optional>
#include <string>

#include "mge/optimize/eval/host_value.h"
#include "mge/optimize/eval/kernels.h"

namespace graphport::mge::opt {

// NCHWc{p} (N, C/p, H, W, p) -> NCHW, and back (a shape-only value gives its shape).
HostValue UnpackFeature(const HostValue& x);
std::optional<HostValue> PackFeature(const HostValue& x, uint32_t pack, std::string* why);

// A convolution's filter in the packed format for `pack`, read back as NCHW's (dense OC, IC,
// FH, FW or group G, OCPG, ICPG, FH, FW): dense KCRSc{p}k{p} (6-d), hybrid KRSCk{p} (5-d,
// dense), channel-wise C11RSc{p} (6-d, group), group GKCRSc{p}k{p} (7-d).
std::optional<HostValue> UnpackFilter(const HostValue& w, uint32_t pack, bool group,
                                      std::string* why);

// Pooling in NCHW: MAX, AVERAGE (padding counted) or AVERAGE_COUNT_EXCLUDE_PADDING (mode
// numbers of PoolingV0Mode); an average of more than two elements sums in an order MegEngine
// does not pin down, so `exact_only` refuses it.
struct PoolingParams {
  uint32_t mode = 0, pad_h = 0, pad_w = 0, stride_h = 2, stride_w = 2, window_h = 2, window_w = 2;
};
std::optional<HostValue> EvalPooling(const HostValue& x, const PoolingParams& params,
                                     bool exact_only, std::string* why);

// ConvBias's tail: conv + bias (broadcast) then the nonlinearity (ConvBias NonlineMode
// numbers: IDENTITY, RELU, SIGMOID, H_SWISH); SIGMOID and H_SWISH only with `approximate`.
std::optional<HostValue> ConvBiasTail(HostValue conv, const HostValue* bias, uint32_t nonline,
                                      bool approximate, std::string* why);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_EVAL_LAYOUT_EVAL_H_
