// The stored form of a DT_STRING tensor in a checkpoint's data file: each element's length as a
// varint64, then the masked crc32c of those lengths (each as 4 little-endian bytes, 8 past
// 2^32 - 1), then the elements' bytes one after another. The entry's crc32c continues the
// lengths' crc over the 4 stored bytes and the elements, so it is checked here, not over the
// stored bytes as a fixed-width tensor's is.
#ifndef GRAPHPORT_TF_CHECKPOINT_STRING_TENSOR_H_
#define GRAPHPORT_TF_CHECKPOINT_STRING_TENSOR_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace graphport::tf::checkpoint {

// Why a string tensor's bytes failed, and where in them (a byte offset from their start).
struct StringTensorFault {
  std::string why;
  uint64_t at = 0;
};

// The `count` elements of `stored`, or false with `*fault` set when the bytes do not hold
// exactly that many strings or a checksum (the lengths' or the entry's `masked_crc`) fails.
bool DecodeStringTensor(std::string_view stored, uint64_t count, uint32_t masked_crc,
                        std::vector<std::string>* out, StringTensorFault* fault);

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_STRING_TENSOR_H_
