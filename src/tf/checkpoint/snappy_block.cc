#include "tf/checkpoint/snappy_block.h"

#include <snappy.h>

#include "core/error.h"

namespace graphport::tf::checkpoint {

std::string UncompressSnappyBlock(std::string_view stored, uint64_t max_bytes,
                                  const std::string& file, uint64_t offset) {
  auto fail = [&](const std::string& why) {
    return Error(ErrorCode::kParseError,
                 file + ": the snappy block at byte " + std::to_string(offset) + " " + why,
                 ErrorLocation::InFile(file, static_cast<int64_t>(offset)));
  };
  size_t declared = 0;
  if (!snappy::GetUncompressedLength(stored.data(), stored.size(), &declared)) {
    throw fail("has no valid length header");
  }
  uint64_t possible = stored.size() * kSnappyMaxExpansionNumerator / kSnappyMaxExpansionDenominator;
  if (declared > possible) {
    throw fail("declares " + std::to_string(declared) + " bytes, more than snappy can make of " +
               std::to_string(stored.size()) + " stored bytes");
  }
  if (declared > max_bytes) {
    throw Error(ErrorCode::kTooLarge,
                file + ": the snappy block at byte " + std::to_string(offset) + " holds " +
                    std::to_string(declared) + " bytes, more than the memory budget of " +
                    std::to_string(max_bytes) + " bytes",
                ErrorLocation::InFile(file, static_cast<int64_t>(offset)));
  }
  // Walks the elements without writing: a copy reaching before the start, or a length that
  // disagrees with the header, is found before the output exists.
  if (!snappy::IsValidCompressedBuffer(stored.data(), stored.size())) {
    throw fail("is damaged (its copies and literals do not make the declared length)");
  }
  std::string out(declared, '\0');
  if (!snappy::RawUncompress(stored.data(), stored.size(), out.data())) {
    throw fail("could not be decompressed");
  }
  return out;
}

}  // namespace graphport::tf::checkpoint
