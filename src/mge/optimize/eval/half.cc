#include "mge/optimize/eval/half.h"

#include <cstring>

namespace graphport::mge::opt {

uint16_t FloatToHalfBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const int exponent = static_cast<int>((bits >> 23) & 0xff);
  const uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff) {  // infinity, or a NaN that keeps the top of its payload
    return sign | 0x7c00 | static_cast<uint16_t>(mantissa >> 13);
  }
  const int e = exponent - 127;
  if (e > 15) return sign | 0x7c00;
  if (e >= -14) {
    uint32_t h = (static_cast<uint32_t>(e + 15) << 10) | (mantissa >> 13);
    h += (mantissa >> 12) & 1;  // ties away from zero; a carry may reach infinity
    return sign | static_cast<uint16_t>(h);
  }
  if (e < -25) return sign;
  // Subnormal: the value in units of 2^-24 is (1.mantissa) * 2^(e + 24).
  const uint32_t full = mantissa | 0x800000;
  const int shift = -e - 1;
  uint32_t h = full >> shift;
  h += (full >> (shift - 1)) & 1;
  return sign | static_cast<uint16_t>(h);
}

float HalfBitsToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  const uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    int e = 113;
    while ((mantissa & 0x400) == 0) {
      mantissa <<= 1;
      --e;
    }
    bits = sign | (static_cast<uint32_t>(e) << 23) | ((mantissa & 0x3ff) << 13);
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

}  // namespace graphport::mge::opt
