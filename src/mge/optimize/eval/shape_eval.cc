// TypeCvt and the operators that only move elements: Reshape, Dimshuffle, AxisAddRemove,
// Concat, Subtensor, GetVarShape (Broadcast is with Elemwise, which shares its indexing).
#include <algorithm>
#include <cmath>
#include <limits>

#include "mge/optimize/eval/half.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/schema_numbers.h"

namespace graphport::mge::opt {
namespace {

std::optional<Shape> ShapeFromValue(const HostValue& v, std::string* why) {
  if (v.shape.size() != 1 || v.is_float()) {
    *why = "a target shape that is not a vector of integers";
    return std::nullopt;
  }
  Shape out;
  for (size_t k = 0; k < v.size(); ++k) {
    int64_t d = v.AsInt(k);
    out.push_back(d < 0 ? UINT32_MAX : static_cast<uint32_t>(d));
  }
  return out;
}

std::optional<int32_t> NormalizeAxis(int32_t axis, size_t rank) {
  if (axis < 0) axis += static_cast<int32_t>(rank);
  if (axis < 0 || static_cast<size_t>(axis) >= rank) return std::nullopt;
  return axis;
}

// A copy of x with another shape and the same elements in the same order.
HostValue WithShape(const HostValue& x, Shape shape) {
  HostValue out = x;
  out.shape = std::move(shape);
  return out;
}

}  // namespace

std::optional<HostValue> EvalTypeCvt(const HostValue& x, int dtype, std::string* why) {
  if (!EvaluableDType(dtype)) {
    *why = "TypeCvt to DTypeEnum " + std::to_string(dtype);
    return std::nullopt;
  }
  HostValue out;
  out.dtype = dtype;
  out.shape = x.shape;
  const size_t n = x.size();
  if (IsFloatDType(dtype)) {
    out.f.resize(n);
    for (size_t k = 0; k < n; ++k) {
      float v = x.AsFloat(k);  // int -> float rounds to nearest, as a C++ conversion does
      out.f[k] = dtype == kF16 ? RoundToHalf(v) : v;
    }
    return out;
  }
  if (x.is_float()) {
    *why = "TypeCvt from a float to an integer dtype (MegEngine's rounding is not emulated)";
    return std::nullopt;
  }
  out.i.resize(n);
  for (size_t k = 0; k < n; ++k) {
    int64_t v = x.i[k];
    switch (dtype) {
      case kI8:
        out.i[k] = static_cast<int8_t>(v);
        break;
      case kU8:
        out.i[k] = static_cast<uint8_t>(v);
        break;
      case kI16:
        out.i[k] = static_cast<int16_t>(v);
        break;
      case kU16:
        out.i[k] = static_cast<uint16_t>(v);
        break;
      case kBool:
        out.i[k] = v != 0;
        break;
      default:
        out.i[k] = static_cast<int32_t>(v);
    }
  }
  return out;
}

std::optional<HostValue> EvalReshape(const HostValue& x, const HostValue& target, int unspec_axis,
                                     std::string* why) {
  std::optional<Shape> shape = ShapeFromValue(target, why);
  if (!shape) return std::nullopt;
  const size_t total = x.size();
  if (unspec_axis != kNoAxis) {
    std::optional<int32_t> axis = NormalizeAxis(unspec_axis, shape->size());
    if (!axis) {
      *why = "Reshape with an unspecified axis outside the target shape";
      return std::nullopt;
    }
    size_t rest = 1;
    for (size_t k = 0; k < shape->size(); ++k) {
      if (static_cast<int32_t>(k) != *axis) rest *= (*shape)[k];
    }
    if (rest == 0 || total % rest != 0) {
      *why = "Reshape whose unspecified axis does not divide the element count";
      return std::nullopt;
    }
    (*shape)[*axis] = static_cast<uint32_t>(total / rest);
  }
  if (ElementCount(*shape) != total) {
    *why = "Reshape to a shape with another element count";
    return std::nullopt;
  }
  return WithShape(x, *shape);
}

std::optional<HostValue> EvalDimshuffle(const HostValue& x, const std::vector<int32_t>& pattern,
                                        std::string* why) {
  Shape shape;
  std::vector<size_t> in_stride(x.shape.size(), 1);
  for (size_t k = x.shape.size(); k-- > 1;) in_stride[k - 1] = in_stride[k] * x.shape[k];
  std::vector<size_t> stride;
  std::vector<bool> used(x.shape.size(), false);
  for (int32_t p : pattern) {
    if (p == -1) {
      shape.push_back(1);
      stride.push_back(0);
      continue;
    }
    if (p < 0 || static_cast<size_t>(p) >= x.shape.size() || used[p]) {
      *why = "Dimshuffle pattern that is not a permutation of the input's axes";
      return std::nullopt;
    }
    used[p] = true;
    shape.push_back(x.shape[p]);
    stride.push_back(in_stride[p]);
  }
  for (size_t k = 0; k < used.size(); ++k) {
    if (!used[k] && x.shape[k] != 1) {
      *why = "Dimshuffle that drops an axis longer than 1";
      return std::nullopt;
    }
  }
  HostValue out;
  out.dtype = x.dtype;
  out.shape = shape;
  if (x.shape_only()) return out;
  const size_t n = ElementCount(shape);
  std::vector<uint32_t> coord(shape.size(), 0);
  for (size_t flat = 0; flat < n; ++flat) {
    size_t at = 0;
    for (size_t k = 0; k < shape.size(); ++k) at += coord[k] * stride[k];
    if (x.is_float()) {
      out.f.push_back(x.f[at]);
    } else {
      out.i.push_back(x.i[at]);
    }
    for (size_t k = shape.size(); k-- > 0;) {
      if (++coord[k] < shape[k]) break;
      coord[k] = 0;
    }
  }
  return out;
}

std::optional<HostValue> EvalAxisAddRemove(const HostValue& x,
                                           const std::vector<std::pair<bool, int32_t>>& descs,
                                           std::string* why) {
  Shape shape = x.shape;
  for (const auto& [remove, axis] : descs) {
    if (remove) {
      std::optional<int32_t> a = NormalizeAxis(axis, shape.size());
      if (!a || shape[*a] != 1) {
        *why = "AxisAddRemove removing an axis that is not of length 1";
        return std::nullopt;
      }
      shape.erase(shape.begin() + *a);
    } else {
      std::optional<int32_t> a = NormalizeAxis(axis, shape.size() + 1);
      if (!a) {
        *why = "AxisAddRemove adding an axis out of range";
        return std::nullopt;
      }
      shape.insert(shape.begin() + *a, 1);
    }
  }
  return WithShape(x, shape);
}

std::optional<HostValue> EvalConcat(const Inputs& in, int32_t axis, std::string* why) {
  if (in.empty()) {
    *why = "Concat of no inputs";
    return std::nullopt;
  }
  const HostValue& first = *in[0];
  std::optional<int32_t> a = NormalizeAxis(axis, first.shape.size());
  if (!a) {
    *why = "Concat axis out of range";
    return std::nullopt;
  }
  Shape shape = first.shape;
  shape[*a] = 0;
  for (const HostValue* v : in) {
    if (v->dtype != first.dtype || v->shape.size() != shape.size()) {
      *why = "Concat of inputs of different dtypes or ranks";
      return std::nullopt;
    }
    for (size_t k = 0; k < shape.size(); ++k) {
      if (static_cast<int32_t>(k) != *a && v->shape[k] != shape[k]) {
        *why = "Concat of inputs whose other axes differ";
        return std::nullopt;
      }
    }
    shape[*a] += v->shape[*a];
  }
  size_t outer = 1, inner = 1;
  for (int32_t k = 0; k < *a; ++k) outer *= shape[k];
  for (size_t k = *a + 1; k < shape.size(); ++k) inner *= shape[k];
  HostValue out;
  out.dtype = first.dtype;
  out.shape = shape;
  for (const HostValue* v : in) {
    if (v->shape_only()) return out;
  }
  for (size_t o = 0; o < outer; ++o) {
    for (const HostValue* v : in) {
      const size_t block = v->shape[*a] * inner;
      for (size_t k = o * block; k < (o + 1) * block; ++k) {
        if (v->is_float()) {
          out.f.push_back(v->f[k]);
        } else {
          out.i.push_back(v->i[k]);
        }
      }
    }
  }
  return out;
}

std::optional<HostValue> EvalSubtensor(const HostValue& x, const std::vector<SubtensorItem>& items,
                                       const Inputs& index, std::string* why) {
  const size_t rank = x.shape.size();
  // Per input axis: first element, step and count; `kept` false for an indexed axis.
  std::vector<int64_t> first(rank, 0), step(rank, 1), count(x.shape.begin(), x.shape.end());
  std::vector<bool> kept(rank, true), seen(rank, false);
  size_t next = 0;
  auto bound = [&](int64_t* out) {
    if (next >= index.size() || index[next]->size() != 1 || index[next]->shape_only()) {
      *why = "a Subtensor index that is not one known number";
      return false;
    }
    *out = index[next++]->AsInt(0);
    return true;
  };
  for (const SubtensorItem& item : items) {
    std::optional<int32_t> a = NormalizeAxis(item.axis, rank);
    if (!a || seen[*a]) {
      *why = "a Subtensor axis out of range or indexed twice";
      return std::nullopt;
    }
    seen[*a] = true;
    const int64_t n = x.shape[*a];
    int64_t begin = 0, end = n, by = 1, at = 0;
    if ((item.begin && !bound(&begin)) || (item.end && !bound(&end)) ||
        (item.step && !bound(&by)) || (item.idx && !bound(&at))) {
      return std::nullopt;
    }
    if (item.idx) {
      if (item.begin || item.end || item.step) {
        *why = "a Subtensor item with both an index and a slice";
        return std::nullopt;
      }
      if (at < 0) at += n;
      if (at < 0 || at >= n) {
        *why = "a Subtensor index outside its axis";
        return std::nullopt;
      }
      first[*a] = at;
      count[*a] = 1;
      kept[*a] = false;
      continue;
    }
    if (begin < 0) begin += n;
    if (end < 0) end += n;
    if (by <= 0 || begin < 0 || begin > n || end < 0 || end > n || begin >= end) {
      *why = "a Subtensor slice with a step below 1, a bound outside its axis or no elements";
      return std::nullopt;
    }
    first[*a] = begin;
    step[*a] = by;
    count[*a] = (end - begin + by - 1) / by;
  }
  if (next != index.size()) {
    *why = "more Subtensor index inputs than its items use";
    return std::nullopt;
  }
  HostValue out;
  out.dtype = x.dtype;
  for (size_t k = 0; k < rank; ++k) {
    if (kept[k]) out.shape.push_back(static_cast<uint32_t>(count[k]));
  }
  if (out.shape.empty()) out.shape = {1};
  if (x.shape_only()) return out;
  std::vector<int64_t> stride(rank, 1);
  for (size_t k = rank; k-- > 1;) stride[k - 1] = stride[k] * x.shape[k];
  std::vector<int64_t> at(rank, 0);  // the output element's position on each input axis
  for (size_t e = 0, total = out.size(); e < total; ++e) {
    int64_t offset = 0;
    for (size_t k = 0; k < rank; ++k) offset += (first[k] + at[k] * step[k]) * stride[k];
    if (x.is_float()) {
      out.f.push_back(x.f[offset]);
    } else {
      out.i.push_back(x.i[offset]);
    }
    for (size_t k = rank; k-- > 0;) {
      if (++at[k] < count[k]) break;
      at[k] = 0;
    }
  }
  return out;
}

std::optional<HostValue> EvalGetVarShape(const std::vector<Shape>& shapes, int32_t axis,
                                         std::string* why) {
  std::optional<Shape> shape = BroadcastShapes(shapes);
  if (shapes.empty() || !shape) {
    *why = "GetVarShape of inputs whose shapes do not broadcast";
    return std::nullopt;
  }
  std::vector<int32_t> dims(shape->begin(), shape->end());
  if (axis == kNoAxis) return HostValue::Ints({static_cast<uint32_t>(dims.size())}, dims);
  std::optional<int32_t> a = NormalizeAxis(axis, dims.size());
  if (!a) {
    *why = "GetVarShape axis out of range";
    return std::nullopt;
  }
  return HostValue::Ints({1}, {dims[*a]});
}

std::optional<HostValue> EvalReduce(const HostValue& x, uint32_t mode, int32_t axis,
                                    const HostValue* target, bool exact_only, std::string* why) {
  enum : uint32_t {
    SUM = fbs::param::ReduceMode_SUM,
    SUM_SQR = fbs::param::ReduceMode_SUM_SQR,
    PRODUCT = fbs::param::ReduceMode_PRODUCT,
    MIN_ = fbs::param::ReduceMode_MIN_,
    MAX_ = fbs::param::ReduceMode_MAX_,
    MEAN = fbs::param::ReduceMode_MEAN,
  };
  if (mode > MEAN || x.dtype == kF16) {
    *why = "Reduce mode " + std::to_string(mode) + " or dtype " + std::to_string(x.dtype);
    return std::nullopt;
  }
  // The axis to reduce: the param's, or the one axis where the target shape is 1.
  std::optional<int32_t> a;
  if (axis != std::numeric_limits<int32_t>::max()) {
    a = NormalizeAxis(axis, x.shape.size());
  } else if (target != nullptr) {
    std::optional<Shape> t = ShapeFromValue(*target, why);
    if (!t) return std::nullopt;
    if (t->size() != x.shape.size()) {
      *why = "Reduce to a target shape of another rank";
      return std::nullopt;
    }
    int differing = 0;
    for (size_t k = 0; k < t->size(); ++k) {
      if ((*t)[k] == x.shape[k]) continue;
      if ((*t)[k] != 1) {
        *why = "Reduce to a target shape that is not the input's with axes of 1";
        return std::nullopt;
      }
      a = static_cast<int32_t>(k);
      ++differing;
    }
    if (differing == 0) return x;
    if (differing > 1) {
      *why = "Reduce over several axes at once";
      return std::nullopt;
    }
  }
  if (!a) {
    *why = "Reduce without an axis or target shape";
    return std::nullopt;
  }
  size_t outer = 1, inner = 1;
  const size_t n = x.shape[*a];
  for (int32_t k = 0; k < *a; ++k) outer *= x.shape[k];
  for (size_t k = *a + 1; k < x.shape.size(); ++k) inner *= x.shape[k];
  const bool order_matters = mode == SUM || mode == SUM_SQR || mode == MEAN || mode == PRODUCT;
  if (x.is_float() && order_matters && n > 2 && exact_only) {
    *why = "float Reduce over more than two elements (MegEngine's summation order is not pinned)";
    return std::nullopt;
  }
  if (n == 0) {
    *why = "Reduce over an empty axis";
    return std::nullopt;
  }
  HostValue out;
  out.dtype = x.dtype;
  out.shape = x.shape;
  out.shape[*a] = 1;
  if (x.shape_only()) return out;
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      auto at = [&](size_t k) { return (o * n + k) * inner + i; };
      if (x.is_float()) {
        float acc = x.f[at(0)];
        if (mode == SUM_SQR) acc = acc * acc;
        for (size_t k = 1; k < n; ++k) {
          float e = x.f[at(k)];
          switch (mode) {
            case SUM_SQR:
              acc += e * e;
              break;
            case PRODUCT:
              acc *= e;
              break;
            case MIN_:
              acc = std::min(acc, e);
              break;
            case MAX_:
              acc = std::max(acc, e);
              break;
            default:
              acc += e;
          }
        }
        if (mode == MEAN) acc /= static_cast<float>(n);
        out.f.push_back(acc);
      } else {
        int64_t acc = x.i[at(0)];
        if (mode == SUM_SQR) acc *= acc;
        for (size_t k = 1; k < n; ++k) {
          int64_t e = x.i[at(k)];
          if (mode == SUM || mode == MEAN) acc += e;
          if (mode == SUM_SQR) acc += e * e;
          if (mode == PRODUCT) acc *= e;
          if (mode == MIN_) acc = std::min(acc, e);
          if (mode == MAX_) acc = std::max(acc, e);
        }
        if (mode == MEAN) acc /= static_cast<int64_t>(n);
        out.i.push_back(static_cast<int32_t>(acc));
      }
    }
  }
  return out;
}

std::optional<HostValue> EvalAdaptivePooling(const HostValue& x, const HostValue& target, bool max,
                                             bool exact_only, std::string* why) {
  if (x.shape.size() != 4 || target.size() != 2 || !x.is_float() || x.dtype == kF16) {
    *why = "AdaptivePooling of other than a 4-d float32 input to a 2-element shape";
    return std::nullopt;
  }
  const int64_t oh = target.AsInt(0), ow = target.AsInt(1);
  const int64_t ih = x.shape[2], iw = x.shape[3];
  if (oh <= 0 || ow <= 0 || oh > ih || ow > iw) {
    *why = "AdaptivePooling to a shape larger than its input";
    return std::nullopt;
  }
  const int64_t sh = ih / oh, sw = iw / ow;
  const int64_t wh = ih - (oh - 1) * sh, ww = iw - (ow - 1) * sw;
  HostValue out;
  out.dtype = x.dtype;
  out.shape = {x.shape[0], x.shape[1], static_cast<uint32_t>(oh), static_cast<uint32_t>(ow)};
  if (x.shape_only()) return out;
  if (!max && exact_only && wh * ww > 2) {
    *why = "AdaptivePooling AVERAGE over more than two elements (summation order)";
    return std::nullopt;
  }
  out.f.resize(out.size());
  size_t k = 0;
  for (uint32_t n = 0; n < x.shape[0]; ++n) {
    for (uint32_t c = 0; c < x.shape[1]; ++c) {
      const float* plane = x.f.data() + (static_cast<size_t>(n) * x.shape[1] + c) * ih * iw;
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t z = 0; z < ow; ++z) {
          float acc = max ? plane[y * sh * iw + z * sw] : 0.0f;
          for (int64_t a = 0; a < wh; ++a) {
            for (int64_t b = 0; b < ww; ++b) {
              const float v = plane[(y * sh + a) * iw + z * sw + b];
              acc = max ? std::max(acc, v) : acc + v;
            }
          }
          out.f[k++] = max ? acc : acc / static_cast<float>(wh * ww);
        }
      }
    }
  }
  return out;
}

}  // namespace graphport::mge::opt
