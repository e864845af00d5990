// UTF-8 validity as protobuf defines it for proto3 `string` fields (and as JSON needs it).
#ifndef GRAPHPORT_CORE_UTF8_H_
#define GRAPHPORT_CORE_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/byte_block.h"

namespace graphport {

// True when `text` is well-formed UTF-8: no overlong forms, no surrogates, nothing past
// U+10FFFF. Otherwise false, with `*bad_offset` (when given) at the first byte that is wrong.
bool IsValidUtf8(std::string_view text, size_t* bad_offset = nullptr);

// True when every byte is ASCII (so valid UTF-8): inline, for the short names a graph is
// made of, sixteen bytes at a time with the last word overlapping instead of a byte loop.
inline bool IsAscii(std::string_view text) {
  const char* p = text.data();
  const size_t n = text.size();
  uint64_t seen = 0, a, b;
#ifdef GRAPHPORT_BYTE_BLOCKS
  if (n >= 16) {
    ByteBlock any = LoadBlock(p + n - 16);
    for (size_t i = 0; i + 16 <= n; i += 16) any |= LoadBlock(p + i);
    return !AnyBitSet(any & 0x80);
  }
#endif
  if (n >= 8) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      std::memcpy(&a, p + i, 8);
      std::memcpy(&b, p + i + 8, 8);
      seen |= a | b;
    }
    if (i + 8 <= n) {
      std::memcpy(&a, p + i, 8);
      seen |= a;
    }
    std::memcpy(&a, p + n - 8, 8);
    seen |= a;
  } else if (n >= 4) {
    uint32_t head, tail;
    std::memcpy(&head, p, 4);
    std::memcpy(&tail, p + n - 4, 4);
    seen = head | tail;
  } else {
    for (size_t i = 0; i < n; ++i) seen |= static_cast<unsigned char>(p[i]);
  }
  return (seen & 0x8080808080808080ull) == 0;
}

// True when JSON writes `text` as it is between quotes: printable ASCII without '"' or '\\'
// (DEL included, as nlohmann writes it). Inline, eight bytes at a time: the JSON printers ask
// it of every name they write.
inline bool IsPlainJsonText(std::string_view text) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  // Nonzero when a byte of `v` is zero (the usual test: exact as a whole, not per byte).
  auto has_zero = [](uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  auto plain_word = [&](uint64_t w) {
    // A byte below 0x80 plus 0x60 reaches 0x80 (no carry out of it) when it is 0x20 or more.
    const uint64_t control = ~((w & ~kHighs) + 0x60 * kOnes) & kHighs;
    return ((w & kHighs) | control | has_zero(w ^ ('"' * kOnes)) | has_zero(w ^ ('\\' * kOnes))) ==
           0;
  };
  const char* p = text.data();
  const size_t n = text.size();
  if (n < 8) {
    for (size_t i = 0; i < n; ++i) {
      const auto byte = static_cast<unsigned char>(p[i]);
      if (byte < 0x20 || byte >= 0x80 || byte == '"' || byte == '\\') return false;
    }
    return true;
  }
  uint64_t w;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&w, p + i, 8);
    if (!plain_word(w)) return false;
  }
  std::memcpy(&w, p + n - 8, 8);
  return plain_word(w);
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_UTF8_H_
