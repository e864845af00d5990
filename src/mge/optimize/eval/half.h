// float16 conversions as MegEngine's half_float library makes them (research
// megengine_optimize.md §3.4): float -> half rounds to nearest with ties away from zero (the
// library is built with HALF_ROUND_TIES_TO_EVEN 0), overflow gives infinity, a NaN keeps its
// sign and the top of its mantissa; half -> float is exact.
#ifndef GRAPHPORT_MGE_OPTIMIZE_EVAL_HALF_H_
#define GRAPHPORT_MGE_OPTIMIZE_EVAL_HALF_H_

#include <cstdint>

namespace graphport::mge::opt {

uint16_t FloatToHalfBits(float value);
float HalfBitsToFloat(uint16_t bits);
// The float value of FloatToHalfBits(value): what a TypeCvt to Float16 holds.
inline float RoundToHalf(float value) { return HalfBitsToFloat(FloatToHalfBits(value)); }

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_EVAL_HALF_H_
