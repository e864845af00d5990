// graphport's one reader of protobuf wire bytes: varints, tags, fixed widths, length-delimited
// payloads, groups, bounds and the nesting limit. Every walk over wire bytes reads them with
// this: the walks that copy or splice bytes (tf/wire_graph.h), the checks and printers of
// src/proto (wire_check, wire_scan, wire_text, wire_groups, wire_utf8, unknown_fields), the
// stream that follows a parse (whole_string_stream) and the TF.js writer's JSON printer. So
// they agree on what a record is, how deep a message may nest and where bytes go wrong.
//
// Two levels: inline pieces for the walks that run once per byte of a graph (ReadVarint,
// ReadRecord, SkipValue), which say only yes or no; and WireReader, a cursor over one
// message's records that reads groups whole and says what went wrong and at which byte.
#ifndef GRAPHPORT_PROTO_WIRE_READER_H_
#define GRAPHPORT_PROTO_WIRE_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/limits.h"
#include "proto/schema.h"

namespace graphport::proto {

// Field numbers run from 1 to 2^29 - 1.
inline constexpr uint64_t kMaxFieldNumber = (uint64_t{1} << 29) - 1;
// A varint of 64 bits takes at most ten bytes.
inline constexpr int kMaxVarintBytes = 10;

// The one nesting limit of every walk is kMaxProtoNesting (core/limits.h), 100: libprotobuf's
// default recursion limit, which graphport's binary parse keeps. A walk must stop where the
// parse stops: one that went deeper would call bytes valid (and keep them unparsed) that
// libprotobuf refuses, and one that stopped earlier would refuse what loads. The top message
// is at depth 0 and a message or group nested in one at depth d is at d + 1; a walk enters
// one at depth d only when this holds, as libprotobuf's parser does.
constexpr bool WithinNesting(int depth) { return depth <= kMaxProtoNesting; }

// Bytes of a fixed-width wire type's value (8 or 4), 0 for the others.
constexpr int FixedWidth(int wire_type) {
  return wire_type == kWireFixed64 ? 8 : wire_type == kWireFixed32 ? 4 : 0;
}

// --- Varints ---------------------------------------------------------------------------------

// Reads a varint at `*p`, moving past it; false when it is cut off by `end` or runs past ten
// bytes (then `*p` is left anywhere). A tenth byte's bits past the 64th are dropped, as
// libprotobuf drops them. Inline with the one-byte case first: tags and short lengths, most of
// what a walk reads.
bool ReadVarintSlow(const uint8_t** p, const uint8_t* end, uint64_t* value);
inline bool ReadVarint(const uint8_t** p, const uint8_t* end, uint64_t* value) {
  if (*p < end && **p < 0x80) {
    *value = *(*p)++;
    return true;
  }
  return ReadVarintSlow(p, end, value);
}

// The same, and `*minimal` says whether serialising the value gives these bytes back: false
// for padding (trailing 0x80 bytes) and for a tenth byte with bits past the 64th.
bool ReadVarintSlow(const uint8_t** p, const uint8_t* end, uint64_t* value, bool* minimal);
inline bool ReadVarint(const uint8_t** p, const uint8_t* end, uint64_t* value, bool* minimal) {
  if (*p < end && **p < 0x80) {
    *value = *(*p)++;
    *minimal = true;
    return true;
  }
  return ReadVarintSlow(p, end, value, minimal);
}

// A varint read one byte at a time, for a stream that sees its input in chunks
// (proto/whole_string_stream.h).
class VarintBuilder {
 public:
  enum Step { kMore, kDone, kOverlong };
  // Adds the next byte. kDone: value() is the varint, and the builder is ready for the next.
  Step Add(uint8_t byte) {
    if (shift_ >= 7 * kMaxVarintBytes) return kOverlong;
    value_ |= static_cast<uint64_t>(byte & 0x7f) << (shift_ & 63);
    shift_ += 7;
    if (byte & 0x80) return kMore;
    done_ = value_;
    value_ = 0;
    shift_ = 0;
    return kDone;
  }
  uint64_t value() const { return done_; }
  bool started() const { return shift_ > 0; }

 private:
  uint64_t value_ = 0;
  uint64_t done_ = 0;
  int shift_ = 0;
};

// --- Records ---------------------------------------------------------------------------------

// One field record: where its tag, payload and end are.
struct Record {
  int number = 0;
  int wire_type = 0;
  const uint8_t* start = nullptr;  // the tag
  const uint8_t* value = nullptr;  // a length-delimited field's payload, a group's body
  uint64_t length = 0;             // of that payload (as claimed, when it is cut off)
  uint64_t varint = 0;             // a varint field's value
  const uint8_t* end = nullptr;    // past the record (past a group's end tag)
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(value), length);
  }
};

// Moves `*p` past the value of a record of `wire_type` (varint, fixed or length-delimited)
// whose tag it is past; false when the value is cut off, or for a group or wire type 6 or 7.
inline bool SkipValue(const uint8_t** p, const uint8_t* end, int wire_type) {
  uint64_t value;
  switch (wire_type) {
    case kWireVarint:
      return ReadVarint(p, end, &value);
    case kWireFixed64:
    case kWireFixed32:
      if (end - *p < FixedWidth(wire_type)) return false;
      *p += FixedWidth(wire_type);
      return true;
    case kWireLength:
      if (!ReadVarint(p, end, &value) || value > static_cast<uint64_t>(end - *p)) return false;
      *p += value;
      return true;
    default:
      return false;
  }
}

// Reads the record at `p`; false when it is cut off or is a group (which graphport's readers
// refuse: proto/wire_groups.h; WireReader reads them). Forced inline: edits, copies and
// inspect call it once per record of every node, and in Emscripten's build a call keeps the
// cursor and the record in linear memory.
[[gnu::always_inline]] inline bool ReadRecord(const uint8_t* p, const uint8_t* end, Record* r) {
  uint64_t tag, value;
  r->start = p;
  if (!ReadVarint(&p, end, &tag)) return false;
  r->number = static_cast<int>(tag >> 3);
  r->wire_type = static_cast<int>(tag & 7);
  switch (r->wire_type) {
    case kWireVarint:
      if (!ReadVarint(&p, end, &r->varint)) return false;
      break;
    case kWireFixed64:
      if (end - p < 8) return false;
      p += 8;
      break;
    case kWireFixed32:
      if (end - p < 4) return false;
      p += 4;
      break;
    case kWireLength:
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
    if (r.number == number && r.wire_type == kWireLength) {
      *value = r.view();
      return true;
    }
  }
  return false;
}

// --- A checked walk --------------------------------------------------------------------------

// Why a WireReader stopped before the end of its bytes.
enum class WireFault : uint8_t {
  kNone,
  kTruncated,       // a tag, value or payload runs past the end of the bytes
  kOverlongVarint,  // a varint runs past ten bytes
  kBadFieldNumber,  // field number 0, or past kMaxFieldNumber
  kBadWireType,     // wire type 6 or 7
  kGroupMismatch,   // an end-group tag with no start-group, or of another field number
  kUnclosedGroup,   // a start-group tag whose end-group tag does not come
  kTooDeep,         // a message or group nested past kMaxProtoNesting
};

// "truncated", "overlong varint", ...: the fault's name.
const char* WireFaultName(WireFault fault);

// The records of one message's bytes, one after another, with what stopped them and where.
// A group (start-group tag) is read whole: its record's payload is its body and its end is
// past the matching end-group tag. Offsets count from `base`, the start of the input the bytes
// are part of, so that a fault names its byte in the file.
class WireReader {
 public:
  // `bytes` are one message at nesting `depth`; `base` defaults to their own start.
  explicit WireReader(std::string_view bytes, int depth = 0, const uint8_t* base = nullptr);

  // Reads the next record; false at the end of the bytes (fault() is kNone) or at a fault.
  // At a fault `*r` holds what was read: `start` always; `number` and `wire_type` once the
  // tag was read (wire_type -1 before); a cut-off length-delimited record's `value` and
  // claimed `length`.
  bool Next(Record* r) {
    // A one-byte tag (fields 1-15) has a valid number: the common case reads as ReadRecord.
    if (p_ < end_ && *p_ < 0x80 && *p_ >= 8 && ReadRecord(p_, end_, r)) {
      p_ = r->end;
      return true;
    }
    return NextSlow(r);
  }

  // A reader of a record's payload (a nested message or a group's body) one level deeper.
  // Past the nesting limit it reads nothing: its first Next() faults with kTooDeep at the
  // record's tag.
  WireReader Nested(const Record& r) const;

  WireFault fault() const { return fault_; }
  // Where the fault is, from `base`: the tag of the record that is cut off, overlong, of a
  // bad number or wire type, or too deep; a mismatched end-group tag; an unclosed group's
  // start tag.
  size_t fault_offset() const { return fault_offset_; }
  // "truncated at byte 12", for messages.
  std::string FaultText() const;
  // Offset of `p` (within the bytes) from `base`.
  size_t Offset(const uint8_t* p) const { return static_cast<size_t>(p - base_); }
  int depth() const { return depth_; }
  // Where the bytes begin and end.
  const uint8_t* begin() const { return begin_; }
  const uint8_t* end() const { return end_; }
  // The bytes before record `r` (one of this reader's): they count the record's index among
  // its field's values, for the paths errors give (wire_path.h).
  std::string_view Before(const Record& r) const {
    return std::string_view(reinterpret_cast<const char*>(begin_),
                            static_cast<size_t>(r.start - begin_));
  }

 private:
  WireReader(const uint8_t* begin, const uint8_t* end, int depth, const uint8_t* base,
             const uint8_t* too_deep_at);
  bool NextSlow(Record* r);
  bool Fail(WireFault fault, const uint8_t* at);
  // Past the body of a group of `number` whose start tag `*p` is past, to its end tag.
  bool SkipGroup(const uint8_t** p, int number, int depth, const uint8_t** body_end);

  const uint8_t* begin_;
  const uint8_t* p_;
  const uint8_t* end_;
  const uint8_t* base_;
  int depth_;
  WireFault fault_ = WireFault::kNone;
  size_t fault_offset_ = 0;
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_READER_H_
