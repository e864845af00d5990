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
  uint64_t varint = 0;             // a varint field's value
  const uint8_t* end = nullptr;    // past the record
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(value), length);
  }
};

// Reads a varint at `*p`, moving past it; false when it is cut off or longer than 64 bits.
// Inline with the one-byte case first: tags and short lengths, most of what a walk reads.
bool ReadVarintSlow(const uint8_t** p, const uint8_t* end, uint64_t* value);
inline bool ReadVarint(const uint8_t** p, const uint8_t* end, uint64_t* value) {
  if (*p < end && **p < 0x80) {
    *value = *(*p)++;
    return true;
  }
  return ReadVarintSlow(p, end, value);
}

// Reads the record at `p`; false when it is cut off or is a group (which the binary parse
// refuses: proto/wire_groups.h).
// Forced inline: edits, copies and inspect call it once per record of every node, and in
// Emscripten's build a call keeps the cursor and the record in linear memory.
[[gnu::always_inline]] inline bool ReadRecord(const uint8_t* p, const uint8_t* end, Record* r) {
  uint64_t tag, value;
  r->start = p;
  if (!ReadVarint(&p, end, &tag)) return false;
  r->number = static_cast<int>(tag >> 3);
  r->wire_type = static_cast<int>(tag & 7);
  switch (r->wire_type) {
    case 0:
      if (!ReadVarint(&p, end, &r->varint)) return false;
      break;
    case 1:
      if (end - p < 8) return false;
      p += 8;
      break;
    case 5:
      if (end - p < 4) return false;
      p += 4;
      break;
    case 2:
      if (!ReadVarint(&p, end, &value) || value > static_cast<uint64_t>(end - p)) return false;
      r->value = p;
      r->length = value;
      p += value;
      break;
    default:
      return false;
  }
  r->end = p;
  return true;
}

// The payload of the first length-delimited record of field `number` in `message`'s bytes;
// false when there is none (or the bytes end before one is found). Canonical bytes often hold
// the field wanted first (a map entry's key, then its value) with a one-byte tag and length:
// that is looked at before walking.
inline bool FindLengthDelimited(std::string_view message, int number, std::string_view* value) {
  const auto* p = reinterpret_cast<const uint8_t*>(message.data());
  const uint8_t* end = p + message.size();
  if (number > 0 && number < 16 && end - p >= 2 && p[0] == ((number << 3) | 2) && p[1] < 0x80 &&
      p[1] <= end - p - 2) {
    *value = std::string_view(reinterpret_cast<const char*>(p + 2), p[1]);
    return true;
  }
  Record r;
  for (; p < end && ReadRecord(p, end, &r); p = r.end) {
    if (r.number == number && r.wire_type == 2) {
      *value = r.view();
      return true;
    }
  }
  return false;
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_RECORD_H_
