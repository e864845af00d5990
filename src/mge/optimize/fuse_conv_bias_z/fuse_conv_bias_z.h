// FuseConvBiasZPass, which enable_fuse_conv_bias_with_z adds after FuseConvBiasNonlin
// (research megengine_optimize.md §4.2): a full-size tensor z added to a ConvBias's output
// becomes the ConvBias's fourth input.
#ifndef GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_Z_FUSE_CONV_BIAS_Z_H_
#define GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_Z_FUSE_CONV_BIAS_Z_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport FuseConvBiasZ(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_Z_FUSE_CONV_BIAS_Z_H_
