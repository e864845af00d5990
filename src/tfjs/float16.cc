#include "tfjs/float16.h"

#include <cstring>

namespace graphport::tfjs {
namespace {

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float FromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace

float HalfToFloat(uint16_t half) {
  uint32_t sign = uint32_t{half & 0x8000u} << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ffu;
  if (exponent == 0x1f) return FromBits(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return FromBits(sign | ((exponent + 112) << 23) | (mantissa << 13));
  if (mantissa == 0) return FromBits(sign);
  // A subnormal half is a normal float: shift the mantissa up until its leading 1 is implicit.
  int shift = 0;
  while ((mantissa & 0x400u) == 0) {
    mantissa <<= 1;
    ++shift;
  }
  mantissa &= 0x3ffu;
  return FromBits(sign | (uint32_t(113 - shift) << 23) | (mantissa << 13));
}

uint16_t FloatToHalf(float value) {
  uint32_t u = Bits(value);
  uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) {  // NaN: keep the top of the payload, force it quiet
    return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
  }
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds to 65536 or more: infinity
  if (abs < 0x38800000u) {
    // Below the smallest normal half (2^-14): a subnormal, counted in units of 2^-24.
    if (abs < 0x33000000u) return sign;  // below half the smallest subnormal: zero
    uint32_t exponent = abs >> 23;
    uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    int shift = 126 - static_cast<int>(exponent);  // 14 .. 24
    uint32_t result = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (result & 1u))) ++result;
    return static_cast<uint16_t>(sign | result);
  }
  // Normal: rebias the exponent, round 13 mantissa bits away (a carry may bump the exponent,
  // which is right, including up to infinity).
  uint32_t result = ((abs - 0x38000000u) >> 13);
  uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u))) ++result;
  return static_cast<uint16_t>(sign | result);
}

uint16_t FloatToBfloat16(float value) {
  uint32_t u = Bits(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>((u + rounding) >> 16);
}

float Bfloat16ToFloat(uint16_t value) { return FromBits(uint32_t{value} << 16); }

}  // namespace graphport::tfjs
