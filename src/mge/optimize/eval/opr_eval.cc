// The dispatcher: reads each class's param table and calls its kernel (kernels.h).
#include "mge/optimize/eval/opr_eval.h"

#include <set>

#include "mge/optimize/eval/half.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/eval/layout_eval.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/cpp_opr_params_generated.h"
#include "mge/schema/dtype_generated.h"
#include "mge/schema/mgb_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

const std::string& Key(const Operator& op) {
  static const std::string kNone;
  return op.cls == nullptr ? kNone : op.cls->key;
}

bool HasInputs(const std::vector<const HostValue*>& in, size_t n, std::string* why) {
  if (in.size() == n) return true;
  *why = "an unexpected number of inputs";
  return false;
}

// Float16 operands of a convolution, a matrix product or a reduction (ConvertF32ToF16's
// graphs), for numerics checks only: each operand widened exactly to float32, the float32
// result rounded to float16. That is what compute_mode FLOAT32 and FLOAT_O16xC32 ask for;
// with DEFAULT a backend may accumulate in float16, which this does not emulate, so constant
// folding (exact_only) never takes this path.
struct HalfOperands {
  std::vector<HostValue> widened;
  std::vector<const HostValue*> in;
  bool half = false;
};

bool WidenHalfOperands(const std::vector<const HostValue*>& in, const EvalOptions& options,
                       HalfOperands* out, std::string* why) {
  out->in = in;
  for (size_t k = 0; k < in.size(); ++k) out->half |= in[k]->dtype == kF16 && k < 2;
  if (!out->half) return true;
  if (options.exact_only) {
    *why = "Float16 operands (evaluated for numerics checks only)";
    return false;
  }
  out->widened.reserve(in.size());
  for (size_t k = 0; k < in.size(); ++k) {
    out->widened.push_back(*in[k]);
    if (in[k]->dtype == kF16) out->widened.back().dtype = kF32;
  }
  for (size_t k = 0; k < in.size(); ++k) out->in[k] = &out->widened[k];
  return true;
}

void RoundToHalfResult(std::optional<HostValue>* out) {
  if (!*out) return;
  for (float& v : (*out)->f) v = RoundToHalf(v);
  (*out)->dtype = kF16;
}

// The pack size of a convolution or pooling format: 1 for NCHW, 4 / 8 for the packed CPU
// formats, 0 for any other.
uint32_t PackOf(uint32_t format) {
  switch (format) {
    case param::ConvolutionFormat_NCHW:
      return 1;
    case param::ConvolutionFormat_NCHW44:
      return 4;
    case param::ConvolutionFormat_NCHW88:
      return 8;
    default:
      return 0;
  }
}

// Convolution or ConvBias in NCHW, NCHW44 or NCHW88 (Float32): a packed one is computed in
// NCHW on its unpacked operands (layout_eval.h) and its result packed again.
std::optional<HostValue> EvalConvInFormat(const std::vector<const HostValue*>& in,
                                          const ConvolutionParams& c, uint32_t format,
                                          const uint32_t* nonline, const EvalOptions& options,
                                          std::string* why) {
  const uint32_t pack = PackOf(format);
  if (pack == 0) {
    *why = "a convolution format other than NCHW, NCHW44 and NCHW88";
    return std::nullopt;
  }
  const size_t max_inputs = nonline == nullptr ? 2 : 3;
  if (in.size() < 2 || in.size() > max_inputs) {
    *why = "an unexpected number of inputs";
    return std::nullopt;
  }
  for (const HostValue* v : in) {
    if (v->dtype != kF32) {
      *why = "a packed or ConvBias operand that is not Float32";
      return std::nullopt;
    }
  }
  HostValue src = *in[0], filter = *in[1];
  std::optional<HostValue> bias;
  if (in.size() == 3) bias = *in[2];
  if (pack > 1) {
    if (src.shape.size() == 5) src = UnpackFeature(src);
    std::optional<HostValue> w = UnpackFilter(filter, pack, c.group, why);
    if (!w) return std::nullopt;
    filter = std::move(*w);
    if (bias && bias->shape.size() == 5) bias = UnpackFeature(*bias);
  }
  std::optional<HostValue> out = EvalConvolution(src, filter, c, options.exact_only, why);
  if (out && nonline != nullptr) {
    out =
        ConvBiasTail(std::move(*out), bias ? &*bias : nullptr, *nonline, !options.exact_only, why);
  }
  if (out && pack > 1) out = PackFeature(*out, pack, why);
  return out;
}

std::optional<HostValue> EvalPoolingInFormat(const HostValue& x, const PoolingParams& p,
                                             uint32_t format, bool exact_only, std::string* why) {
  const uint32_t pack = PackOf(format);
  if (pack == 0 || (pack > 1 && x.shape.size() != 5)) {
    *why = "a Pooling format other than NCHW, NCHW44 and NCHW88";
    return std::nullopt;
  }
  std::optional<HostValue> out = EvalPooling(pack > 1 ? UnpackFeature(x) : x, p, exact_only, why);
  if (out && pack > 1) out = PackFeature(*out, pack, why);
  return out;
}

}  // namespace

std::optional<HostValue> StoredValue(const Operator& op, uint32_t output) {
  const std::string& key = Key(op);
  if (key != "ImmutableTensor" && key != "SharedDeviceTensor" &&
      key != "MultipleDeviceTensorHolder") {
    return std::nullopt;
  }
  if (output >= op.tensors.size()) return std::nullopt;
  const Tensor& t = op.tensors[output];
  if (!t.has_value || !t.shape) return std::nullopt;
  if (t.dtype && t.dtype->has_param) return std::nullopt;  // quantized
  return DecodeValue(t.dtype ? static_cast<int>(t.dtype->type) : static_cast<int>(kF32), *t.shape,
                     t.value);
}

bool HasKernel(const Operator& op) {
  static const auto* keys = new std::set<std::string>{"Elemwise",      "PowC",
                                                      "TypeCvt",       "Reshape",
                                                      "Broadcast",     "Dimshuffle",
                                                      "AxisAddRemove", "Concat",
                                                      "GetVarShape",   "Reduce",
                                                      "Identity",      "MarkNoBroadcastElemwise",
                                                      "ShapeHint",     "AdaptivePooling",
                                                      "Copy",          "Convolution",
                                                      "MatrixMul",     "ConvBiasForward",
                                                      "Pooling",       "Subtensor"};
  return keys->count(Key(op)) != 0;
}

std::optional<HostValue> EvalOperator(const Operator& op, const std::vector<const HostValue*>& in,
                                      const EvalOptions& options, std::string* why) {
  const std::string& key = Key(op);
  std::optional<HostValue> out;
  if (key == "Elemwise") {
    const auto* p = op.ParamAs<param::Elemwise>(kElemwiseParam);
    uint32_t mode = p == nullptr ? 0 : static_cast<uint32_t>(p->mode());
    out = EvalElemwise(mode, in, why, !options.exact_only);
  } else if (key == "PowC") {
    const auto* p = op.ParamAs<param::PowC>(kPowCParam);
    if (HasInputs(in, 1, why)) out = EvalPowC(*in[0], p == nullptr ? 0.0f : p->exp(), why);
  } else if (key == "TypeCvt") {
    const auto* p = op.ParamAs<mgb::serialization::fbs::DType>(kDTypeParam);
    if (p != nullptr && p->param_type() != mgb::serialization::fbs::DTypeParam_NONE) {
      *why = "TypeCvt to a quantized dtype";
    } else if (HasInputs(in, 1, why)) {
      out = EvalTypeCvt(*in[0], p == nullptr ? static_cast<int>(kF32) : static_cast<int>(p->type()),
                        why);
    }
  } else if (key == "Reshape") {
    if (HasInputs(in, 2, why)) out = EvalReshape(*in[0], *in[1], OptionalAxisOf(op), why);
  } else if (key == "Broadcast") {
    if (HasInputs(in, 2, why)) out = EvalBroadcast(*in[0], *in[1], why);
  } else if (key == "Dimshuffle") {
    const auto* p = op.ParamAs<param::Dimshuffle>(kDimshuffleParam);
    std::vector<int32_t> pattern;
    if (p != nullptr && p->pattern() != nullptr) {
      pattern.assign(p->pattern()->begin(), p->pattern()->end());
    }
    if (HasInputs(in, 1, why)) out = EvalDimshuffle(*in[0], pattern, why);
  } else if (key == "AxisAddRemove") {
    const auto* p = op.ParamAs<param::AxisAddRemove>(kAxisAddRemoveParam);
    std::vector<std::pair<bool, int32_t>> descs;
    if (p != nullptr && p->desc() != nullptr) {
      for (const auto* d : *p->desc()) {
        descs.push_back({d->method() == param::AxisDescMethod_REMOVE, d->axis()});
      }
    }
    if (HasInputs(in, 1, why)) out = EvalAxisAddRemove(*in[0], descs, why);
  } else if (key == "Concat") {
    const auto* p = op.ParamAs<param::Axis>(kAxisParam);
    out = EvalConcat(in, p == nullptr ? 0 : p->axis(), why);
  } else if (key == "Subtensor") {
    const auto* p = op.ParamAs<param::IndexDescMaskDump>(kIndexDescParam);
    std::vector<SubtensorItem> items;
    if (p != nullptr && p->items() != nullptr) {
      for (const param::IndexDescMaskItem* d : *p->items()) {
        items.push_back({d->axis(), d->begin(), d->end(), d->step(), d->idx()});
      }
    }
    if (p == nullptr || in.empty()) {
      *why = "Subtensor without its index items or data";
    } else {
      out = EvalSubtensor(*in[0], items, Inputs(in.begin() + 1, in.end()), why);
    }
  } else if (key == "GetVarShape") {
    std::vector<Shape> shapes;
    for (const HostValue* v : in) shapes.push_back(v->shape);
    out = EvalGetVarShape(shapes, OptionalAxisOf(op), why);
  } else if (key == "Reduce") {
    const auto* p = op.ParamAs<param::Reduce>(kReduceParam);
    const auto data_type = p == nullptr ? param::ReduceDataType_DEFAULT : p->data_type();
    // FLOAT_O32xC32 reads Float16 and accumulates and writes in float32: the float32
    // reduction of the (exactly widened) half values. FLOAT_O16xC32 (io16xc32) and DEFAULT
    // on Float16 accumulate in float32 and round the result to Float16 (numerics checks).
    const bool widen =
        data_type == param::ReduceDataType_FLOAT_O32xC32 && !in.empty() && in[0]->dtype == kF16;
    const bool half_result = !in.empty() && in[0]->dtype == kF16 && !widen &&
                             (data_type == param::ReduceDataType_DEFAULT ||
                              data_type == param::ReduceDataType_FLOAT_O16xC32);
    HalfOperands half;
    if (data_type != param::ReduceDataType_DEFAULT && !widen && !half_result) {
      *why = "Reduce with a data_type other than DEFAULT";
    } else if (half_result && !WidenHalfOperands(in, options, &half, why)) {
    } else if (in.size() == 1 || in.size() == 2) {
      HostValue widened;
      const HostValue* x = half_result ? half.in[0] : in[0];
      if (widen) {
        widened = *in[0];
        widened.dtype = kF32;
        x = &widened;
      }
      out = EvalReduce(*x, p == nullptr ? 0 : static_cast<uint32_t>(p->mode()),
                       p == nullptr ? 2147483647 : p->axis(), in.size() == 2 ? in[1] : nullptr,
                       options.exact_only, why);
      if (half_result) RoundToHalfResult(&out);
    } else {
      *why = "Reduce with an unexpected number of inputs";
    }
  } else if (key == "AdaptivePooling") {
    const auto* p = op.ParamAs<param::AdaptivePooling>(kAdaptivePoolingParam);
    const uint32_t pack = p == nullptr ? 0 : PackOf(p->format());
    if (pack == 0 ||
        (p->mode() != param::PoolingV0Mode_MAX_ && p->mode() != param::PoolingV0Mode_AVERAGE)) {
      *why = "AdaptivePooling other than MAX or AVERAGE in NCHW, NCHW44 or NCHW88";
    } else if (HasInputs(in, 2, why)) {
      if (pack > 1 && in[0]->shape.size() != 5) {
        *why = "a packed AdaptivePooling of an input that is not packed";
      } else {
        out = EvalAdaptivePooling(pack > 1 ? UnpackFeature(*in[0]) : *in[0], *in[1],
                                  p->mode() == param::PoolingV0Mode_MAX_, options.exact_only, why);
        if (out && pack > 1) out = PackFeature(*out, pack, why);
      }
    }
  } else if (key == "Convolution" || key == "ConvBiasForward") {
    // compute_mode FLOAT32 changes only how Float16 operands are computed.
    const bool bias = key == "ConvBiasForward";
    const auto* p = op.ParamAs<param::Convolution>(kConvolutionParam);
    const auto* b = op.ParamAs<param::ConvBias>(kConvBiasParam);
    HalfOperands half;
    if (bias ? b == nullptr : p == nullptr) {
      *why = "a convolution without its current param table";
    } else {
      ConvolutionParams c;
      uint32_t format = 0, nonline = 0;
      auto read = [&](const auto* t) {
        c.pad_h = t->pad_h();
        c.pad_w = t->pad_w();
        c.stride_h = t->stride_h();
        c.stride_w = t->stride_w();
        c.dilate_h = t->dilate_h();
        c.dilate_w = t->dilate_w();
        c.group = t->sparse() == param::ConvolutionV0Sparse_GROUP;
        c.flip = t->mode() == param::ConvolutionV0Mode_CONVOLUTION;
        format = t->format();
      };
      if (bias) {
        read(b);
        nonline = b->nonlineMode();
      } else {
        read(p);
      }
      if (!bias && format == param::ConvolutionFormat_NCHW) {
        if (HasInputs(in, 2, why) && WidenHalfOperands(in, options, &half, why)) {
          out = EvalConvolution(*half.in[0], *half.in[1], c, options.exact_only, why);
          if (half.half) RoundToHalfResult(&out);
        }
      } else {
        out = EvalConvInFormat(in, c, format, bias ? &nonline : nullptr, options, why);
      }
    }
  } else if (key == "Pooling") {
    const auto* p = op.ParamAs<param::Pooling>(fbs::OperatorParam_param_Pooling);
    if (p == nullptr) {
      *why = "a Pooling without its current param table";
    } else if (HasInputs(in, 1, why)) {
      PoolingParams pp;
      pp.mode = p->mode();
      pp.pad_h = p->pad_h();
      pp.pad_w = p->pad_w();
      pp.stride_h = p->stride_h();
      pp.stride_w = p->stride_w();
      pp.window_h = p->window_h();
      pp.window_w = p->window_w();
      out = EvalPoolingInFormat(*in[0], pp, p->format(), options.exact_only, why);
    }
  } else if (key == "MatrixMul") {
    const auto* p = op.ParamAs<param::MatrixMul>(kMatrixMulParam);
    HalfOperands half;
    if (p == nullptr || p->format() != param::MatrixMulFormat_DEFAULT) {
      *why = "MatrixMul other than the default format";
    } else if (HasInputs(in, 2, why) && WidenHalfOperands(in, options, &half, why)) {
      out = EvalMatrixMul(*half.in[0], *half.in[1], p->transposeA(), p->transposeB(),
                          options.exact_only, why);
      if (half.half) RoundToHalfResult(&out);
    }
  } else if (key == "BatchNorm") {
    const auto* p = op.ParamAs<param::BN>(kBNParam);
    if (options.exact_only) {
      *why = "BatchNorm is evaluated for numerics checks only";
    } else if (p == nullptr || p->fwd_mode() != param::BNFwdMode_INFERENCE) {
      *why = "BatchNorm not in INFERENCE mode";
    } else {
      out = EvalBatchNormReference(in, p->epsilon(), why);
    }
  } else if (key == "Identity" || key == "MarkNoBroadcastElemwise" || key == "ShapeHint" ||
             key == "Copy") {
    if (!in.empty()) out = *in[0];
  } else {
    *why = "no kernel for " + op.DisplayType();
    return std::nullopt;
  }
  return out;
}

}  // namespace graphport::mge::opt
