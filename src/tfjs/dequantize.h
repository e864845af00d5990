// TF.js's dequantization of stored weights (decodeWeight in tfjs-core's io_utils), to the bit.
// This file is compiled with floating-point contraction off: JavaScript never fuses the
// multiply and the add into one FMA, so neither may we.
#ifndef GRAPHPORT_TFJS_DEQUANTIZE_H_
#define GRAPHPORT_TFJS_DEQUANTIZE_H_

#include <cstdint>

namespace graphport::tfjs {

// float32(double(code) * scale + min): two double operations, then one rounding to float32.
float DequantizeAffineToFloat(uint32_t code, double scale, double min);

// Int32Array element of Math.round(double(code) * scale + min): halves round towards
// +infinity, then ToInt32 wraps modulo 2^32 (NaN and infinities give 0).
int32_t DequantizeAffineToInt32(uint32_t code, double scale, double min);

// JavaScript's Math.round followed by the ToInt32 of a typed-array store.
int32_t JsRoundToInt32(double value);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_DEQUANTIZE_H_
