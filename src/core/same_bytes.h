// Comparing short byte runs (names, map entries) for equality.
#ifndef GRAPHPORT_CORE_SAME_BYTES_H_
#define GRAPHPORT_CORE_SAME_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/byte_block.h"

namespace graphport {

// memcmp(a, b, size) == 0, by words with the last one overlapping: WebAssembly's libc memcmp
// compares byte by byte, and the runs compared per node of a graph add up.
inline bool SameBytes(const void* a, const void* b, size_t size) {
  const auto* x = static_cast<const uint8_t*>(a);
  const auto* y = static_cast<const uint8_t*>(b);
  if (size < 4) {
    for (size_t i = 0; i < size; ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }
  if (size < 8) {
    uint32_t u[2], v[2];
    std::memcpy(&u[0], x, 4);
    std::memcpy(&u[1], x + size - 4, 4);
    std::memcpy(&v[0], y, 4);
    std::memcpy(&v[1], y + size - 4, 4);
    return ((u[0] ^ v[0]) | (u[1] ^ v[1])) == 0;
  }
#ifdef GRAPHPORT_BYTE_BLOCKS
  if (size >= 16) {
    ByteBlock differ = LoadBlock(x + size - 16) ^ LoadBlock(y + size - 16);
    for (size_t i = 0; i + 16 <= size; i += 16) differ |= LoadBlock(x + i) ^ LoadBlock(y + i);
    return !AnyBitSet(differ);
  }
#endif
  uint64_t u, v, differ = 0;
  for (size_t i = 0; i + 8 <= size; i += 8) {
    std::memcpy(&u, x + i, 8);
    std::memcpy(&v, y + i, 8);
    differ |= u ^ v;
  }
  std::memcpy(&u, x + size - 8, 8);
  std::memcpy(&v, y + size - 8, 8);
  return (differ | (u ^ v)) == 0;
}

inline bool SameBytes(std::string_view a, std::string_view b) {
  return a.size() == b.size() && SameBytes(a.data(), b.data(), a.size());
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_SAME_BYTES_H_
