// Convolution and MatrixMul: sums of products. MegEngine's kernels (im2col, BLAS) sum in an
// order that depends on the library and the machine (research megengine_optimize.md §3.2), so
// with `exact_only` a sum of more than two products is refused; without it (numerics checks)
// each output is summed left to right in float32, in the order of the inputs' axes.
#include <cstdint>

#include "mge/optimize/eval/kernels.h"

namespace graphport::mge::opt {
namespace {

bool Float32Operands(const HostValue& a, const HostValue& b, std::string* why) {
  if (a.dtype != kF32 || b.dtype != kF32 || a.shape_only() || b.shape_only()) {
    *why = "an operand that is not a float32 value";
    return false;
  }
  return true;
}

bool ExactSum(size_t terms, bool exact_only, std::string* why) {
  if (exact_only && terms > 2) {
    *why = "a sum of " + std::to_string(terms) + " products in an order MegEngine leaves open";
    return false;
  }
  return true;
}

}  // namespace

std::optional<HostValue> EvalConvolution(const HostValue& x, const HostValue& w,
                                         const ConvolutionParams& p, bool exact_only,
                                         std::string* why) {
  if (!Float32Operands(x, w, why)) return std::nullopt;
  if (x.shape.size() != 4 || w.shape.size() != (p.group ? 5u : 4u)) {
    *why = "Convolution operands that are not NCHW";
    return std::nullopt;
  }
  const uint32_t n = x.shape[0], ic = x.shape[1], ih = x.shape[2], iw = x.shape[3];
  const uint32_t groups = p.group ? w.shape[0] : 1;
  const uint32_t ocpg = w.shape[p.group ? 1 : 0], icpg = w.shape[p.group ? 2 : 1];
  const uint32_t fh = w.shape[p.group ? 3 : 2], fw = w.shape[p.group ? 4 : 3];
  const int64_t span_h = int64_t{p.dilate_h} * (fh - 1) + 1,
                span_w = int64_t{p.dilate_w} * (fw - 1) + 1;
  const int64_t padded_h = int64_t{ih} + 2 * p.pad_h, padded_w = int64_t{iw} + 2 * p.pad_w;
  if (icpg * groups != ic || p.stride_h == 0 || p.stride_w == 0 || p.dilate_h == 0 ||
      p.dilate_w == 0 || span_h > padded_h || span_w > padded_w) {
    *why = "Convolution operands whose shapes do not fit";
    return std::nullopt;
  }
  if (!ExactSum(size_t{icpg} * fh * fw, exact_only, why)) return std::nullopt;
  const uint32_t oh = static_cast<uint32_t>((padded_h - span_h) / p.stride_h + 1);
  const uint32_t ow = static_cast<uint32_t>((padded_w - span_w) / p.stride_w + 1);
  const uint32_t oc = groups * ocpg;
  HostValue out;
  out.shape = {n, oc, oh, ow};
  out.f.assign(size_t{n} * oc * oh * ow, 0.0f);
  for (uint32_t b = 0; b < n; ++b) {
    for (uint32_t o = 0; o < oc; ++o) {
      const uint32_t g = o / ocpg;
      const size_t w_base = size_t{o} * icpg * fh * fw;  // dense and group alike
      for (uint32_t y = 0; y < oh; ++y) {
        for (uint32_t z = 0; z < ow; ++z) {
          float sum = 0.0f;
          for (uint32_t c = 0; c < icpg; ++c) {
            for (uint32_t r = 0; r < fh; ++r) {
              for (uint32_t s = 0; s < fw; ++s) {
                const int64_t iy = int64_t{y} * p.stride_h + int64_t{r} * p.dilate_h - p.pad_h;
                const int64_t ix = int64_t{z} * p.stride_w + int64_t{s} * p.dilate_w - p.pad_w;
                if (iy < 0 || ix < 0 || iy >= ih || ix >= iw) continue;
                // CONVOLUTION flips the filter; CROSS_CORRELATION reads it as it is.
                const uint32_t kr = p.flip ? fh - 1 - r : r, ks = p.flip ? fw - 1 - s : s;
                const float xv = x.f[((size_t{b} * ic + g * icpg + c) * ih + iy) * iw + ix];
                const float wv = w.f[w_base + (size_t{c} * fh + kr) * fw + ks];
                const float product = xv * wv;
                sum = sum + product;
              }
            }
          }
          out.f[((size_t{b} * oc + o) * oh + y) * ow + z] = sum;
        }
      }
    }
  }
  return out;
}

std::optional<HostValue> EvalMatrixMul(const HostValue& a, const HostValue& b, bool transpose_a,
                                       bool transpose_b, bool exact_only, std::string* why) {
  if (!Float32Operands(a, b, why)) return std::nullopt;
  if (a.shape.size() != 2 || b.shape.size() != 2) {
    *why = "MatrixMul operands that are not matrices";
    return std::nullopt;
  }
  const uint32_t m = a.shape[transpose_a ? 1 : 0], k = a.shape[transpose_a ? 0 : 1];
  const uint32_t kb = b.shape[transpose_b ? 1 : 0], n = b.shape[transpose_b ? 0 : 1];
  if (k != kb) {
    *why = "MatrixMul operands whose inner dimensions differ";
    return std::nullopt;
  }
  if (!ExactSum(k, exact_only, why)) return std::nullopt;
  HostValue out;
  out.shape = {m, n};
  out.f.assign(size_t{m} * n, 0.0f);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (uint32_t t = 0; t < k; ++t) {
        const float av = transpose_a ? a.f[size_t{t} * m + i] : a.f[size_t{i} * k + t];
        const float bv = transpose_b ? b.f[size_t{j} * k + t] : b.f[size_t{t} * n + j];
        const float product = av * bv;
        sum = sum + product;
      }
      out.f[size_t{i} * n + j] = sum;
    }
  }
  return out;
}

}  // namespace graphport::mge::opt
