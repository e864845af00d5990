// Property tests of the weight quantizers against tfjs-converter's formulas, written out here
// as the research notes give them (research/tfjs.md §2.5, §2.6), on seeded random values:
//   - affine (uint8, uint16): scale = (max - min) / qmax in float64; when 0 is in [min, max]
//     the range is nudged so 0 is a code: zp = round_half_even(-min / scale), nudged_min =
//     -zp * scale, nudged_max = qmax * scale + nudged_min; codes = round_half_even(
//     (clip(x, nudged_min, nudged_max) - nudged_min) / scale); all values equal: codes 0,
//     scale 1, min the value;
//   - float16: NumPy's astype(float16), IEEE round to nearest, ties to even, overflow to
//     infinity (|x| >= 65520), subnormals kept; NaN stays NaN; TF.js decodes every half
//     exactly.
// Rounding here is done another way than the code's (floor and parity, not nearbyint), so a
// quantizer that rounds ties otherwise fails; each test also counts the ties it met.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "tfjs/float16.h"
#include "tfjs/quantize.h"

namespace graphport::tfjs {
namespace {

// Round half to even, from floor: the two candidates and which is nearer, ties to the even.
double RoundHalfEven(double v, bool* tie) {
  const double below = std::floor(v);
  const double rest = v - below;  // exact for every double
  *tie = rest == 0.5;
  if (rest < 0.5) return below;
  if (rest > 0.5) return below + 1;
  return std::fmod(below, 2.0) == 0 ? below : below + 1;
}

struct ConverterAffine {
  std::vector<uint16_t> codes;
  double scale = 1, min = 0;
  bool nudged = false;
  int ties = 0;
};

ConverterAffine ConverterQuantize(const std::vector<float>& values, uint32_t qmax) {
  ConverterAffine out;
  double min = values[0], max = values[0];
  for (float v : values) {
    min = v < min ? v : min;
    max = v > max ? v : max;
  }
  out.codes.assign(values.size(), 0);
  if (min == max) {
    out.min = min;
    return out;
  }
  const double scale = (max - min) / qmax;
  double nudged_min = min, nudged_max = max;
  bool tie;
  if (min <= 0 && 0 <= max) {
    const double zero_point = RoundHalfEven((0 - min) / scale, &tie);
    out.ties += tie;
    out.nudged = true;
    nudged_min = -zero_point * scale;
    nudged_max = qmax * scale + nudged_min;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    double x = values[i];
    if (x < nudged_min) x = nudged_min;
    if (x > nudged_max) x = nudged_max;
    out.codes[i] = static_cast<uint16_t>(RoundHalfEven((x - nudged_min) / scale, &tie));
    out.ties += tie;
  }
  out.scale = scale;
  out.min = nudged_min;
  return out;
}

float FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
uint32_t BitsOf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// A finite tensor of 1-12 values of one of several kinds: spread over a random range, exact
// ties on a power-of-two step (codes k + 1/2), subnormal floats, all equal, or one sign.
std::vector<float> RandomTensor(std::mt19937_64& rng, uint32_t qmax) {
  std::uniform_int_distribution<int> count(1, 12), kind(0, 5), exponent(-40, 40);
  const size_t n = static_cast<size_t>(count(rng));
  std::vector<float> values(n);
  std::uniform_real_distribution<double> unit(-1, 1);
  switch (kind(rng)) {
    case 0: {  // a random range
      const double scale = std::ldexp(1.0, exponent(rng));
      for (float& v : values) v = static_cast<float>(unit(rng) * scale);
      break;
    }
    case 1: {  // ties: the step is a power of two, min and max on codes, values on halves
      const double step = std::ldexp(1.0, exponent(rng) / 4);
      std::uniform_int_distribution<uint32_t> code(0, qmax - 1);
      const int64_t zero = std::uniform_int_distribution<int64_t>(-3, qmax + 3)(rng);
      values.push_back(static_cast<float>(-zero * step));
      values.push_back(static_cast<float>((static_cast<int64_t>(qmax) - zero) * step));
      for (size_t i = 0; i < n; ++i) {
        values[i] = static_cast<float>((static_cast<int64_t>(code(rng)) - zero + 0.5) * step);
      }
      break;
    }
    case 2: {  // subnormal floats, with or without zero and normal neighbours
      std::uniform_int_distribution<uint32_t> mantissa(0, 0x7fffff);
      for (float& v : values) v = FromBits(mantissa(rng) | (rng() & 1 ? 0x80000000u : 0));
      if (rng() & 1) values.push_back(std::numeric_limits<float>::min());
      break;
    }
    case 3: {  // all equal
      const float v = static_cast<float>(unit(rng) * std::ldexp(1.0, exponent(rng)));
      for (float& x : values) x = v;
      break;
    }
    case 4: {  // one sign only: no nudging
      const double base = std::ldexp(1.0, exponent(rng));
      const double sign = rng() & 1 ? 1 : -1;
      for (float& v : values) v = static_cast<float>(sign * (base + std::fabs(unit(rng)) * base));
      break;
    }
    default: {  // extremes of float
      const float big = std::numeric_limits<float>::max();
      for (float& v : values) v = static_cast<float>(unit(rng) * big);
      values.push_back(rng() & 1 ? big : -big);
      break;
    }
  }
  return values;
}

TEST(QuantizePropertyTest, AffineEqualsTheConvertersFormulas) {
  std::mt19937_64 rng(36);
  int cases = 0, ties = 0, nudged = 0;
  for (int i = 0; i < 4000; ++i) {
    const uint32_t qmax = i % 2 == 0 ? 255 : 65535;
    const std::vector<float> values = RandomTensor(rng, qmax);
    const ConverterAffine want = ConverterQuantize(values, qmax);
    const AffineQuantized got = QuantizeAffine(values.data(), values.size(), qmax);
    SCOPED_TRACE("case " + std::to_string(i) + ", qmax " + std::to_string(qmax));
    ASSERT_EQ(got.codes, want.codes);
    ASSERT_EQ(got.scale, want.scale);
    ASSERT_EQ(got.min, want.min);
    for (uint16_t code : got.codes) ASSERT_LE(code, qmax);
    // 0 in the range is a code that dequantizes to 0 exactly (what the nudging is for).
    if (want.nudged) {
      const double zero_code = std::nearbyint(-got.min / got.scale);
      ASSERT_EQ(zero_code * got.scale + got.min, 0.0);
      ++nudged;
    }
    ties += want.ties;
    ++cases;
  }
  EXPECT_EQ(cases, 4000);
  EXPECT_GT(ties, 1000);  // the tie kind alone gives ~6 per tensor
  EXPECT_GT(nudged, 1000);
}

// The half nearest to `value` (double arithmetic on a float is exact here), ties to the even
// one, as NumPy's astype(float16) gives; its bits.
uint16_t ConverterHalf(float value, bool* tie) {
  *tie = false;
  const uint32_t bits = BitsOf(value);
  const uint16_t sign = (bits >> 16) & 0x8000u;
  const double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude >= 65520.0) return sign | 0x7c00u;  // past the largest half and half a step
  int exponent = magnitude == 0 ? -14 : std::ilogb(magnitude);
  if (exponent < -14) exponent = -14;  // subnormal halves share the smallest normal's step
  const double step = std::ldexp(1.0, exponent - 10);
  double units = RoundHalfEven(magnitude / step, tie);  // units of `step`, up to 2048
  if (units == 2048) {                                  // rounded up into the next binade
    ++exponent;
    units = 1024;
  }
  if (units < 1024) return static_cast<uint16_t>(sign | static_cast<uint16_t>(units));  // subnormal
  if (exponent > 15) return sign | 0x7c00u;
  return static_cast<uint16_t>(sign | ((exponent + 15) << 10) |
                               (static_cast<uint16_t>(units) - 1024));
}

TEST(QuantizePropertyTest, Float16EqualsIeeeRoundingToNearestEven) {
  std::mt19937_64 rng(2036);
  int ties = 0, subnormal_ties = 0, infinities = 0, nans = 0;
  for (int i = 0; i < 6000; ++i) {
    float value;
    switch (i % 4) {
      case 0:  // any bit pattern: every exponent, infinities; every other one a NaN
        value = FromBits(static_cast<uint32_t>(rng()));
        if (i % 8 == 0) {
          value = FromBits((BitsOf(value) & 0x80000000u) | 0x7f800000u |
                           (1 + static_cast<uint32_t>(rng() % 0x7fffffu)));
        }
        break;
      case 1: {  // a half's midpoint with its neighbour (a tie), or a float ulp off it
        const uint16_t h = static_cast<uint16_t>(rng() % 0x7bffu);
        const double mid = (static_cast<double>(HalfToFloat(h)) + HalfToFloat(h + 1)) / 2;
        value = static_cast<float>(mid);
        const int off = static_cast<int>(rng() % 3) - 1;
        if (off != 0) value = std::nextafter(value, off * std::numeric_limits<float>::infinity());
        if (rng() & 1) value = -value;
        break;
      }
      case 2: {  // the subnormal halves' range (2^-25 .. 2^-14), ties among them
        const uint32_t units = static_cast<uint32_t>(rng() % 2048);
        value = static_cast<float>(std::ldexp(units + ((rng() & 1) ? 0.5 : 0.0), -25));
        break;
      }
      default: {  // around the overflow boundary 65504 .. 65520 .. 65536
        value = static_cast<float>(65504.0 + static_cast<double>(rng() % 64) / 2);
        if (rng() & 1) value = -value;
        break;
      }
    }
    SCOPED_TRACE("value bits " + std::to_string(BitsOf(value)));
    const uint16_t got = FloatToHalf(value);
    if (std::isnan(value)) {
      ASSERT_EQ(got & 0x7c00u, 0x7c00u);  // a NaN half: exponent all ones, mantissa not 0
      ASSERT_NE(got & 0x3ffu, 0u);
      ASSERT_EQ(got & 0x8000u, (BitsOf(value) >> 16) & 0x8000u);
      ASSERT_TRUE(std::isnan(HalfToFloat(got)));
      ++nans;
      continue;
    }
    bool tie;
    const uint16_t want = ConverterHalf(value, &tie);
    ASSERT_EQ(got, want);
    ties += tie;
    subnormal_ties += tie && (want & 0x7c00u) == 0;
    infinities += (want & 0x7fffu) == 0x7c00u;
  }
  EXPECT_GT(ties, 600);
  EXPECT_GT(subnormal_ties, 250);
  EXPECT_GT(infinities, 500);
  EXPECT_GT(nans, 500);
}

// TF.js decodes each of the 65,536 halves exactly: sign, 2^(e-15) * (1 + m/1024) for a normal,
// 2^-14 * m/1024 for a subnormal, infinity, NaN with its payload moved up 13 bits. And every
// half that is a number comes back from its float unchanged.
TEST(QuantizePropertyTest, EveryHalfDecodesExactlyAndRoundTrips) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const uint16_t half = static_cast<uint16_t>(h);
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    const double sign = h & 0x8000 ? -1 : 1;
    const float got = HalfToFloat(half);
    SCOPED_TRACE("half " + std::to_string(h));
    if (exponent == 0x1f) {
      ASSERT_EQ(BitsOf(got), ((h & 0x8000u) << 16) | 0x7f800000u | (uint32_t(mantissa) << 13));
      if (mantissa != 0) continue;  // NaN: FloatToHalf keeps it a NaN, checked above
    } else if (exponent == 0) {
      ASSERT_EQ(got, sign * std::ldexp(mantissa, -24));
    } else {
      ASSERT_EQ(got, sign * std::ldexp(1024 + mantissa, exponent - 25));
    }
    ASSERT_EQ(FloatToHalf(got), half);
  }
}

}  // namespace
}  // namespace graphport::tfjs
