// A 64-bit digest of bytes, for telling whether two values (a Const's tensor, an operator's
// params) are the same without keeping or showing them: the details panel shows it, and the
// export preview compares a node before and after by it. Not a checksum of any file format and
// not for security; the same on every platform (the native and WebAssembly builds agree).
#ifndef GRAPHPORT_CORE_CONTENT_DIGEST_H_
#define GRAPHPORT_CORE_CONTENT_DIGEST_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace graphport {

// Eight bytes at a time through a multiply and xor-shift mix (the finalizer of a 64-bit
// multiplicative hash), so a 100 MB tensor takes tens of milliseconds, not a second.
inline uint64_t ContentDigest(std::string_view bytes) {
  constexpr uint64_t kMultiplier = 0x9E3779B97F4A7C15ull;
  auto mix = [](uint64_t h) {
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return h;
  };
  uint64_t h = bytes.size() * kMultiplier;
  size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    uint64_t word = 0;
    std::memcpy(&word, bytes.data() + at, 8);  // both builds are little-endian
    h = (h ^ mix(word * kMultiplier)) * kMultiplier + 1;
  }
  uint64_t tail = 0;
  if (at < bytes.size()) std::memcpy(&tail, bytes.data() + at, bytes.size() - at);
  h = (h ^ mix(tail * kMultiplier + bytes.size())) * kMultiplier;
  return mix(h);
}

// The digest as 16 lower-case hex digits: JSON numbers lose 64-bit integers in JavaScript.
inline std::string ContentDigestHex(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  uint64_t h = ContentDigest(bytes);
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<size_t>(i)] = kHex[h & 15];
  return out;
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_CONTENT_DIGEST_H_
