// The entries of one block of a checkpoint index's table (LevelDB's table format as TensorFlow
// writes it): prefix-compressed keys, values, and the restart array at the block's end.
#ifndef GRAPHPORT_TF_CHECKPOINT_TABLE_BLOCK_H_
#define GRAPHPORT_TF_CHECKPOINT_TABLE_BLOCK_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace graphport::tf::checkpoint {

// Where a block's faults are reported: the file's display name, and the block's first byte in
// it (a compressed block's entries have no file offset of their own).
struct BlockPlace {
  std::string file;
  uint64_t offset = 0;
};

// Calls `visit(key, value)` for each entry of `block` (its uncompressed bytes, without the
// trailer) in order, keys rebuilt from their shared prefixes. Throws Error kParseError naming
// the place when an entry or the restart array runs past the block, a shared prefix is longer
// than the previous key, or a restart point is not an entry that shares nothing.
void ReadBlockEntries(
    std::string_view block, const BlockPlace& place,
    const std::function<void(const std::string& key, std::string_view value)>& visit);

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_TABLE_BLOCK_H_
