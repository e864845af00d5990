#include "tfjs/dequantize.h"

#include <cmath>

namespace graphport::tfjs {

float DequantizeAffineToFloat(uint32_t code, double scale, double min) {
  double scaled = static_cast<double>(code) * scale;
  double shifted = scaled + min;
  return static_cast<float>(shifted);
}

int32_t JsRoundToInt32(double value) {
  if (!std::isfinite(value)) return 0;
  // Math.round: the nearest integer, halves up. x - floor(x) is exact for every double.
  double floor = std::floor(value);
  double rounded = value - floor >= 0.5 ? floor + 1.0 : floor;
  // ToInt32: modulo 2^32 into [-2^31, 2^31).
  double wrapped = std::fmod(rounded, 4294967296.0);
  if (wrapped < 0) wrapped += 4294967296.0;
  uint32_t bits = static_cast<uint32_t>(wrapped);
  return static_cast<int32_t>(bits);
}

int32_t DequantizeAffineToInt32(uint32_t code, double scale, double min) {
  double scaled = static_cast<double>(code) * scale;
  return JsRoundToInt32(scaled + min);
}

}  // namespace graphport::tfjs
