#include "mge/optimize/eval/layout_eval.h"

#include <algorithm>
#include <limits>

#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

// out[idx(k, c, r, s)] = w[k][c][r][s] for a filter of `shape` (OC, IC, FH, FW) whose packed
// index `packed` computes: the read-back is the inverse of the relayout.
template <typename Index>
HostValue Gather(const HostValue& w, const Shape& shape, Index packed) {
  HostValue out;
  out.dtype = w.dtype;
  out.shape = shape;
  out.f.resize(ElementCount(shape));
  size_t k = 0;
  const uint32_t d0 = shape[0], d1 = shape[1], d2 = shape[2], d3 = shape[3];
  const uint32_t d4 = shape.size() == 5 ? shape[4] : 1;
  for (uint32_t a = 0; a < d0; ++a) {
    for (uint32_t b = 0; b < d1; ++b) {
      for (uint32_t c = 0; c < d2; ++c) {
        for (uint32_t d = 0; d < d3; ++d) {
          for (uint32_t e = 0; e < d4; ++e) out.f[k++] = w.f[packed(a, b, c, d, e)];
        }
      }
    }
  }
  return out;
}

}  // namespace

HostValue UnpackFeature(const HostValue& x) {
  const uint32_t n = x.shape[0], cb = x.shape[1], h = x.shape[2], w = x.shape[3], p = x.shape[4];
  HostValue out;
  out.dtype = x.dtype;
  out.shape = {n, cb * p, h, w};
  if (x.shape_only()) return out;  // static shape inference
  out.f.resize(x.f.size());
  for (uint32_t b = 0; b < n; ++b) {
    for (uint32_t c = 0; c < cb * p; ++c) {
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t z = 0; z < w; ++z) {
          out.f[((size_t{b} * cb * p + c) * h + y) * w + z] =
              x.f[(((size_t{b} * cb + c / p) * h + y) * w + z) * p + c % p];
        }
      }
    }
  }
  return out;
}

std::optional<HostValue> PackFeature(const HostValue& x, uint32_t p, std::string* why) {
  if (x.shape.size() != 4 || x.shape[1] % p != 0 || (!x.is_float() && !x.shape_only())) {
    *why = "a packed result that is not a float NCHW tensor with channels a multiple of the pack";
    return std::nullopt;
  }
  const uint32_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  HostValue out;
  out.dtype = x.dtype;
  out.shape = {n, c / p, h, w, p};
  if (x.shape_only()) return out;
  out.f.resize(x.f.size());
  for (uint32_t b = 0; b < n; ++b) {
    for (uint32_t k = 0; k < c; ++k) {
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t z = 0; z < w; ++z) {
          out.f[(((size_t{b} * (c / p) + k / p) * h + y) * w + z) * p + k % p] =
              x.f[((size_t{b} * c + k) * h + y) * w + z];
        }
      }
    }
  }
  return out;
}

std::optional<HostValue> UnpackFilter(const HostValue& w, uint32_t p, bool group,
                                      std::string* why) {
  const Shape& s = w.shape;
  auto fail = [&]() -> std::optional<HostValue> {
    *why = "a packed filter of an unexpected shape";
    return std::nullopt;
  };
  if (!w.is_float()) return fail();
  if (!group && s.size() == 6 && s[4] == p && s[5] == p) {  // KCRSc{p}k{p}
    const uint32_t kb = s[0], cb = s[1], fh = s[2], fw = s[3];
    return Gather(
        w, {kb * p, cb * p, fh, fw}, [=](uint32_t k, uint32_t c, uint32_t r, uint32_t q, uint32_t) {
          return ((((size_t{k / p} * cb + c / p) * fh + r) * fw + q) * p + c % p) * p + k % p;
        });
  }
  if (!group && s.size() == 5 && s[4] == p) {  // KRSCk{p}
    const uint32_t kb = s[0], fh = s[1], fw = s[2], ic = s[3];
    return Gather(w, {kb * p, ic, fh, fw},
                  [=](uint32_t k, uint32_t c, uint32_t r, uint32_t q, uint32_t) {
                    return (((size_t{k / p} * fh + r) * fw + q) * ic + c) * p + k % p;
                  });
  }
  if (group && s.size() == 6 && s[1] == 1 && s[2] == 1 && s[5] == p) {  // C11RSc{p}
    const uint32_t gb = s[0], fh = s[3], fw = s[4];
    return Gather(w, {gb * p, 1, 1, fh, fw},
                  [=](uint32_t g, uint32_t, uint32_t, uint32_t r, uint32_t q) {
                    return ((size_t{g / p} * fh + r) * fw + q) * p + g % p;
                  });
  }
  if (group && s.size() == 7 && s[5] == p && s[6] == p) {  // GKCRSc{p}k{p}
    const uint32_t g = s[0], kb = s[1], cb = s[2], fh = s[3], fw = s[4];
    return Gather(
        w, {g, kb * p, cb * p, fh, fw},
        [=](uint32_t a, uint32_t k, uint32_t c, uint32_t r, uint32_t q) {
          return (((((size_t{a} * kb + k / p) * cb + c / p) * fh + r) * fw + q) * p + c % p) * p +
                 k % p;
        });
  }
  return fail();
}

std::optional<HostValue> EvalPooling(const HostValue& x, const PoolingParams& p, bool exact_only,
                                     std::string* why) {
  if (x.shape.size() != 4 || x.dtype != kF32) {
    *why = "Pooling of an operand that is not a Float32 NCHW tensor";
    return std::nullopt;
  }
  const bool max = p.mode == param::PoolingV0Mode_MAX_;
  if (!max && p.mode != param::PoolingV0Mode_AVERAGE &&
      p.mode != param::PoolingV0Mode_AVERAGE_COUNT_EXCLUDE_PADDING) {
    *why = "a Pooling mode the evaluator does not know";
    return std::nullopt;
  }
  const int64_t n = x.shape[0], c = x.shape[1], ih = x.shape[2], iw = x.shape[3];
  if (p.stride_h == 0 || p.stride_w == 0 || p.window_h == 0 || p.window_w == 0 ||
      ih + 2 * p.pad_h < p.window_h || iw + 2 * p.pad_w < p.window_w) {
    *why = "a Pooling window that does not fit";
    return std::nullopt;
  }
  if (!max && exact_only && size_t{p.window_h} * p.window_w > 2) {
    *why = "an average of more than two elements, summed in an order MegEngine does not pin down";
    return std::nullopt;
  }
  const int64_t oh = (ih + 2 * p.pad_h - p.window_h) / p.stride_h + 1;
  const int64_t ow = (iw + 2 * p.pad_w - p.window_w) / p.stride_w + 1;
  HostValue out;
  out.shape = {static_cast<uint32_t>(n), static_cast<uint32_t>(c), static_cast<uint32_t>(oh),
               static_cast<uint32_t>(ow)};
  out.f.resize(ElementCount(out.shape));
  size_t k = 0;
  for (int64_t b = 0; b < n * c; ++b) {
    const float* plane = x.f.data() + b * ih * iw;
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t z = 0; z < ow; ++z) {
        float acc = max ? -std::numeric_limits<float>::infinity() : 0.0f;
        uint32_t count = 0;
        for (int64_t r = 0; r < p.window_h; ++r) {
          for (int64_t q = 0; q < p.window_w; ++q) {
            const int64_t iy = y * p.stride_h + r - p.pad_h, ix = z * p.stride_w + q - p.pad_w;
            if (iy < 0 || ix < 0 || iy >= ih || ix >= iw) continue;
            const float v = plane[iy * iw + ix];
            acc = max ? std::max(acc, v) : acc + v;
            ++count;
          }
        }
        if (!max) {
          const uint32_t divisor =
              p.mode == param::PoolingV0Mode_AVERAGE ? p.window_h * p.window_w : count;
          acc = divisor == 0 ? 0.0f : acc / static_cast<float>(divisor);
        }
        out.f[k++] = acc;
      }
    }
  }
  return out;
}

std::optional<HostValue> ConvBiasTail(HostValue conv, const HostValue* bias, uint32_t nonline,
                                      bool approximate, std::string* why) {
  std::optional<HostValue> out = std::move(conv);
  if (bias != nullptr) {
    out = EvalElemwise(param::ElemwiseMode_ADD, {&*out, bias}, why, approximate);
    if (!out) return out;
  }
  switch (nonline) {
    case param::ConvBiasV0NonlineMode_IDENTITY:
      return out;
    case param::ConvBiasV0NonlineMode_RELU:
      return EvalElemwise(param::ElemwiseMode_RELU, {&*out}, why, approximate);
    case param::ConvBiasV0NonlineMode_SIGMOID:
      return EvalElemwise(param::ElemwiseMode_SIGMOID, {&*out}, why, approximate);
    case param::ConvBiasV0NonlineMode_H_SWISH:
      return EvalElemwise(param::ElemwiseMode_H_SWISH, {&*out}, why, approximate);
    default:
      *why = "a ConvBias nonlinearity the evaluator does not know";
      return std::nullopt;
  }
}

}  // namespace graphport::mge::opt
