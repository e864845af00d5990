// A checkpoint index file as a whole: LevelDB's table format as TensorFlow writes it (data
// blocks, an empty metaindex block, the index block, and a 48-byte footer), each block checked
// against the masked crc32c of its trailer and decompressed when stored with snappy.
#ifndef GRAPHPORT_TF_CHECKPOINT_TABLE_H_
#define GRAPHPORT_TF_CHECKPOINT_TABLE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tf/checkpoint/table_block.h"

namespace graphport::tf::checkpoint {

inline constexpr size_t kTableFooterBytes = 48;
inline constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
// Per block: a type byte (0 stored as is, 1 snappy) and the masked crc32c of block and type.
inline constexpr size_t kBlockTrailerBytes = 5;

// Calls `visit(key, value, place)` for every entry of every data block of `file`, in order;
// `place` is the entry's block. Keys must be strictly increasing (bytewise) across the whole
// table, and each index key must lie between its block's last key and the next block's first.
// `display` names the file in errors; `max_bytes` bounds what decompression may allocate.
// Throws Error kParseError (with the byte offset) for anything malformed, kUnsupported for a
// block compressed in a way TensorFlow does not write, kTooLarge past `max_bytes`.
void ReadTable(std::string_view file, const std::string& display, uint64_t max_bytes,
               const std::function<void(const std::string& key, std::string_view value,
                                        const BlockPlace& place)>& visit);

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_TABLE_H_
