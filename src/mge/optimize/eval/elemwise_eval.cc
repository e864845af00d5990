// Elemwise and PowC on the host, element by element in float32 (or in the integer dtype).
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "mge/optimize/eval/half.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/schema_numbers.h"

namespace graphport::mge::opt {
namespace {

// The Elemwise modes the evaluator computes, under MegEngine's names.
enum : uint32_t {
  RELU = fbs::param::ElemwiseMode_RELU,
  ABS = fbs::param::ElemwiseMode_ABS,
  CEIL = fbs::param::ElemwiseMode_CEIL,
  EXP = fbs::param::ElemwiseMode_EXP,
  FLOOR = fbs::param::ElemwiseMode_FLOOR,
  LOG = fbs::param::ElemwiseMode_LOG,
  NEGATE = fbs::param::ElemwiseMode_NEGATE,
  SIGMOID = fbs::param::ElemwiseMode_SIGMOID,
  TANH = fbs::param::ElemwiseMode_TANH,
  ADD = fbs::param::ElemwiseMode_ADD,
  FLOOR_DIV = fbs::param::ElemwiseMode_FLOOR_DIV,
  MAX_ = fbs::param::ElemwiseMode_MAX_,
  MIN_ = fbs::param::ElemwiseMode_MIN_,
  MOD = fbs::param::ElemwiseMode_MOD,
  MUL = fbs::param::ElemwiseMode_MUL,
  POW = fbs::param::ElemwiseMode_POW,
  SUB = fbs::param::ElemwiseMode_SUB,
  SWITCH_GT0 = fbs::param::ElemwiseMode_SWITCH_GT0,
  TRUE_DIV = fbs::param::ElemwiseMode_TRUE_DIV,
  LT = fbs::param::ElemwiseMode_LT,
  LEQ = fbs::param::ElemwiseMode_LEQ,
  EQ = fbs::param::ElemwiseMode_EQ,
  FUSE_MUL_ADD3 = fbs::param::ElemwiseMode_FUSE_MUL_ADD3,
  FUSE_MUL_ADD4 = fbs::param::ElemwiseMode_FUSE_MUL_ADD4,
  FUSE_ADD_RELU = fbs::param::ElemwiseMode_FUSE_ADD_RELU,
  FUSE_ADD_SIGMOID = fbs::param::ElemwiseMode_FUSE_ADD_SIGMOID,
  FUSE_ADD_TANH = fbs::param::ElemwiseMode_FUSE_ADD_TANH,
  H_SWISH = fbs::param::ElemwiseMode_H_SWISH,
  FUSE_ADD_H_SWISH = fbs::param::ElemwiseMode_FUSE_ADD_H_SWISH,
  CLIP = fbs::param::ElemwiseMode_CLIP,
  RELU6 = fbs::param::ElemwiseMode_RELU6,
  SQRT = fbs::param::ElemwiseMode_SQRT,
  SQUARE = fbs::param::ElemwiseMode_SQUARE,
  SIGN = fbs::param::ElemwiseMode_SIGN,
};

size_t InputCount(uint32_t mode) {
  switch (mode) {
    case RELU:
    case ABS:
    case CEIL:
    case EXP:
    case FLOOR:
    case LOG:
    case NEGATE:
    case SIGMOID:
    case TANH:
    case H_SWISH:
    case RELU6:
    case SQRT:
    case SQUARE:
    case SIGN:
      return 1;
    case FUSE_MUL_ADD3:
    case CLIP:
      return 3;
    case FUSE_MUL_ADD4:
      return 4;
    default:
      return 2;
  }
}

// The modes computed by the same formula in float32 and in integers, as MegEngine's kernels
// compute them: nullopt for another mode.
template <typename T>
std::optional<T> SameFormulaOp(uint32_t mode, const T* a) {
  switch (mode) {
    case RELU:
      return a[0] > 0 ? a[0] : T(0);
    case NEGATE:
      return -a[0];
    case SQUARE:
      return a[0] * a[0];
    case SIGN:
      return a[0] > 0 ? T(1) : a[0] < 0 ? T(-1) : T(0);
    case ADD:
      return a[0] + a[1];
    case SUB:
      return a[0] - a[1];
    case MUL:
      return a[0] * a[1];
    case MAX_:
      return std::max(a[0], a[1]);
    case MIN_:
      return std::min(a[0], a[1]);
    case SWITCH_GT0:
      return a[0] > 0 ? a[1] : T(0);
    case LT:
      return a[0] < a[1] ? T(1) : T(0);
    case LEQ:
      return a[0] <= a[1] ? T(1) : T(0);
    case EQ:
      return a[0] == a[1] ? T(1) : T(0);
    case FUSE_ADD_RELU: {
      const T s = a[0] + a[1];
      return s > 0 ? s : T(0);
    }
    case FUSE_MUL_ADD3: {
      const T p = a[0] * a[1];  // rounded before the add, as MegEngine's x86 kernel does
      return p + a[2];
    }
    case CLIP:
      return std::min(std::max(a[0], a[1]), a[2]);
    default:
      return std::nullopt;
  }
}

// Modes whose float32 result is one correctly rounded operation per step (or exact), or
// glibc's powf as MegEngine's fallback kernel calls it. Transcendentals (EXP, LOG, TANH,
// SIGMOID, ...) are left out: MegEngine's SIMD kernels approximate some of them.
std::optional<float> FloatOp(uint32_t mode, const float* a) {
  switch (mode) {
    case ABS:
      return std::fabs(a[0]);
    case CEIL:
      return std::ceil(a[0]);
    case FLOOR:
      return std::floor(a[0]);
    case RELU6:
      return std::min(std::max(a[0], 0.0f), 6.0f);
    case SQRT:
      return std::sqrt(a[0]);
    case TRUE_DIV:
      return a[0] / a[1];
    case FLOOR_DIV:
      return std::floor(a[0] / a[1]);
    case POW:
      return std::pow(a[0], a[1]);
    case FUSE_MUL_ADD4: {
      float p = a[0] * a[1];
      float q = a[2] * a[3];
      return p + q;
    }
    default:
      return SameFormulaOp(mode, a);
  }
}

// The transcendental modes FloatOp leaves out, by the C library: close to MegEngine's
// kernels, not bit for bit, so for numerics checks only.
std::optional<float> ApproximateFloatOp(uint32_t mode, const float* a) {
  auto sigmoid = [](float x) { return 1.0f / (1.0f + std::exp(-x)); };
  auto h_swish = [](float x) { return x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f; };
  switch (mode) {
    case EXP:
      return std::exp(a[0]);
    case LOG:
      return std::log(a[0]);
    case SIGMOID:
      return sigmoid(a[0]);
    case TANH:
      return std::tanh(a[0]);
    case H_SWISH:
      return h_swish(a[0]);
    case FUSE_ADD_SIGMOID:
      return sigmoid(a[0] + a[1]);
    case FUSE_ADD_TANH:
      return std::tanh(a[0] + a[1]);
    case FUSE_ADD_H_SWISH:
      return h_swish(a[0] + a[1]);
    default:
      return std::nullopt;
  }
}

int64_t FloorDiv(int64_t x, int64_t y) {
  int64_t q = x / y;
  return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
}

std::optional<int64_t> IntOp(uint32_t mode, const int64_t* a) {
  switch (mode) {
    case ABS:
      return a[0] < 0 ? -a[0] : a[0];
    case FLOOR_DIV:
      if (a[1] == 0) return std::nullopt;
      return FloorDiv(a[0], a[1]);
    case MOD:
      if (a[1] == 0) return std::nullopt;
      return a[0] % a[1];
    default:
      return SameFormulaOp(mode, a);
  }
}

// An integer result wrapped to the dtype's width, as the C++ kernels store it.
int32_t WrapTo(int dtype, int64_t v) {
  switch (dtype) {
    case kI8:
      return static_cast<int8_t>(v);
    case kU8:
    case kBool:
      return static_cast<uint8_t>(v);
    case kI16:
      return static_cast<int16_t>(v);
    case kU16:
      return static_cast<uint16_t>(v);
    default:
      return static_cast<int32_t>(v);
  }
}

// For each output element, the index into an input of `in_shape` broadcast to `out`.
std::vector<size_t> BroadcastIndices(const Shape& in_shape, const Shape& out) {
  const size_t n = ElementCount(out);
  std::vector<size_t> index(n, 0);
  const size_t rank = out.size();
  std::vector<size_t> stride(rank, 0);
  size_t s = 1;
  for (size_t k = in_shape.size(); k-- > 0;) {
    size_t axis = rank - in_shape.size() + k;
    stride[axis] = in_shape[k] == 1 ? 0 : s;
    s *= in_shape[k];
  }
  std::vector<uint32_t> coord(rank, 0);
  size_t at = 0;
  for (size_t flat = 0; flat < n; ++flat) {
    index[flat] = at;
    for (size_t axis = rank; axis-- > 0;) {
      at += stride[axis];
      if (++coord[axis] < out[axis]) break;
      at -= stride[axis] * coord[axis];
      coord[axis] = 0;
    }
  }
  return index;
}

}  // namespace

std::optional<Shape> BroadcastShapes(const std::vector<Shape>& shapes) {
  size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  for (const Shape& s : shapes) {
    for (size_t k = 0; k < s.size(); ++k) {
      uint32_t& d = out[rank - s.size() + k];
      if (s[k] == d || s[k] == 1) continue;
      if (d != 1) return std::nullopt;
      d = s[k];
    }
  }
  return out;
}

std::optional<HostValue> EvalElemwise(uint32_t mode, const Inputs& in, std::string* why,
                                      bool approximate) {
  if (in.size() != InputCount(mode)) {
    *why =
        "Elemwise mode " + std::to_string(mode) + " with " + std::to_string(in.size()) + " inputs";
    return std::nullopt;
  }
  const int dtype = in[0]->dtype;
  std::vector<Shape> shapes;
  for (const HostValue* v : in) {
    if (v->dtype != dtype) {
      *why = "Elemwise inputs of different dtypes";
      return std::nullopt;
    }
    shapes.push_back(v->shape);
  }
  if (dtype == kF16 && !approximate) {
    *why = "Elemwise on Float16 (MegEngine's half arithmetic is not emulated)";
    return std::nullopt;
  }
  std::optional<Shape> out_shape = BroadcastShapes(shapes);
  if (!out_shape) {
    *why = "Elemwise inputs whose shapes do not broadcast";
    return std::nullopt;
  }
  std::vector<std::vector<size_t>> index;
  for (const HostValue* v : in) index.push_back(BroadcastIndices(v->shape, *out_shape));
  const size_t n = ElementCount(*out_shape);
  HostValue out;
  out.dtype = dtype;
  out.shape = *out_shape;
  if (IsFloatDType(dtype)) {
    out.f.resize(n);
    float args[4];
    for (size_t k = 0; k < n; ++k) {
      for (size_t j = 0; j < in.size(); ++j) args[j] = in[j]->f[index[j][k]];
      std::optional<float> r = FloatOp(mode, args);
      if (!r && approximate) r = ApproximateFloatOp(mode, args);
      if (!r) {
        *why = "Elemwise mode " + std::to_string(mode) + " on Float32";
        return std::nullopt;
      }
      out.f[k] = dtype == kF16 ? RoundToHalf(*r) : *r;
    }
  } else {
    out.i.resize(n);
    int64_t args[4];
    for (size_t k = 0; k < n; ++k) {
      for (size_t j = 0; j < in.size(); ++j) args[j] = in[j]->i[index[j][k]];
      std::optional<int64_t> r = IntOp(mode, args);
      if (!r) {
        *why = "Elemwise mode " + std::to_string(mode) + " on an integer dtype";
        return std::nullopt;
      }
      out.i[k] = WrapTo(dtype, *r);
    }
  }
  return out;
}

std::optional<HostValue> EvalBroadcast(const HostValue& x, const HostValue& target,
                                       std::string* why) {
  Shape shape;
  for (size_t k = 0; k < target.size(); ++k) {
    int64_t d = target.AsInt(k);
    if (d < 0 || d > UINT32_MAX) {
      *why = "Broadcast to a negative dimension";
      return std::nullopt;
    }
    shape.push_back(static_cast<uint32_t>(d));
  }
  std::optional<Shape> joint = BroadcastShapes({x.shape, shape});
  if (!joint || *joint != shape) {
    *why = "Broadcast to a shape the input does not broadcast to";
    return std::nullopt;
  }
  HostValue out;
  out.dtype = x.dtype;
  out.shape = shape;
  if (x.shape_only()) return out;
  for (size_t k : BroadcastIndices(x.shape, shape)) {
    if (x.is_float()) {
      out.f.push_back(x.f[k]);
    } else {
      out.i.push_back(x.i[k]);
    }
  }
  return out;
}

std::optional<HostValue> EvalBatchNormReference(const Inputs& in, double eps, std::string* why) {
  if (in.size() != 5) {
    *why = "BatchNorm without its five inputs";
    return std::nullopt;
  }
  std::vector<Shape> shapes;
  for (const HostValue* v : in) {
    if (v->dtype != kF32) {
      *why = "BatchNorm on a dtype other than Float32";
      return std::nullopt;
    }
    shapes.push_back(v->shape);
  }
  std::optional<Shape> shape = BroadcastShapes(shapes);
  if (!shape || *shape != in[0]->shape) {
    *why = "BatchNorm params that do not broadcast to its input";
    return std::nullopt;
  }
  std::vector<std::vector<size_t>> index;
  for (const HostValue* v : in) index.push_back(BroadcastIndices(v->shape, *shape));
  HostValue out = *in[0];
  for (size_t k = 0; k < out.f.size(); ++k) {
    auto at = [&](size_t j) { return static_cast<double>(in[j]->f[index[j][k]]); };
    out.f[k] = static_cast<float>((at(0) - at(3)) / std::sqrt(at(4) + eps) * at(1) + at(2));
  }
  return out;
}

std::optional<HostValue> EvalPowC(const HostValue& x, float exp, std::string* why) {
  if (x.dtype != kF32) {
    *why = "PowC on a dtype other than Float32";
    return std::nullopt;
  }
  HostValue out = x;
  const float rounded = std::round(exp);
  const bool integer = std::fabs(rounded - exp) < FLT_EPSILON;
  auto near = [&](float v) { return std::fabs(exp - v) < FLT_EPSILON; };
  for (float& v : out.f) {
    if (integer && std::fabs(rounded) <= 4) {
      const int n = static_cast<int>(rounded);
      const float b = n < 0 ? 1.0f / v : v;
      switch (n < 0 ? -n : n) {
        case 0:
          v = 1.0f;
          break;
        case 1:
          v = b;
          break;
        case 2:
          v = b * b;
          break;
        case 3:
          v = b * b * b;
          break;
        default: {
          const float sq = b * b;
          v = sq * sq;
        }
      }
    } else if (integer) {
      // powf of |x| with the sign of x restored for odd exponents.
      const int64_t n = static_cast<int64_t>(rounded);
      const float r = std::pow(std::fabs(v), rounded);
      v = (n % 2 != 0 && v < 0) ? -r : r;
    } else if (near(0.5f)) {
      v = std::sqrt(v);
    } else if (near(1.0f / 3)) {
      v = std::cbrt(v);
    } else if (near(-0.5f)) {
      v = std::sqrt(1.0f / v);
    } else if (near(-1.0f / 3)) {
      v = std::cbrt(1.0f / v);
    } else {
      v = std::pow(std::fabs(v), exp);
    }
  }
  return out;
}

}  // namespace graphport::mge::opt
