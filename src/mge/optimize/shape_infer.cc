// Static shapes per operator class, and MegEngine's CONST / MUTABLE rules: a value is CONST
// when every input value is (sources: ImmutableTensor), GetVarShape's when every input shape
// is; a shape is CONST unless it follows a Host2DeviceCopy, Reshape's and Broadcast's follow
// their target's value.
#include "mge/optimize/shape_infer.h"

#include <string_view>

#include "mge/optimize/eval/graph_eval.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/cpp_opr_params_generated.h"
#include "mge/schema/dtype_generated.h"
#include "mge/schema/mgb_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

bool IsSource(std::string_view key) {
  return key == "ImmutableTensor" || key == "SharedDeviceTensor" ||
         key == "MultipleDeviceTensorHolder" || key == "Host2DeviceCopy" ||
         key == "SharedDeviceTensorWithFormat" || key == "MultipleDeviceTensorWithFormatHolder";
}

// Operators whose output is their first input's value (and shape).
bool Forwards(std::string_view key) {
  return key == "Identity" || key == "MarkNoBroadcastElemwise" || key == "ShapeHint" ||
         key == "Copy";
}

// The output shape of a shape operator from its inputs' shapes (and constant targets): its
// kernel run on placeholders that carry shapes only.
std::optional<Shape> ShapeFromKernel(const OptGraph& g, const OptNode& n) {
  const std::string_view key = n.cls()->key;
  std::vector<HostValue> values;
  values.reserve(n.inputs.size());
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    const OptVar& in = g.var(n.inputs[k]);
    const bool target =
        ((key == "Reshape" || key == "Broadcast" || key == "Reduce" || key == "AdaptivePooling") &&
         k == 1) ||
        (key == "Subtensor" && k >= 1);  // its bounds decide the shape
    if (target) {
      // The target shape's value: computable when it is constant or shape arithmetic.
      GraphEvaluator eval(g, EvalOptions{});
      std::string why;
      std::optional<HostValue> v = eval.Value(n.inputs[k], &why);
      if (!v) return std::nullopt;
      values.push_back(std::move(*v));
      continue;
    }
    if (!in.shape) return std::nullopt;
    HostValue v;
    v.dtype = in.dtype && EvaluableDType(*in.dtype) ? *in.dtype : kF32;
    v.shape = *in.shape;
    values.push_back(std::move(v));
  }
  std::vector<const HostValue*> in;
  for (const HostValue& v : values) in.push_back(&v);
  std::string why;
  std::optional<HostValue> out = EvalOperator(n.op(), in, EvalOptions{false}, &why);
  if (!out) return std::nullopt;
  return out->shape;
}

// Convolution in NCHW (dense weights OC,IC,FH,FW; group weights G,OCPG,ICPG,FH,FW): the
// output is (N, OC, (H + 2 pad - (dilate (FH - 1) + 1)) / stride + 1, same for W).
template <typename Param>
std::optional<Shape> ConvShape(const OptGraph& g, const OptNode& n, const Param* p) {
  const std::optional<Shape>& x = g.var(n.inputs[0]).shape;
  const std::optional<Shape>& w = g.var(n.inputs[1]).shape;
  const bool group = p->sparse() == param::ConvolutionV0Sparse_GROUP;
  if (p->format() != param::ConvolutionFormat_NCHW || !x || !w || x->size() != 4 ||
      w->size() != (group ? 5u : 4u) || p->stride_h() == 0 || p->stride_w() == 0) {
    return std::nullopt;
  }
  const size_t fh = (*w)[w->size() - 2], fw = (*w)[w->size() - 1];
  const uint32_t oc = group ? (*w)[0] * (*w)[1] : (*w)[0];
  auto out = [](int64_t in, int64_t pad, int64_t dilate, int64_t f,
                int64_t stride) -> std::optional<uint32_t> {
    int64_t span = in + 2 * pad - (dilate * (f - 1) + 1);
    if (span < 0) return std::nullopt;
    return static_cast<uint32_t>(span / stride + 1);
  };
  std::optional<uint32_t> oh = out((*x)[2], p->pad_h(), p->dilate_h(), fh, p->stride_h());
  std::optional<uint32_t> ow = out((*x)[3], p->pad_w(), p->dilate_w(), fw, p->stride_w());
  if (!oh || !ow) return std::nullopt;
  return Shape{(*x)[0], oc, *oh, *ow};
}

// Convolution and ConvBias in NCHW: (N, OC, OH, OW) from the input, the weight and the params.
std::optional<Shape> ConvolutionShape(const OptGraph& g, const OptNode& n) {
  if (n.inputs.size() < 2 || n.op().params.empty() || n.op().params[0].table == nullptr) {
    return std::nullopt;
  }
  const Param& first = n.op().params[0];
  if (first.type == kConvolutionParam && n.inputs.size() == 2) {
    return ConvShape(g, n, reinterpret_cast<const param::Convolution*>(first.table));
  }
  if (first.type == kConvBiasParam && n.inputs.size() <= 4) {
    return ConvShape(g, n, reinterpret_cast<const param::ConvBias*>(first.table));
  }
  return std::nullopt;
}

// Pooling in NCHW: (N, C, (H + 2 pad - window) / stride + 1, same for W). The layout pass
// reads it to tell the convolutions after a pooling.
std::optional<Shape> PoolingShape(const OptGraph& g, const OptNode& n) {
  if (n.inputs.size() != 1 || n.op().params.empty() ||
      n.op().params[0].type != fbs::OperatorParam_param_Pooling ||
      n.op().params[0].table == nullptr) {
    return std::nullopt;
  }
  const auto* p = reinterpret_cast<const param::Pooling*>(n.op().params[0].table);
  const std::optional<Shape>& x = g.var(n.inputs[0]).shape;
  if (p->format() != param::ConvolutionFormat_NCHW || !x || x->size() != 4 || p->stride_h() == 0 ||
      p->stride_w() == 0) {
    return std::nullopt;
  }
  const int64_t h = int64_t{(*x)[2]} + 2 * p->pad_h() - p->window_h();
  const int64_t w = int64_t{(*x)[3]} + 2 * p->pad_w() - p->window_w();
  if (h < 0 || w < 0) return std::nullopt;
  return Shape{(*x)[0], (*x)[1], static_cast<uint32_t>(h / p->stride_h() + 1),
               static_cast<uint32_t>(w / p->stride_w() + 1)};
}

// MatrixMul of two matrices: (M, N) from A (M, K) and B (K, N), either transposed.
std::optional<Shape> MatrixMulShape(const OptGraph& g, const OptNode& n) {
  if (n.inputs.size() != 2 || n.op().params.empty() || n.op().params[0].type != kMatrixMulParam ||
      n.op().params[0].table == nullptr) {
    return std::nullopt;
  }
  const auto* p = reinterpret_cast<const param::MatrixMul*>(n.op().params[0].table);
  const std::optional<Shape>& a = g.var(n.inputs[0]).shape;
  const std::optional<Shape>& b = g.var(n.inputs[1]).shape;
  if (p->format() != param::MatrixMulFormat_DEFAULT || !a || !b || a->size() != 2 ||
      b->size() != 2 || (*a)[p->transposeA() ? 0 : 1] != (*b)[p->transposeB() ? 1 : 0]) {
    return std::nullopt;
  }
  return Shape{(*a)[p->transposeA() ? 1 : 0], (*b)[p->transposeB() ? 0 : 1]};
}

// An output's shape: an input's own when it is one (what nearly every operator a pass copies
// has), else the graph's copy of the one computed.
VarShape InferShape(const OptGraph& g, const OptNode& n, uint32_t output) {
  if (n.cls() == nullptr) return VarShape();
  const std::string_view key = n.cls()->key;
  const bool elemwise = n.elemwise_mode().has_value();
  if (!elemwise && IsSource(key)) {
    if (output < n.op().tensors.size()) return g.InternShape(n.op().tensors[output].shape);
    return VarShape();
  }
  if (!elemwise && Forwards(key) && !n.inputs.empty()) return g.var(n.inputs[0]).shape;
  if (!elemwise && key == "BatchNorm") {  // y, the last output, has x's shape
    if (output + 1 == n.outputs.size() && !n.inputs.empty()) return g.var(n.inputs[0]).shape;
    return VarShape();
  }
  if (output != 0) return VarShape();
  if (elemwise || key == "Elemwise" || key == "PowC" || key == "TypeCvt") {
    // Inputs of one shape (most operators a pass copies) broadcast to it: no list built.
    const VarShape* same = nullptr;
    for (const VarRef& r : n.inputs) {
      const VarShape& shape = g.var(r).shape;
      if (!shape) return VarShape();
      if (same == nullptr) {
        same = &shape;
      } else if (shape != *same) {
        same = nullptr;
        break;
      }
    }
    if (same != nullptr) return *same;
    std::vector<Shape> shapes;
    for (const VarRef& r : n.inputs) {
      if (!g.var(r).shape) return VarShape();
      shapes.push_back(*g.var(r).shape);
    }
    return g.InternShape(BroadcastShapes(shapes));
  }
  if (key == "Convolution" || key == "ConvBiasForward") {
    return g.InternShape(ConvolutionShape(g, n));
  }
  if ((key == "ConvolutionBackwardFilter" || key == "ConvolutionBackwardData") &&
      n.inputs.size() == 3) {
    return g.var(n.inputs[2]).shape;  // the third input gives the shape (make_identity)
  }
  if (key == "MatrixMul") return g.InternShape(MatrixMulShape(g, n));
  if (key == "Pooling") return g.InternShape(PoolingShape(g, n));
  if (key == "Reshape" || key == "Broadcast" || key == "Dimshuffle" || key == "AxisAddRemove" ||
      key == "Concat" || key == "GetVarShape" || key == "Reduce" || key == "AdaptivePooling" ||
      key == "Subtensor") {
    return g.InternShape(ShapeFromKernel(g, n));
  }
  return VarShape();
}

std::optional<int> InferDType(const OptGraph& g, const OptNode& n, uint32_t output) {
  if (n.cls() == nullptr) return std::nullopt;
  const std::string_view key = n.cls()->key;
  if (IsSource(key)) {
    if (output < n.op().tensors.size() && n.op().tensors[output].dtype) {
      return n.op().tensors[output].dtype->type;
    }
    return kF32;
  }
  if (key == "GetVarShape") return kI32;
  if (key == "TypeCvt" && !n.op().params.empty() && n.op().params[0].table != nullptr) {
    return reinterpret_cast<const mgb::serialization::fbs::DType*>(n.op().params[0].table)->type();
  }
  if (n.inputs.empty()) return std::nullopt;
  if (key == "BatchNorm" && output + 1 != n.outputs.size()) return std::nullopt;
  return g.var(n.inputs[0]).dtype;
}

}  // namespace

void InferStatic(const OptGraph& g, OptNode* n) {
  const std::string_view key = n->cls() == nullptr ? std::string_view() : n->cls()->key;
  if (n->elemwise_mode()) {
    // Most operators a pass makes or copies: what is told of them without the class tests.
    bool values = !n->inputs.empty();
    bool shapes = true;
    for (const VarRef& r : n->inputs) {
      const OptNode& in = g.node(r.node);
      values = values && in.value_const;
      shapes = shapes && in.shape_const;
    }
    n->value_const = values;
    n->shape_const = shapes || values;
  } else if (key == "ImmutableTensor") {
    n->value_const = true;
    n->shape_const = true;
  } else if (IsSource(key)) {
    n->value_const = false;
    n->shape_const = key != "Host2DeviceCopy";
  } else {
    bool values = !n->inputs.empty() && n->cls() != nullptr;
    bool shapes = n->cls() != nullptr;
    // Broadcast's output shape is its target's value; Reshape's too, unless an axis is left
    // to be worked out from the input's size.
    const bool target_only =
        key == "Broadcast" || (key == "Reshape" && OptionalAxisOf(n->op()) == kNoAxis);
    for (size_t k = 0; k < n->inputs.size(); ++k) {
      const OptNode& in = g.node(n->inputs[k].node);
      values = values && in.value_const;
      if ((key == "Reshape" || key == "Broadcast") && k == 1) {
        shapes = shapes && in.value_const;
      } else if (!(target_only && k == 0)) {
        shapes = shapes && in.shape_const;
      }
    }
    if (key == "GetVarShape") {
      values = !n->inputs.empty();
      for (const VarRef& r : n->inputs) values = values && g.node(r.node).shape_const;
      // Its shape is inferred from its inputs' shapes (DepType::SHAPE): as constant as they.
      shapes = values;
    }
    n->value_const = values;
    n->shape_const = shapes || values;
  }
  for (uint32_t k = 0; k < n->outputs.size(); ++k) {
    OptVar& v = n->outputs[k];
    if (const VarShape s = InferShape(g, *n, k)) v.shape = s;
    if (!v.shape && v.middle().shape) v.shape = g.InternShape(v.middle().shape);
    if (!v.dtype) v.dtype = InferDType(g, *n, k);
  }
}

}  // namespace graphport::mge::opt
