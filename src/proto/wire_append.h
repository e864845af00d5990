// Appending length-delimited protobuf records to a std::string when their length is only
// known once their payload is written (the scalar pieces are in wire_scalar.h).
#ifndef GRAPHPORT_PROTO_WIRE_APPEND_H_
#define GRAPHPORT_PROTO_WIRE_APPEND_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "proto/wire_scalar.h"

namespace graphport::proto {

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
