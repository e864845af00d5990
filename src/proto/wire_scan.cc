#include "proto/wire_scan.h"

#include <cstdint>
#include <string>

namespace graphport::proto {
namespace {

constexpr int kMaxScanDepth = 8;

enum WireType {
  kVarint = kWireVarint,
  kFixed64 = kWireFixed64,
  kLengthDelimited = kWireLength,
  kStartGroup = kWireStartGroup,
  kEndGroup = kWireEndGroup,
  kFixed32 = kWireFixed32
};

const char* WireTypeName(int wire_type) {
  switch (wire_type) {
    case kVarint:
      return "varint";
    case kFixed64:
      return "fixed64";
    case kLengthDelimited:
      return "length-delimited";
    case kStartGroup:
      return "start-group";
    case kEndGroup:
      return "end-group";
    case kFixed32:
      return "fixed32";
    default:
      return "invalid";
  }
}

// Reads a varint at `pos`; false if it runs past `end` or over 10 bytes.
bool ReadVarint(const uint8_t* data, size_t end, size_t* pos, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= end) return false;
    uint8_t byte = data[(*pos)++];
    result |= uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

class Scanner {
 public:
  Scanner(std::string_view bytes, bool complete)
      : data_(reinterpret_cast<const uint8_t*>(bytes.data())), complete_(complete) {}

  // Returns false when the walk must stop (conflict, or the prefix ran out).
  bool Scan(size_t begin, size_t end, const MessageSchema& type, int depth, bool end_is_input_end) {
    size_t pos = begin;
    while (pos < end) {
      size_t field_start = pos;
      uint64_t tag;
      if (!ReadVarint(data_, end, &pos, &tag)) {
        return VarintFailed(field_start, pos, end, end_is_input_end,
                            "a field tag runs past the end");
      }
      int number = static_cast<int>(tag >> 3);
      int wire_type = static_cast<int>(tag & 7);
      if (tag >> 3 > 536870911 || number == 0) {
        return Conflict(field_start, "invalid field number " + std::to_string(tag >> 3));
      }
      if (wire_type > kFixed32 || wire_type == kStartGroup || wire_type == kEndGroup) {
        // TensorFlow's schemas have no groups, so a group tag is as wrong as 6 or 7: bytes
        // that hold one are not this message (keras_metadata.pb is no GraphDef). A reader
        // that meets one past the detection window refuses it by its field and node
        // (proto/wire_groups.h).
        result_.group = wire_type == kStartGroup || wire_type == kEndGroup;
        return Conflict(field_start, "field " + std::to_string(number) + " has wire type " +
                                         WireTypeName(wire_type));
      }
      const FieldSchema* field = type.FindFieldByNumber(number);
      int expected = field ? field->wire_type() : -1;
      bool packed_ok = field && field->packable() && wire_type == kLengthDelimited;
      if (field && wire_type != expected && !packed_ok) {
        // libprotobuf keeps a known number with another wire type as an unknown field, and an
        // export writes it back: so it is no conflict (else a SavedModel that loads exports a
        // MetaGraphDef that does not), only a strong hint against this schema.
        ++result_.mismatched_fields;
        if (result_.first_mismatch.empty()) {
          result_.first_mismatch =
              "field " + std::to_string(number) + " (" + std::string(field->name) + " of " +
              std::string(type.name) + ") has wire type " + WireTypeName(wire_type) +
              ", expected " + WireTypeName(expected) + " at byte " + std::to_string(field_start);
        }
        field = nullptr;  // its payload is skipped by its own wire type, like an unknown one
      } else if (field) {
        ++result_.known_fields;
      } else {
        ++result_.unknown_fields;
      }
      uint64_t value;
      switch (wire_type) {
        case kVarint:
          if (!ReadVarint(data_, end, &pos, &value)) {
            return VarintFailed(field_start, pos, end, end_is_input_end,
                                "a varint runs past the end");
          }
          break;
        case kFixed64:
        case kFixed32: {
          size_t width = wire_type == kFixed64 ? 8 : 4;
          if (end - pos < width)
            return Cut(field_start, end_is_input_end, "a fixed field runs past the end");
          pos += width;
          break;
        }
        case kLengthDelimited: {
          if (!ReadVarint(data_, end, &pos, &value)) {
            return VarintFailed(field_start, pos, end, end_is_input_end,
                                "a length runs past the end");
          }
          if (value > end - pos && end_is_input_end && !complete_) {
            // The payload goes on past the prefix we hold: check what we have of it.
            if (field && field->type == FieldType::kMessage && depth < kMaxScanDepth) {
              Scan(pos, end, *field->message, depth + 1, true);
            }
            return false;
          }
          if (value > end - pos) {
            return Cut(field_start, end_is_input_end,
                       "field " + std::to_string(number) + " claims " + std::to_string(value) +
                           " bytes but only " + std::to_string(end - pos) + " remain");
          }
          size_t payload_end = pos + static_cast<size_t>(value);
          if (field && field->type == FieldType::kMessage && depth < kMaxScanDepth) {
            if (!Scan(pos, payload_end, *field->message, depth + 1, false)) return false;
          }
          pos = payload_end;
          break;
        }
      }
    }
    return true;
  }

  WireScan result() const { return result_; }

 private:
  bool Conflict(size_t offset, std::string reason) {
    result_.conflict = true;
    result_.conflict_offset = offset;
    result_.conflict_reason = std::move(reason);
    return false;
  }

  // ReadVarint failed: before `end` it means more than 10 bytes, a malformed varint rather than
  // a cut-off one.
  bool VarintFailed(size_t field_start, size_t pos, size_t end, bool end_is_input_end,
                    std::string reason) {
    if (pos < end) return Conflict(field_start, "a varint is longer than 10 bytes");
    return Cut(field_start, end_is_input_end, std::move(reason));
  }

  // A field cut off by the end of the bytes: fine when we only hold a prefix of the input,
  // a truncated input when the bytes are all of it, and a conflict when the cut is inside a
  // payload whose own length said it was longer.
  bool Cut(size_t offset, bool end_is_input_end, std::string reason) {
    if (!end_is_input_end) return Conflict(offset, std::move(reason));
    if (complete_) {
      result_.truncated = true;
      result_.conflict_offset = offset;
      result_.conflict_reason = "the input ends inside a field (" + reason + ")";
    }
    return false;
  }

  const uint8_t* data_;
  bool complete_;
  WireScan result_;
};

}  // namespace

WireScan ScanWire(std::string_view bytes, const MessageSchema& type, bool complete) {
  Scanner scanner(bytes, complete);
  scanner.Scan(0, bytes.size(), type, 0, true);
  return scanner.result();
}

}  // namespace graphport::proto
