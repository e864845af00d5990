#include "tf/checkpoint/slice_key.h"

#include "tf/checkpoint/checkpoint.h"

namespace graphport::tf::checkpoint {

// A length byte, then the value's big-endian bytes without leading zeros (0: the length byte
// alone).
void AppendOrderedUnsigned(uint64_t value, std::string* out) {
  char bytes[8];
  int length = 0;
  for (; value > 0; value >>= 8) bytes[7 - length++] = static_cast<char>(value & 0xFF);
  out->push_back(static_cast<char>(length));
  out->append(bytes + 8 - length, length);
}

// n bytes, big-endian, sign-extended, whose first bits say n: as many leading bits equal to 1
// (for a value >= 0; 0 for a negative one, the bytes being xored with the sign) as the bytes
// beyond the first, then the opposite bit. n is the fewest bytes whose 7 n - 1 payload bits
// hold the value's magnitude and sign: values in [-64, 64) take one byte, 0x80 ^ value.
void AppendOrderedSigned(int64_t value, std::string* out) {
  uint64_t magnitude = value < 0 ? ~static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  int bits = 0;
  for (uint64_t m = magnitude; m > 0; m >>= 1) ++bits;
  int length = bits / 7 + 1;  // 1..10
  // The value sign-extended to 10 big-endian bytes, of which the last `length` are written.
  uint8_t buffer[10];
  uint8_t sign = value < 0 ? 0xFF : 0x00;
  buffer[0] = buffer[1] = sign;
  for (int i = 0; i < 8; ++i) {
    buffer[2 + i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (56 - 8 * i));
  }
  uint8_t* first = buffer + 10 - length;
  // The header: `length` one-bits, xored into the first byte (and the second past 8 bytes).
  if (length <= 8) {
    first[0] ^= static_cast<uint8_t>(0xFF00u >> length);
  } else {
    first[0] ^= 0xFF;
    first[1] ^= static_cast<uint8_t>(0xFF00u >> (length - 8));
  }
  out->append(reinterpret_cast<const char*>(first), length);
}

// The bytes with 0x00 written 00 FF and 0xFF written FF 00, then the terminator 00 01.
void AppendOrderedString(std::string_view value, std::string* out) {
  for (char c : value) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xFF');
    if (c == '\xFF') out->push_back('\0');
  }
  out->append("\0\x01", 2);
}

std::string EncodeSliceKey(std::string_view name, const std::vector<SliceExtent>& extents) {
  std::string key;
  AppendOrderedUnsigned(0, &key);
  AppendOrderedString(name, &key);
  AppendOrderedUnsigned(extents.size(), &key);
  for (const SliceExtent& extent : extents) {
    AppendOrderedSigned(extent.length < 0 ? 0 : extent.start, &key);
    AppendOrderedSigned(extent.length < 0 ? -1 : extent.length, &key);
  }
  return key;
}

}  // namespace graphport::tf::checkpoint
