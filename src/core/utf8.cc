#include "core/utf8.h"

#include <cstdint>
#include <cstring>

namespace graphport {

bool IsValidUtf8(std::string_view text, size_t* bad_offset) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    // Names are mostly ASCII: eight bytes at a time while no high bit is set.
    while (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, bytes + i, 8);
      if ((word & 0x8080808080808080ull) != 0) break;
      i += 8;
    }
    if (i >= n) break;
    unsigned char c = bytes[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t length;
    // The second byte's range depends on the first: it rules out overlong forms (E0, F0),
    // surrogates (ED) and code points past U+10FFFF (F4).
    unsigned char low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      if (bad_offset != nullptr) *bad_offset = i;
      return false;
    }
    for (size_t k = 1; k < length; ++k) {
      unsigned char next = i + k < n ? bytes[i + k] : 0;
      unsigned char lo = k == 1 ? low : 0x80, hi = k == 1 ? high : 0xBF;
      if (i + k >= n || next < lo || next > hi) {
        if (bad_offset != nullptr) *bad_offset = i;
        return false;
      }
    }
    i += length;
  }
  return true;
}

}  // namespace graphport
