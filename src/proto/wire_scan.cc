#include "proto/wire_scan.h"

#include <cstdint>
#include <string>

#include "proto/wire_reader.h"

namespace graphport::proto {
namespace {

const char* WireTypeName(int wire_type) {
  switch (wire_type) {
    case kWireVarint:
      return "varint";
    case kWireFixed64:
      return "fixed64";
    case kWireLength:
      return "length-delimited";
    case kWireStartGroup:
      return "start-group";
    case kWireEndGroup:
      return "end-group";
    case kWireFixed32:
      return "fixed32";
    default:
      return "invalid";
  }
}

class Scanner {
 public:
  Scanner(std::string_view bytes, bool complete) : bytes_(bytes), complete_(complete) {}

  // Walks the message `reader` reads. Returns false when the walk must stop (conflict, or the
  // prefix ran out). `end_is_input_end`: the reader's bytes end where the input does.
  bool Scan(WireReader reader, const MessageSchema& type, bool end_is_input_end) {
    Record r;
    while (reader.Next(&r)) {
      if (r.wire_type == kWireStartGroup) return Group(r);
      const FieldSchema* field = Classify(r, type);
      if (field == nullptr || field->type != FieldType::kMessage) continue;
      // Messages nested past the limit are left to the parse, which refuses them.
      if (!WithinNesting(reader.depth() + 1)) continue;
      if (!Scan(reader.Nested(r), *field->message, false)) return false;
    }
    return Fault(reader, r, type, end_is_input_end);
  }

  WireScan result() const { return result_; }

 private:
  // Counts a record whose tag was read: known, unknown or of another wire type. Returns its
  // field when its payload is the field's (null otherwise, and its payload is skipped).
  const FieldSchema* Classify(const Record& r, const MessageSchema& type) {
    const FieldSchema* field = type.FindFieldByNumber(r.number);
    const int expected = field ? field->wire_type() : -1;
    const bool packed_ok = field && field->packable() && r.wire_type == kWireLength;
    if (field && r.wire_type != expected && !packed_ok) {
      // libprotobuf keeps a known number with another wire type as an unknown field, and an
      // export writes it back: so it is no conflict (else a SavedModel that loads exports a
      // MetaGraphDef that does not), only a strong hint against this schema.
      ++result_.mismatched_fields;
      if (result_.first_mismatch.empty()) {
        result_.first_mismatch =
            "field " + std::to_string(r.number) + " (" + std::string(field->name) + " of " +
            std::string(type.name) + ") has wire type " + WireTypeName(r.wire_type) +
            ", expected " + WireTypeName(expected) + " at byte " + std::to_string(Offset(r.start));
      }
      return nullptr;
    }
    if (field) {
      ++result_.known_fields;
    } else {
      ++result_.unknown_fields;
    }
    return field;
  }

  // TensorFlow's schemas have no groups, so a group tag is as wrong as 6 or 7: bytes that hold
  // one are not this message (keras_metadata.pb is no GraphDef). A reader that meets one past
  // the detection window refuses it by its field and node (proto/wire_groups.h).
  bool Group(const Record& r) {
    result_.group = true;
    return Conflict(Offset(r.start), "field " + std::to_string(r.number) + " has wire type " +
                                         WireTypeName(r.wire_type));
  }

  // The reader stopped: at the end of its bytes (true), or at a fault.
  bool Fault(const WireReader& reader, const Record& r, const MessageSchema& type,
             bool end_is_input_end) {
    const size_t at = Offset(r.start);
    if (reader.fault() == WireFault::kNone) return true;
    // A group whatever went wrong inside it (a mismatch, no end, a bad record in its body).
    if (r.wire_type == kWireStartGroup || r.wire_type == kWireEndGroup) return Group(r);
    switch (reader.fault()) {
      case WireFault::kBadFieldNumber: {
        const uint8_t* p = r.start;
        uint64_t tag = 0;
        ReadVarint(&p, reader.end(), &tag);  // it was read: only its number is wrong
        return Conflict(at, "invalid field number " + std::to_string(tag >> 3));
      }
      case WireFault::kOverlongVarint:
        return Conflict(at, "a varint is longer than 10 bytes");
      case WireFault::kTruncated:
        break;
      default:  // wire types 6, 7
        return Conflict(at, "field " + std::to_string(r.number) + " has wire type " +
                                WireTypeName(r.wire_type));
    }
    if (r.wire_type < 0) return Cut(at, end_is_input_end, "a field tag runs past the end");
    const FieldSchema* field = Classify(r, type);
    if (r.wire_type == kWireVarint) return Cut(at, end_is_input_end, "a varint runs past the end");
    if (r.wire_type != kWireLength) {
      return Cut(at, end_is_input_end, "a fixed field runs past the end");
    }
    if (r.value == nullptr) return Cut(at, end_is_input_end, "a length runs past the end");
    // What the message holds past the length (the input's rest at its top level).
    const size_t remain = static_cast<size_t>(reader.end() - r.value);
    if (end_is_input_end && !complete_) {
      // The payload goes on past the prefix we hold: check what we have of it.
      if (field && field->type == FieldType::kMessage && WithinNesting(reader.depth() + 1)) {
        Record partial = r;
        partial.length = remain;
        Scan(reader.Nested(partial), *field->message, true);
      }
      return false;
    }
    return Cut(at, end_is_input_end,
               "field " + std::to_string(r.number) + " claims " + std::to_string(r.length) +
                   " bytes but only " + std::to_string(remain) + " remain");
  }

  bool Conflict(size_t offset, std::string reason) {
    result_.conflict = true;
    result_.conflict_offset = offset;
    result_.conflict_reason = std::move(reason);
    return false;
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

  size_t Offset(const uint8_t* p) const {
    return static_cast<size_t>(p - reinterpret_cast<const uint8_t*>(bytes_.data()));
  }

  std::string_view bytes_;
  bool complete_;
  WireScan result_;
};

}  // namespace

WireScan ScanWire(std::string_view bytes, const MessageSchema& type, bool complete) {
  Scanner scanner(bytes, complete);
  scanner.Scan(WireReader(bytes), type, true);
  return scanner.result();
}

}  // namespace graphport::proto
