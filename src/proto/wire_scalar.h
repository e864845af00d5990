// The scalar pieces of protobuf's wire format, both ways: varints and tags written, zigzag and
// little-endian fixed widths each way. For code that makes or reads wire bytes with the schema
// tables instead of libprotobuf's generated code: the JSON mapping writes messages with them
// (proto_json.cc) and the TF.js writer reads them (tfjs/proto_to_json.cc). Records themselves
// are read with proto/wire_reader.h.
#ifndef GRAPHPORT_PROTO_WIRE_SCALAR_H_
#define GRAPHPORT_PROTO_WIRE_SCALAR_H_

#include <cstdint>
#include <cstring>
#include <string>

namespace graphport::proto {

// Bytes the varint of `value` takes (1..10).
inline int VarintSize(uint64_t value) {
  int n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

// Writes the varint of `value` at `p`, which has room for VarintSize(value) bytes; returns the
// end.
inline char* WriteVarint(uint64_t value, char* p) {
  while (value >= 0x80) {
    *p++ = static_cast<char>(value | 0x80);
    value >>= 7;
  }
  *p++ = static_cast<char>(value);
  return p;
}

inline void AppendVarint(std::string* out, uint64_t value) {
  char buffer[10];
  out->append(buffer, WriteVarint(value, buffer) - buffer);
}

inline void AppendTag(std::string* out, int number, int wire_type) {
  AppendVarint(out, (static_cast<uint64_t>(number) << 3) | static_cast<uint64_t>(wire_type));
}

inline void AppendFixed32(std::string* out, uint32_t value) {
  const char bytes[4] = {static_cast<char>(value), static_cast<char>(value >> 8),
                         static_cast<char>(value >> 16), static_cast<char>(value >> 24)};
  out->append(bytes, 4);
}

inline void AppendFixed64(std::string* out, uint64_t value) {
  AppendFixed32(out, static_cast<uint32_t>(value));
  AppendFixed32(out, static_cast<uint32_t>(value >> 32));
}

inline uint32_t ReadFixed32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

inline uint64_t ReadFixed64(const uint8_t* p) {
  return ReadFixed32(p) | static_cast<uint64_t>(ReadFixed32(p + 4)) << 32;
}

// The same from a string's bytes (checkpoint tables keep their fixed widths little-endian too).
inline uint32_t ReadFixed32(const char* p) {
  return ReadFixed32(reinterpret_cast<const uint8_t*>(p));
}
inline uint64_t ReadFixed64(const char* p) {
  return ReadFixed64(reinterpret_cast<const uint8_t*>(p));
}

// sint32 and sint64 on the wire: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
constexpr uint32_t ZigZagEncode32(int32_t value) {
  return (static_cast<uint32_t>(value) << 1) ^ static_cast<uint32_t>(value >> 31);
}
constexpr uint64_t ZigZagEncode64(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}
constexpr int32_t ZigZagDecode32(uint32_t value) {
  return static_cast<int32_t>((value >> 1) ^ (~(value & 1) + 1));
}
constexpr int64_t ZigZagDecode64(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

inline uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}
inline uint64_t DoubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}
inline float BitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}
inline double BitsToDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, 8);
  return value;
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_SCALAR_H_
