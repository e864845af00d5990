#include "tf/checkpoint/table_block.h"

#include <vector>

#include "core/error.h"
#include "proto/wire_scalar.h"

namespace graphport::tf::checkpoint {
namespace {

// A varint32 at `*pos` of `bytes`; false when it runs past the end or past 32 bits.
bool ReadVarint32(std::string_view bytes, size_t* pos, uint32_t* value) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28; shift += 7) {
    if (*pos >= bytes.size()) return false;
    uint8_t byte = static_cast<uint8_t>(bytes[(*pos)++]);
    if (shift == 28 && byte > 0x0F) return false;
    result |= uint32_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

}  // namespace

void ReadBlockEntries(
    std::string_view block, const BlockPlace& place,
    const std::function<void(const std::string& key, std::string_view value)>& visit) {
  auto fail = [&](const std::string& why) {
    return Error(
        ErrorCode::kParseError,
        place.file + ": the table block at byte " + std::to_string(place.offset) + " " + why,
        ErrorLocation::InFile(place.file, static_cast<int64_t>(place.offset)));
  };
  if (block.size() < 4) throw fail("is too short for its restart count");
  uint64_t restarts = proto::ReadFixed32(block.data() + block.size() - 4);
  if (restarts > (block.size() - 4) / 4) {
    throw fail("declares " + std::to_string(restarts) + " restart points, more than fit in it");
  }
  size_t entries_end = block.size() - 4 - restarts * 4;
  std::vector<uint32_t> restart_points(restarts);
  for (uint64_t i = 0; i < restarts; ++i) {
    restart_points[i] = proto::ReadFixed32(block.data() + entries_end + i * 4);
    if (i > 0 && restart_points[i] <= restart_points[i - 1]) {
      throw fail("has restart points out of order");
    }
  }
  std::string_view entries = block.substr(0, entries_end);
  if (!entries.empty() && (restart_points.empty() || restart_points[0] != 0)) {
    throw fail("has entries but no restart point at its first one");
  }

  std::string key;
  size_t pos = 0;
  size_t next_restart = 0;
  while (pos < entries.size()) {
    size_t entry_start = pos;
    bool at_restart =
        next_restart < restart_points.size() && restart_points[next_restart] == entry_start;
    if (next_restart < restart_points.size() && restart_points[next_restart] < entry_start) {
      throw fail("has a restart point (" + std::to_string(restart_points[next_restart]) +
                 ") inside an entry");
    }
    if (at_restart) ++next_restart;
    uint32_t shared = 0, unshared = 0, value_size = 0;
    if (!ReadVarint32(entries, &pos, &shared) || !ReadVarint32(entries, &pos, &unshared) ||
        !ReadVarint32(entries, &pos, &value_size)) {
      throw fail("has a damaged entry header at entry byte " + std::to_string(entry_start));
    }
    if (shared > key.size() || (at_restart && shared != 0)) {
      throw fail("has an entry at entry byte " + std::to_string(entry_start) + " sharing " +
                 std::to_string(shared) + " bytes of a key of " + std::to_string(key.size()) +
                 (at_restart ? " at a restart point" : ""));
    }
    if (uint64_t{unshared} + value_size > entries.size() - pos) {
      throw fail("has an entry at entry byte " + std::to_string(entry_start) +
                 " running past the block's entries");
    }
    key.resize(shared);
    key.append(entries.data() + pos, unshared);
    pos += unshared;
    visit(key, entries.substr(pos, value_size));
    pos += value_size;
  }
  // An empty block keeps its one restart point at 0, where its entries would start.
  bool empty_block_restart = entries.empty() && restart_points.size() == 1;
  if (next_restart != restart_points.size() && !empty_block_restart) {
    throw fail("has a restart point past its last entry");
  }
}

}  // namespace graphport::tf::checkpoint
