// The reference evaluator's kernels, one per operator class, on plain parameters (the
// dispatcher in opr_eval.cc reads them from the operator's param tables). Each computes what
// MegEngine's CPU kernel computes, in float32 where MegEngine does (one rounding per
// operation, no multiply-add contraction: these files are built with -ffp-contract=off), and
// returns nullopt with `why` set where it cannot say what MegEngine computes: an unknown mode
// or dtype, or a summation order MegEngine does not pin down.
#ifndef GRAPHPORT_MGE_OPTIMIZE_EVAL_KERNELS_H_
#define GRAPHPORT_MGE_OPTIMIZE_EVAL_KERNELS_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mge/optimize/eval/host_value.h"

namespace graphport::mge::opt {

using Inputs = std::vector<const HostValue*>;

// The right-aligned broadcast of the shapes; nullopt when two dims differ and neither is 1.
std::optional<Shape> BroadcastShapes(const std::vector<Shape>& shapes);

// Elemwise (ElemwiseMode numbers of opr_params.fbs): inputs of one dtype, broadcast.
// With `approximate` (numerics checks only, never folding) it also computes what it can only
// come close to: Float16 in float rounded to half, and the transcendental modes (EXP, LOG,
// SIGMOID, TANH, H_SWISH and their FUSE_ADD forms) by the C library.
std::optional<HostValue> EvalElemwise(uint32_t mode, const Inputs& in, std::string* why,
                                      bool approximate = false);
// PowC (research §3.2): small integer exponents by repeated multiplication, 0.5 / 1/3 /
// -0.5 / -1/3 by sqrt / cbrt (of 1/x for the negative ones), any other by powf.
std::optional<HostValue> EvalPowC(const HostValue& x, float exp, std::string* why);
std::optional<HostValue> EvalTypeCvt(const HostValue& x, int dtype, std::string* why);

// Shape operators: exact copies.
std::optional<HostValue> EvalReshape(const HostValue& x, const HostValue& target, int unspec_axis,
                                     std::string* why);
std::optional<HostValue> EvalBroadcast(const HostValue& x, const HostValue& target,
                                       std::string* why);
// pattern: an input axis, or -1 for a new axis of 1.
std::optional<HostValue> EvalDimshuffle(const HostValue& x, const std::vector<int32_t>& pattern,
                                        std::string* why);
// (remove, axis) pairs applied in order, as AxisAddRemove's descs are.
std::optional<HostValue> EvalAxisAddRemove(const HostValue& x,
                                           const std::vector<std::pair<bool, int32_t>>& descs,
                                           std::string* why);
std::optional<HostValue> EvalConcat(const Inputs& in, int32_t axis, std::string* why);
// Subtensor: one item per indexed axis (megengine_dump_details.md §2.3), each a slice
// (begin, end, step, whichever are given) or a single index, which removes the axis; the
// given bounds are the scalar `index` values, in item order. Python's slice rules for
// positive steps; a negative or zero step, a bound outside the axis or an empty result is
// refused rather than guessed at.
struct SubtensorItem {
  int32_t axis = 0;
  bool begin = false, end = false, step = false, idx = false;
};
std::optional<HostValue> EvalSubtensor(const HostValue& x, const std::vector<SubtensorItem>& items,
                                       const Inputs& index, std::string* why);
// GetVarShape: the broadcast shape of the inputs as Int32, or one axis of it (axis 7: none).
std::optional<HostValue> EvalGetVarShape(const std::vector<Shape>& shapes, int32_t axis,
                                         std::string* why);

// Reduce over `axis` (kept as 1), or to `target` when axis is the param's 2147483647.
// MegEngine's float reducer sums in a blocked order that is not pinned down (research §3.2):
// with `exact_only` a float SUM, SUM_SQR, MEAN or PRODUCT of more than two elements per
// output is refused; without it they are summed left to right.
std::optional<HostValue> EvalReduce(const HostValue& x, uint32_t mode, int32_t axis,
                                    const HostValue* target, bool exact_only, std::string* why);

// AdaptivePooling in NCHW to the (OH, OW) of `target`, as MegEngine runs it: a Pooling with
// stride IH / OH and window IH - (OH - 1) * stride (the same for W), no padding. MAX is
// exact; AVERAGE sums in an order MegEngine does not pin down, so with `exact_only` a window
// of more than two elements is refused.
std::optional<HostValue> EvalAdaptivePooling(const HostValue& x, const HostValue& target, bool max,
                                             bool exact_only, std::string* why);

// Convolution in NCHW: dense weights (OC, IC, FH, FW) or group weights (G, OCPG, ICPG, FH,
// FW); `flip` for CONVOLUTION mode (CROSS_CORRELATION reads the filter as it is).
struct ConvolutionParams {
  uint32_t pad_h = 0, pad_w = 0, stride_h = 1, stride_w = 1, dilate_h = 1, dilate_w = 1;
  bool group = false;
  bool flip = false;
};
// Each output a float32 sum of products, left to right over input channel, filter row and
// column; with `exact_only` refused when it sums more than two products (MegEngine's
// kernels sum in an order of their own).
std::optional<HostValue> EvalConvolution(const HostValue& x, const HostValue& w,
                                         const ConvolutionParams& params, bool exact_only,
                                         std::string* why);
// A (M, K) times B (K, N), either transposed; sums as EvalConvolution's.
std::optional<HostValue> EvalMatrixMul(const HostValue& a, const HostValue& b, bool transpose_a,
                                       bool transpose_b, bool exact_only, std::string* why);

// BatchNorm in INFERENCE mode, y = (x - mean) / sqrt(variance + eps) * scale + bias, in
// double rounded once: a reference for numerics checks only (MegEngine folds BatchNorm
// through ConvertBatchNormToElemwise, whose chain is what gets folded bit for bit).
std::optional<HostValue> EvalBatchNormReference(const Inputs& in, double eps, std::string* why);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_EVAL_KERNELS_H_
