// ConvertF32ToF16 (research megengine_optimize.md §4.3), the pass of enable_ioc16
// (f16_io_comp: float16 tensors and float16 computation) and enable_io16xc32
// (f16_io_f32_comp: float16 tensors, float32 computation inside Convolution, ConvBias,
// MatrixMul, BatchedMatrixMul and Reduce). Every Float32 source (Host2DeviceCopy,
// SharedDeviceTensor, ImmutableTensor, the outputs of a MultipleDeviceTensorHolder) gets a
// TypeCvt to Float16, which folds small constants at once (with MegEngine's float16 rounding,
// ties away from zero) and leaves the rest to the ParamFuse after the option passes; TypeCvt
// to Float32 converts to Float16 instead; WarpPerspective's matrix and Remap's map stay
// Float32; the operators downstream are made again on the float16 inputs, and each output
// whose dtype changed gets a TypeCvt back to it, so the graph's outputs keep their dtypes.
// An operator whose float16 form graphport cannot tell (not in the research's table, and
// its output dtype not its input's) is refused as UNSUPPORTED, naming it and the kwarg.
#ifndef GRAPHPORT_MGE_OPTIMIZE_CONVERT_F32_TO_F16_CONVERT_F32_TO_F16_H_
#define GRAPHPORT_MGE_OPTIMIZE_CONVERT_F32_TO_F16_CONVERT_F32_TO_F16_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

// ConvertF32ToF16Pass with use_f32_comp = false (enable_ioc16).
PassReport ConvertF32ToF16Ioc16(OptGraph* g);
// ConvertF32ToF16Pass with use_f32_comp = true (enable_io16xc32).
PassReport ConvertF32ToF16Io16xc32(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_CONVERT_F32_TO_F16_CONVERT_F32_TO_F16_H_
