// PaddingChannelPass as enable_nchw44 and enable_nchw88 run it, before EnableNchwxx (research
// megengine_optimize.md §4.7; MegEngine's padding_channel.cpp with only_padding_weights):
// a dense convolution's output channels are zero-padded to a multiple of the pack size p (4
// or 8) so that the layout pass can pack it. The weight gets zero output channels (a Concat
// with a zero ImmutableTensor, which a small constant weight folds into at once), a bias zero
// channels; the next convolution's weight gets zero input channels to match, a channel-wise
// convolution zero groups. Poolings, resizes and warps pass the padded channels on; so do
// Elemwise, TypeCvt and PowC when every input that is not a scalar is padded alike, and a
// Reduce or Subtensor that leaves the channel axis alone. Everywhere else (and at a graph
// output) a Subtensor takes the first channels back. Input tensors are never padded. An
// operator whose input shape is not known is left alone, as MegEngine skips one whose input
// has no static shape.
#ifndef GRAPHPORT_MGE_OPTIMIZE_PADDING_CHANNEL_PADDING_CHANNEL_H_
#define GRAPHPORT_MGE_OPTIMIZE_PADDING_CHANNEL_PADDING_CHANNEL_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

// PaddingChannelPass(NCHW44, only_padding_weights): output channels to a multiple of 4.
PassReport PaddingChannel44(OptGraph* g);
// PaddingChannelPass(NCHW88, only_padding_weights): output channels to a multiple of 8.
PassReport PaddingChannel88(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_PADDING_CHANNEL_PADDING_CHANNEL_H_
