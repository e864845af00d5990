// Copying byte runs of any length, short ones without a call to memcpy.
//
// Emscripten's memcpy copies byte by byte when source and destination are not equally
// aligned, as a name in the input and its place in an output rarely are; WebAssembly's
// unaligned 8-byte loads and stores copy the same runs several times faster. (Its bulk
// memory.copy, measured, is no faster for runs this short.)
#ifndef GRAPHPORT_CORE_COPY_BYTES_H_
#define GRAPHPORT_CORE_COPY_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/byte_block.h"

namespace graphport {

// Runs up to this long are copied by words here; longer ones by memcpy, which hands them to
// the host's bulk copy.
constexpr size_t kShortCopyMax = 512;

// Copies `n` (8 to kShortCopyMax) bytes by 8-byte words (16-byte blocks where SIMD is on),
// the last one overlapping what is written: no byte loop.
inline void CopyWords(void* dst, const void* src, size_t n) {
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
#ifdef GRAPHPORT_BYTE_BLOCKS
  if (n >= 16) {
    for (size_t i = 0; i + 16 <= n; i += 16) StoreBlock(d + i, LoadBlock(s + i));
    StoreBlock(d + n - 16, LoadBlock(s + n - 16));
    return;
  }
#endif
  uint64_t word;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&word, s + i, 8);
    std::memcpy(d + i, &word, 8);
  }
  std::memcpy(&word, s + n - 8, 8);
  std::memcpy(d + n - 8, &word, 8);
}

// memcpy(dst, src, n) for runs that do not overlap.
inline void CopyBytes(void* dst, const void* src, size_t n) {
  if (n >= 8 && n <= kShortCopyMax) {
    CopyWords(dst, src, n);
  } else if (n >= 4 && n < 8) {
    auto* d = static_cast<uint8_t*>(dst);
    const auto* s = static_cast<const uint8_t*>(src);
    uint32_t head, tail;
    std::memcpy(&head, s, 4);
    std::memcpy(&tail, s + n - 4, 4);
    std::memcpy(d, &head, 4);
    std::memcpy(d + n - 4, &tail, 4);
  } else if (n < 4) {
    auto* d = static_cast<uint8_t*>(dst);
    const auto* s = static_cast<const uint8_t*>(src);
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  } else {
    std::memcpy(dst, src, n);
  }
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_COPY_BYTES_H_
