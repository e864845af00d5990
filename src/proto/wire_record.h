// One field record of protobuf wire bytes: where its tag, payload and end are. For walks over
// bytes that are copied or spliced rather than parsed (tf/wire_graph.h, tf/wire_write.h).
#ifndef GRAPHPORT_PROTO_WIRE_RECORD_H_
#define GRAPHPORT_PROTO_WIRE_RECORD_H_

#include <cstdint>
#include <string_view>

namespace graphport::proto {

struct Record {
  int number = 0;
  int wire_type = 0;
  const uint8_t* start = nullptr;  // the tag
  const uint8_t* value = nullptr;  // a length-delimited field's payload
  uint64_t length = 0;             // of that payload
  const uint8_t* end = nullptr;    // past the record
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(value), length);
  }
};

// Reads a varint at `*p`, moving past it; false when it is cut off or longer than 64 bits.
bool ReadVarint(const uint8_t** p, const uint8_t* end, uint64_t* value);

// Reads the record at `p`; false when it is cut off or is a group (left to libprotobuf).
bool ReadRecord(const uint8_t* p, const uint8_t* end, Record* record);

// The payload of the first length-delimited record of field `number` in `message`'s bytes;
// false when there is none (or the bytes end before one is found).
bool FindLengthDelimited(std::string_view message, int number, std::string_view* value);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_RECORD_H_
