// Protobuf text format's CEscape of string and bytes values, as TextFormat::Printer writes
// them: printable ASCII as itself, \n \r \t \" \' \\ by letter, every other byte (UTF-8 too)
// as three octal digits. Inline: the wire text printer runs it on every string it prints.
#ifndef GRAPHPORT_PROTO_TEXT_ESCAPE_H_
#define GRAPHPORT_PROTO_TEXT_ESCAPE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace graphport::proto {

// How CEscape writes each byte: 0 as itself, 1 as a backslash and a letter, 2 as "\ooo".
struct EscapeTable {
  uint8_t how[256];
  char letter[256];
  EscapeTable() {
    for (int c = 0; c < 256; ++c) {
      how[c] = c < 0x20 || c > 0x7e ? 2 : 0;
      letter[c] = 0;
    }
    const char pairs[][2] = {{'\n', 'n'}, {'\r', 'r'},  {'\t', 't'},
                             {'"', '"'},  {'\'', '\''}, {'\\', '\\'}};
    for (const auto& pair : pairs) {
      how[static_cast<uint8_t>(pair[0])] = 1;
      letter[static_cast<uint8_t>(pair[0])] = pair[1];
    }
  }
};
inline const EscapeTable kEscape;

// Eight bytes at a time while none of them needs escaping (SWAR: a byte below 0x20, above
// 0x7e, or one of " ' \), one at a time otherwise.
inline char* CEscapeTo(const uint8_t* s, size_t n, char* w) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  size_t i = 0;
  while (i < n) {
    if (n - i >= 8) {
      uint64_t x;
      std::memcpy(&x, s + i, 8);
      uint64_t special = ((x - kOnes * 0x20) & ~x) | ((x + kOnes * 1) | x);
      for (uint64_t c : {kOnes * '"', kOnes * '\'', kOnes * '\\'}) {
        uint64_t y = x ^ c;
        special |= (y - kOnes) & ~y;
      }
      if ((special & kHigh) == 0) {
        std::memcpy(w, &x, 8);
        w += 8;
        i += 8;
        continue;
      }
    }
    for (size_t stop = std::min(n, i + 8); i < stop; ++i) {
      uint8_t c = s[i];
      switch (kEscape.how[c]) {
        case 0:
          *w++ = static_cast<char>(c);
          break;
        case 1:
          *w++ = '\\';
          *w++ = kEscape.letter[c];
          break;
        default:
          *w++ = '\\';
          *w++ = static_cast<char>('0' + (c >> 6));
          *w++ = static_cast<char>('0' + ((c >> 3) & 7));
          *w++ = static_cast<char>('0' + (c & 7));
      }
    }
  }
  return w;
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_TEXT_ESCAPE_H_
