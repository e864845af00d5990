#include "proto/text_real.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace graphport::proto {
namespace {

using Wide = unsigned __int128;

constexpr int kFloatDigits = 6;        // FLT_DIG
constexpr int kFloatMoreDigits = 9;    // FLT_DIG + 3
constexpr int kDoubleDigits = 15;      // DBL_DIG
constexpr int kDoubleMoreDigits = 17;  // DBL_DIG + 2
constexpr int kMaxPow5 = 54;           // 5^54 < 2^126

struct Powers {
  Wide pow5[kMaxPow5 + 1];
  int pow5_bits[kMaxPow5 + 1];
  uint64_t pow10[20];
  Powers() {
    Wide p = 1;
    for (int k = 0; k <= kMaxPow5; ++k) {
      pow5[k] = p;
      int bits = 0;
      for (Wide q = p; q != 0; q >>= 1) ++bits;
      pow5_bits[k] = bits;
      p *= 5;
    }
    uint64_t t = 1;
    for (int k = 0; k < 20; ++k, t *= 10) pow10[k] = t;
  }
};
const Powers kPowers;

char* WriteWhole(int64_t value, char* w) {
  uint64_t u = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  if (value < 0) *w++ = '-';
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  while (n > 0) *w++ = digits[--n];
  return w;
}

// "%.<precision>g" of the decimal `digits` x 10^(exponent - precision + 1), where `digits` has
// exactly `precision` digits: fixed or scientific as %g chooses, trailing zeros dropped.
char* WriteG(bool negative, uint64_t digits, int precision, int exponent, char* w) {
  char d[20];
  for (int i = precision - 1; i >= 0; --i, digits /= 10)
    d[i] = static_cast<char>('0' + digits % 10);
  int used = precision;
  while (used > 1 && d[used - 1] == '0') --used;
  if (negative) *w++ = '-';
  if (exponent < -4 || exponent >= precision) {
    *w++ = d[0];
    if (used > 1) {
      *w++ = '.';
      std::memcpy(w, d + 1, used - 1);
      w += used - 1;
    }
    *w++ = 'e';
    *w++ = exponent < 0 ? '-' : '+';
    int e = exponent < 0 ? -exponent : exponent;
    if (e < 10) *w++ = '0';
    return WriteWhole(e, w);
  }
  if (exponent >= 0) {
    std::memcpy(w, d, exponent + 1);  // the integer part, its zeros included
    w += exponent + 1;
    if (used > exponent + 1) {
      *w++ = '.';
      std::memcpy(w, d + exponent + 1, used - exponent - 1);
      w += used - exponent - 1;
    }
    return w;
  }
  *w++ = '0';
  *w++ = '.';
  for (int i = -1; i > exponent; --i) *w++ = '0';
  std::memcpy(w, d, used);
  return w + used;
}

// The float m x 2^e (m with its leading bit, 2^23 <= m < 2^24), rounded to `precision`
// significant digits as printf rounds (its exact value, ties to even): the digits and the
// decimal exponent of the first. `reads_back` says whether strtof (nearest, ties to even)
// gives the float back from them. False when the numbers would not fit the arithmetic.
//
// With k = precision - 1 - exponent, the digits are round(p) for p = m x 2^e x 10^k, held as
// num / den; g = 2^e x 10^k x den is the float's gap to its neighbours (2^e) in those units,
// so the decimal reads back when twice its distance to p is below g (or equal, m even).
bool RoundFloat(uint32_t m, int e, int precision, int exponent, uint64_t* digits, int* exponent_out,
                bool* reads_back) {
  const uint64_t low = kPowers.pow10[precision - 1], high = kPowers.pow10[precision];
  for (int attempt = 0; attempt < 4; ++attempt) {
    const int k = precision - 1 - exponent;
    Wide num, den, g;
    if (k >= 0) {
      if (k > kMaxPow5 || 24 + kPowers.pow5_bits[k] > 127) return false;
      num = static_cast<Wide>(m) * kPowers.pow5[k];
      const int shift = e + k;
      if (shift >= 0) {
        if (shift > 40) return false;
        num <<= shift;
        den = 1;
        g = kPowers.pow5[k] << shift;
      } else {
        if (-shift > 125) return false;
        den = static_cast<Wide>(1) << -shift;
        g = kPowers.pow5[k];
      }
    } else {
      const int q = -k;
      if (q > kMaxPow5) return false;
      const int s = e - q;
      if (s >= 0) {
        if (s > 100) return false;
        num = static_cast<Wide>(m) << s;
        den = kPowers.pow5[q];
        g = static_cast<Wide>(1) << s;
      } else {
        if (kPowers.pow5_bits[q] - s > 125) return false;
        num = m;
        den = kPowers.pow5[q] << -s;
        g = 1;
      }
    }
    const Wide whole = num / den;
    if (whole >= high) {
      ++exponent;
      continue;
    }
    if (whole < low) {
      --exponent;
      continue;
    }
    const Wide rem = num - whole * den;
    uint64_t n = static_cast<uint64_t>(whole);
    const bool up = (rem << 1) > den || ((rem << 1) == den && (n & 1) != 0);
    const Wide distance = up ? den - rem : rem;
    // Below a power of two the next float down is only half a gap away.
    const bool half_gap = !up && distance != 0 && m == (1u << 23);
    const Wide twice = distance << (half_gap ? 2 : 1);
    *reads_back = twice < g || (twice == g && (m & 1) == 0);
    if (up && ++n == high) {
      n = low;
      ++exponent;
    }
    *digits = n;
    *exponent_out = exponent;
    return true;
  }
  return false;
}

}  // namespace

char* WriteTextFloatBySnprintf(float value, char* w) {
  if (std::isnan(value)) return WriteLiteral("nan", w);
  if (std::isinf(value)) return WriteLiteral(value > 0 ? "inf" : "-inf", w);
  int n = std::snprintf(w, kMaxRealChars, "%.*g", kFloatDigits, static_cast<double>(value));
  // safe_strtof's check: a read that sets errno (a denormal's ERANGE) is a miss too.
  errno = 0;
  bool same = std::strtof(w, nullptr) == value && errno == 0;
  if (!same) {
    n = std::snprintf(w, kMaxRealChars, "%.*g", kFloatMoreDigits, static_cast<double>(value));
  }
  return w + n;
}

char* WriteTextFloat(float value, char* w) {
  if (std::isnan(value)) return WriteLiteral("nan", w);
  if (std::isinf(value)) return WriteLiteral(value > 0 ? "inf" : "-inf", w);
  // A whole number below 10^6 is its integer either way.
  if (value > -1e6f && value < 1e6f && value == std::trunc(value)) {
    if (value == 0) return WriteLiteral(std::signbit(value) ? "-0" : "0", w);
    return WriteWhole(static_cast<int64_t>(value), w);
  }
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const int biased = static_cast<int>(bits >> 23 & 0xff);
  // The lowest two binades and the top one are left to the libc: there strtof's errno
  // (underflow, overflow) may decide, as it does in safe_strtof.
  if (biased <= 1 || biased >= 254) return WriteTextFloatBySnprintf(value, w);
  const bool negative = (bits >> 31) != 0;
  const uint32_t m = (bits & 0x7fffff) | (1u << 23);
  const int e = biased - 150;
  // floor(log10(2^(biased - 127))), at most one below the decimal exponent: corrected there.
  const int guess = ((biased - 127) * 78913) >> 18;
  uint64_t digits;
  int exponent;
  bool reads_back;
  if (!RoundFloat(m, e, kFloatDigits, guess, &digits, &exponent, &reads_back)) {
    return WriteTextFloatBySnprintf(value, w);
  }
  if (reads_back) return WriteG(negative, digits, kFloatDigits, exponent, w);
  if (!RoundFloat(m, e, kFloatMoreDigits, guess, &digits, &exponent, &reads_back)) {
    return WriteTextFloatBySnprintf(value, w);
  }
  return WriteG(negative, digits, kFloatMoreDigits, exponent, w);
}

char* WriteTextDouble(double value, char* w) {
  if (std::isnan(value)) return WriteLiteral("nan", w);
  if (std::isinf(value)) return WriteLiteral(value > 0 ? "inf" : "-inf", w);
  if (value > -1e15 && value < 1e15 && value == std::trunc(value)) {
    if (value == 0) return WriteLiteral(std::signbit(value) ? "-0" : "0", w);
    return WriteWhole(static_cast<int64_t>(value), w);
  }
  // Doubles are rare in graphs: the libc's way, which is SimpleDtoa's (a plain strtod check).
  int n = std::snprintf(w, kMaxRealChars, "%.*g", kDoubleDigits, value);
  if (std::strtod(w, nullptr) != value) {
    n = std::snprintf(w, kMaxRealChars, "%.*g", kDoubleMoreDigits, value);
  }
  return w + n;
}

}  // namespace graphport::proto
