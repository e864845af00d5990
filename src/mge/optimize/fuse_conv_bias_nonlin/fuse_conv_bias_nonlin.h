// FuseConvBiasNonlinPass, enable_fuse_conv_bias_nonlinearity's pass (research
// megengine_optimize.md §4.1): a bias added to a Convolution's output, and the RELU, SIGMOID or
// H_SWISH after it, become one ConvBias.
#ifndef GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_NONLIN_FUSE_CONV_BIAS_NONLIN_H_
#define GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_NONLIN_FUSE_CONV_BIAS_NONLIN_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport FuseConvBiasNonlin(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_FUSE_CONV_BIAS_NONLIN_FUSE_CONV_BIAS_NONLIN_H_
