// IEEE 754 binary16 <-> binary32, bit-exact: how TF.js decodes float16 weights and how
// tfjs-converter (NumPy's astype(float16)) encodes them.
#ifndef GRAPHPORT_TFJS_FLOAT16_H_
#define GRAPHPORT_TFJS_FLOAT16_H_

#include <cstdint>

namespace graphport::tfjs {

// Exact: every binary16 value (subnormals, infinities, NaN with its payload moved up by 13
// bits) is a binary32 value.
float HalfToFloat(uint16_t half);

// Round to nearest, ties to even; overflow gives infinity, tiny values become subnormal or
// zero; a NaN stays a (quiet) NaN.
uint16_t FloatToHalf(float value);

// bfloat16 is the top half of a binary32, rounded to nearest even (TensorFlow's conversion).
uint16_t FloatToBfloat16(float value);
float Bfloat16ToFloat(uint16_t value);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_FLOAT16_H_
