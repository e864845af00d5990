// Decompression of a snappy-compressed block of a checkpoint index, through libsnappy, with the
// declared length checked before anything is allocated for it.
#ifndef GRAPHPORT_TF_CHECKPOINT_SNAPPY_BLOCK_H_
#define GRAPHPORT_TF_CHECKPOINT_SNAPPY_BLOCK_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace graphport::tf::checkpoint {

// The most bytes snappy can make of one stored byte: its densest element is a 3-byte copy of
// 64 bytes. A block that declares more than its stored size allows is damaged.
inline constexpr uint64_t kSnappyMaxExpansionNumerator = 64;
inline constexpr uint64_t kSnappyMaxExpansionDenominator = 3;

// The uncompressed bytes of `stored` (a block's stored bytes, without its trailer). `file` and
// `offset` (the block's place in it) name the block in errors. Throws Error kParseError for a
// damaged block, and kTooLarge when the declared length exceeds `max_bytes`.
std::string UncompressSnappyBlock(std::string_view stored, uint64_t max_bytes,
                                  const std::string& file, uint64_t offset);

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_SNAPPY_BLOCK_H_
