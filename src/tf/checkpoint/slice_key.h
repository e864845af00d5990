// The key under which a checkpoint stores one slice of a partitioned tensor: TensorFlow's
// OrderedCode of (0, the tensor's name, the rank, each dimension's start and length), so that
// every slice key sorts before the ordinary names, right after the header.
#ifndef GRAPHPORT_TF_CHECKPOINT_SLICE_KEY_H_
#define GRAPHPORT_TF_CHECKPOINT_SLICE_KEY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace graphport::tf::checkpoint {

struct SliceExtent;

// The key of the slice `extents` (one per dimension; length -1: the whole dimension, whose
// start is then 0) of the tensor named `name`.
std::string EncodeSliceKey(std::string_view name, const std::vector<SliceExtent>& extents);

// The pieces of the encoding, exposed for the tests.
void AppendOrderedUnsigned(uint64_t value, std::string* out);
void AppendOrderedSigned(int64_t value, std::string* out);
void AppendOrderedString(std::string_view value, std::string* out);

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_SLICE_KEY_H_
