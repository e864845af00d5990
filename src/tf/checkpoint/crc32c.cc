#include "tf/checkpoint/crc32c.h"

#include <array>

namespace graphport::tf::checkpoint {
namespace {

// The reflected polynomial of CRC-32C.
constexpr uint32_t kPolynomial = 0x82F63B78u;

// Slicing by 4: four tables, four bytes a step. Checkpoint data is checked once as it is read
// (hundreds of megabytes for a large model), where a byte-at-a-time loop ran at about a quarter
// of the speed.
using Tables = std::array<std::array<uint32_t, 256>, 4>;

Tables MakeTables() {
  Tables t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? kPolynomial : 0);
    t[0][i] = crc;
  }
  for (uint32_t i = 0; i < 256; ++i) {
    for (int k = 1; k < 4; ++k) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
  }
  return t;
}

const Tables& CrcTables() {
  static const Tables tables = MakeTables();
  return tables;
}

}  // namespace

uint32_t Crc32cExtend(uint32_t crc, const uint8_t* data, size_t size) {
  const Tables& t = CrcTables();
  uint32_t c = ~crc;
  while (size >= 4) {
    c ^= uint32_t{data[0]} | uint32_t{data[1]} << 8 | uint32_t{data[2]} << 16 |
         uint32_t{data[3]} << 24;
    c = t[3][c & 0xFF] ^ t[2][(c >> 8) & 0xFF] ^ t[1][(c >> 16) & 0xFF] ^ t[0][c >> 24];
    data += 4;
    size -= 4;
  }
  while (size-- > 0) c = (c >> 8) ^ t[0][(c ^ *data++) & 0xFF];
  return ~c;
}

}  // namespace graphport::tf::checkpoint
