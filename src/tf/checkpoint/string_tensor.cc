#include "tf/checkpoint/string_tensor.h"

#include "tf/checkpoint/crc32c.h"

namespace graphport::tf::checkpoint {
namespace {

// The lengths' crc takes each length as 4 little-endian bytes, or 8 when it does not fit 4.
uint32_t ExtendWithLength(uint32_t crc, uint64_t length) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(length >> (8 * i));
  return Crc32cExtend(crc, bytes, length > UINT32_MAX ? 8 : 4);
}

}  // namespace

bool DecodeStringTensor(std::string_view stored, uint64_t count, uint32_t masked_crc,
                        std::vector<std::string>* out, StringTensorFault* fault) {
  out->clear();
  auto fail = [&](std::string why, uint64_t at) {
    fault->why = std::move(why);
    fault->at = at;
    out->clear();
    return false;
  };
  // A tensor of no elements may be stored as nothing at all.
  if (count == 0 && stored.empty()) return true;
  // Each element takes at least its one length byte.
  if (count > stored.size())
    return fail("is too short for " + std::to_string(count) + " lengths", 0);
  std::vector<uint64_t> lengths;
  lengths.reserve(count);
  size_t pos = 0;
  uint64_t total = 0;
  uint32_t crc = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t length = 0;
    size_t start = pos;
    bool ended = false;
    for (int shift = 0; shift <= 63 && pos < stored.size(); shift += 7) {
      uint8_t byte = static_cast<uint8_t>(stored[pos++]);
      if (shift == 63 && byte > 1) break;
      length |= uint64_t{byte & 0x7Fu} << shift;
      if ((byte & 0x80) == 0) {
        ended = true;
        break;
      }
    }
    if (!ended) return fail("has a damaged length of element " + std::to_string(i), start);
    if (length > stored.size() - total) {
      return fail("gives element " + std::to_string(i) + " a length of " + std::to_string(length) +
                      ", more than its bytes",
                  start);
    }
    total += length;
    crc = ExtendWithLength(crc, length);
    lengths.push_back(length);
  }
  if (stored.size() - pos < 4) return fail("ends before its lengths' checksum", pos);
  uint32_t stored_lengths_crc = 0;
  for (int i = 0; i < 4; ++i) {
    stored_lengths_crc |= uint32_t{static_cast<uint8_t>(stored[pos + i])} << (8 * i);
  }
  if (UnmaskCrc(stored_lengths_crc) != crc) return fail("fails its lengths' crc32c check", pos);
  crc = Crc32cExtend(crc, stored.substr(pos, 4));
  pos += 4;
  if (stored.size() - pos != total) {
    return fail("holds " + std::to_string(stored.size() - pos) + " bytes of strings where its " +
                    "lengths add up to " + std::to_string(total),
                pos);
  }
  crc = Crc32cExtend(crc, stored.substr(pos));
  if (crc != UnmaskCrc(masked_crc)) return fail("fails its crc32c check", 0);
  out->reserve(count);
  for (uint64_t length : lengths) {
    out->emplace_back(stored.substr(pos, length));
    pos += length;
  }
  return true;
}

}  // namespace graphport::tf::checkpoint
