// Appending protobuf wire bytes to a std::string: varints, tags, fixed-width values, and
// length-delimited records whose length is only known once their payload is written.
#ifndef GRAPHPORT_PROTO_WIRE_APPEND_H_
#define GRAPHPORT_PROTO_WIRE_APPEND_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace graphport::proto {

inline int VarintSize(uint64_t value) {
  int size = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++size;
  }
  return size;
}

inline char* WriteVarint(uint64_t value, char* at) {
  while (value >= 0x80) {
    *at++ = static_cast<char>((value & 0x7F) | 0x80);
    value >>= 7;
  }
  *at++ = static_cast<char>(value);
  return at;
}

inline void AppendVarint(uint64_t value, std::string* out) {
  char bytes[10];
  out->append(bytes, WriteVarint(value, bytes) - bytes);
}

inline void AppendTag(int number, int wire_type, std::string* out) {
  AppendVarint(static_cast<uint64_t>(number) << 3 | static_cast<uint64_t>(wire_type), out);
}

inline void AppendFixed32(uint32_t value, std::string* out) {
  char bytes[4];
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<char>(value >> (8 * i));
  out->append(bytes, 4);
}

inline void AppendFixed64(uint64_t value, std::string* out) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(value >> (8 * i));
  out->append(bytes, 8);
}

// A length written before its payload is known: OpenLength() leaves room for the longest
// length a message can have (5 bytes: below 2 GiB) and CloseLength() fills it in once the
// payload follows. A short payload is moved back over the unused room, so small records are
// as compact as libprotobuf writes them; from kPaddedFrom bytes on, the length stays in 5
// bytes (a varint padded with 0x80 continuation bytes, which every protobuf parser reads), so
// a large payload is never moved, and nested records cost no copying that grows with depth.
inline constexpr size_t kLengthRoom = 5;
inline constexpr size_t kPaddedFrom = size_t{1} << 14;

inline size_t OpenLength(std::string* out) {
  const size_t slot = out->size();
  out->append(kLengthRoom, '\0');
  return slot;
}

inline void CloseLength(size_t slot, std::string* out) {
  const size_t length = out->size() - slot - kLengthRoom;
  char* at = &(*out)[slot];
  if (length < kPaddedFrom) {
    const int size = VarintSize(length);
    std::memmove(at + size, at + kLengthRoom, length);
    WriteVarint(length, at);
    out->resize(slot + size + length);
    return;
  }
  for (size_t i = 0; i + 1 < kLengthRoom; ++i) {
    at[i] = static_cast<char>(((length >> (7 * i)) & 0x7F) | 0x80);
  }
  at[kLengthRoom - 1] = static_cast<char>(length >> (7 * (kLengthRoom - 1)));
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_APPEND_H_
