#include "tf/checkpoint/table.h"

#include <vector>

#include "core/error.h"
#include "proto/wire_scalar.h"
#include "tf/checkpoint/crc32c.h"
#include "tf/checkpoint/snappy_block.h"

namespace graphport::tf::checkpoint {
namespace {

struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;
};

Error ParseError(const std::string& file, uint64_t offset, const std::string& why) {
  return Error(ErrorCode::kParseError, file + ": " + why + " (byte " + std::to_string(offset) + ")",
               ErrorLocation::InFile(file, static_cast<int64_t>(offset)));
}

bool ReadVarint64(std::string_view bytes, size_t* pos, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63; shift += 7) {
    if (*pos >= bytes.size()) return false;
    uint8_t byte = static_cast<uint8_t>(bytes[(*pos)++]);
    if (shift == 63 && byte > 1) return false;
    result |= uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool ReadHandle(std::string_view bytes, size_t* pos, BlockHandle* handle) {
  return ReadVarint64(bytes, pos, &handle->offset) && ReadVarint64(bytes, pos, &handle->size);
}

// A block's uncompressed bytes: a view of `file` when stored as is, else decompressed into
// `*scratch`. The block and its trailer must end before `limit` (where the footer starts).
std::string_view ReadBlock(std::string_view file, const std::string& display, uint64_t limit,
                           const BlockHandle& handle, const char* what, uint64_t max_bytes,
                           std::string* scratch) {
  if (handle.offset > limit || handle.size > limit - handle.offset ||
      kBlockTrailerBytes > limit - handle.offset - handle.size) {
    throw ParseError(display, handle.offset,
                     std::string("the ") + what + " block (" + std::to_string(handle.size) +
                         " bytes at byte " + std::to_string(handle.offset) +
                         ") runs past the footer at byte " + std::to_string(limit));
  }
  std::string_view stored = file.substr(handle.offset, handle.size);
  const char* trailer = file.data() + handle.offset + handle.size;
  uint32_t expected = UnmaskCrc(proto::ReadFixed32(trailer + 1));
  uint32_t actual = Crc32cExtend(Crc32c(stored), std::string_view(trailer, 1));
  if (actual != expected) {
    throw ParseError(display, handle.offset + handle.size,
                     std::string("the ") + what + " block at byte " +
                         std::to_string(handle.offset) + " fails its crc32c check");
  }
  switch (static_cast<uint8_t>(trailer[0])) {
    case 0:
      return stored;
    case 1:
      *scratch = UncompressSnappyBlock(stored, max_bytes, display, handle.offset);
      return *scratch;
    default:
      throw Error(ErrorCode::kUnsupported,
                  display + ": the " + what + " block at byte " + std::to_string(handle.offset) +
                      " is compressed with type " +
                      std::to_string(static_cast<uint8_t>(trailer[0])) +
                      " (TensorFlow writes 0, none, or 1, snappy)",
                  ErrorLocation::InFile(display, static_cast<int64_t>(handle.offset)));
  }
}

}  // namespace

void ReadTable(std::string_view file, const std::string& display, uint64_t max_bytes,
               const std::function<void(const std::string& key, std::string_view value,
                                        const BlockPlace& place)>& visit) {
  if (file.size() < kTableFooterBytes) {
    throw ParseError(
        display, 0,
        "a table of " + std::to_string(file.size()) + " bytes is too short for its 48-byte footer");
  }
  uint64_t footer_at = file.size() - kTableFooterBytes;
  std::string_view footer = file.substr(footer_at);
  uint64_t magic = proto::ReadFixed64(footer.data() + 40);
  if (magic != kTableMagic) {
    throw ParseError(display, footer_at + 40, "no table magic number at the end of the file");
  }
  BlockHandle metaindex, index;
  size_t pos = 0;
  if (!ReadHandle(footer.substr(0, 40), &pos, &metaindex) ||
      !ReadHandle(footer.substr(0, 40), &pos, &index)) {
    throw ParseError(display, footer_at, "the footer's block handles are damaged");
  }
  // The metaindex names filter and statistics blocks, which TensorFlow never writes; its
  // checksum is still checked, so a damaged file is not taken for whole.
  std::string scratch;
  ReadBlock(file, display, footer_at, metaindex, "metaindex", max_bytes, &scratch);
  std::string index_scratch;
  std::string_view index_block =
      ReadBlock(file, display, footer_at, index, "index", max_bytes, &index_scratch);

  struct IndexEntry {
    std::string separator;
    BlockHandle handle;
  };
  std::vector<IndexEntry> blocks;
  ReadBlockEntries(index_block, BlockPlace{display, index.offset},
                   [&](const std::string& key, std::string_view value) {
                     IndexEntry entry{key, {}};
                     size_t at = 0;
                     if (!ReadHandle(value, &at, &entry.handle) || at != value.size()) {
                       throw ParseError(
                           display, index.offset,
                           "the index block's entry for \"" + key + "\" holds no block handle");
                     }
                     blocks.push_back(std::move(entry));
                   });

  std::string last_key;
  bool any_key = false;
  uint64_t expanded = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const IndexEntry& entry = blocks[i];
    std::string block_scratch;
    std::string_view block = ReadBlock(file, display, footer_at, entry.handle, "data",
                                       max_bytes - expanded, &block_scratch);
    expanded += block_scratch.size();
    BlockPlace place{display, entry.handle.offset};
    bool first_in_block = true;
    ReadBlockEntries(block, place, [&](const std::string& key, std::string_view value) {
      if (any_key && !(std::string_view(last_key) < std::string_view(key))) {
        throw ParseError(display, place.offset,
                         "the key \"" + key + "\" does not come after \"" + last_key +
                             "\": a table's keys are strictly increasing");
      }
      if (first_in_block && i > 0 && !(std::string_view(blocks[i - 1].separator) < key)) {
        throw ParseError(display, place.offset,
                         "the block's first key is not after the index's separator before it");
      }
      first_in_block = false;
      any_key = true;
      last_key = key;
      visit(key, value, place);
    });
    if (any_key && std::string_view(entry.separator) < std::string_view(last_key)) {
      throw ParseError(display, index.offset,
                       "the index's key for the block at byte " +
                           std::to_string(entry.handle.offset) + " comes before its last key");
    }
  }
}

}  // namespace graphport::tf::checkpoint
