// The protobuf JSON mapping's scalar values (proto_json_writer.h): a field's JSON value, or a
// map key, checked against the field's type and turned into the bits or bytes that go on the
// wire. The range checks themselves are proto_json_scalars.h's.
#include <cstdint>
#include <string>

#include "core/base64.h"
#include "proto/proto_json_scalars.h"
#include "proto/proto_json_writer.h"

namespace graphport::proto::proto_json_internal {

template <typename Read>
bool WireWriter::IntegerBits(FieldType type, const Read& read, uint64_t* bits) {
  switch (type) {
    case FieldType::kInt32:
    case FieldType::kSint32:
    case FieldType::kSfixed32: {
      int32_t v = 0;
      read(&v);
      *bits = Signed32Bits(type, v);
      return true;
    }
    case FieldType::kInt64:
    case FieldType::kSint64:
    case FieldType::kSfixed64: {
      int64_t v = 0;
      read(&v);
      *bits = Signed64Bits(type, v);
      return true;
    }
    case FieldType::kUint32:
    case FieldType::kFixed32: {
      uint32_t v = 0;
      read(&v);
      *bits = v;
      return true;
    }
    case FieldType::kUint64:
    case FieldType::kFixed64: {
      uint64_t v = 0;
      read(&v);
      *bits = v;
      return true;
    }
    case FieldType::kBool: {
      bool v = false;
      read(&v);
      *bits = v ? 1 : 0;
      return true;
    }
    default:
      return false;
  }
}

WireValue WireWriter::Encode(const json& value, const FieldSchema& field,
                             const MessageSchema& owner) {
  WireValue wire;
  if (IntegerBits(
          field.type, [&](auto* v) { Check(JsonToScalar(value, v)); }, &wire.bits)) {
    return wire;
  }
  switch (field.type) {
    case FieldType::kFloat: {
      float v = 0;
      Check(JsonToScalar(value, &v));
      wire.bits = FloatBits(v);
      return wire;
    }
    case FieldType::kDouble: {
      double v = 0;
      Check(JsonToScalar(value, &v));
      wire.bits = DoubleBits(v);
      return wire;
    }
    case FieldType::kEnum:
      // Enums go on the wire as int32 does: a negative number sign-extended to 64 bits.
      wire.bits = static_cast<uint64_t>(static_cast<int64_t>(EnumNumber(value, field, owner)));
      return wire;
    case FieldType::kString:
    case FieldType::kBytes: {
      const bool bytes = field.type == FieldType::kBytes;
      if (!value.is_string()) {
        Fail(std::string("expected a string") + (bytes ? " (base64)" : "") + ", got " +
             JsonForMessage(value));
      }
      const std::string& text = value.get_ref<const std::string&>();
      if (!bytes) {
        CheckUtf8(text, owner);
        wire.text = text;
        return wire;
      }
      decoded_.clear();
      if (!Base64DecodeEitherAlphabet(text, &decoded_)) {
        Fail("expected base64 (standard or URL-safe alphabet), got " + JsonForMessage(value));
      }
      wire.text = decoded_;
      return wire;
    }
    default:  // messages and groups
      break;
  }
  Fail("internal: " + std::string(owner.full_name) + "." + std::string(field.name) +
           " is not a scalar field",
       ErrorCode::kInternal);
}

// A map key, which JSON always spells as a string; integer and bool keys are converted.
WireValue WireWriter::EncodeKey(const std::string& key, const FieldSchema& field,
                                const MessageSchema& entry) {
  WireValue wire;
  if (field.type == FieldType::kString) {
    CheckUtf8(key, entry);
    wire.text = key;
    return wire;
  }
  if (IntegerBits(
          field.type, [&](auto* v) { CheckKey(KeyToScalar(key, v)); }, &wire.bits)) {
    return wire;
  }
  Fail("internal: " + std::string(entry.full_name) + "." + std::string(field.name) +
           " cannot be a map key",
       ErrorCode::kInternal);
}

// An enum value by name ("DT_FLOAT") or number (1). proto3 enums are open, so any int32 is
// kept; a proto2 message's enum fields take only their enum's numbers (libprotobuf 3.21
// decides by the message's syntax, and would keep another number as an unknown field).
int32_t WireWriter::EnumNumber(const json& value, const FieldSchema& field,
                               const MessageSchema& owner) {
  const EnumSchema& type = *field.enumeration;
  if (value.is_string()) {
    const std::string& name = value.get_ref<const std::string&>();
    const EnumValueSchema* found = type.FindByName(name);
    if (found == nullptr) Fail("no value \"" + name + "\" in enum " + std::string(type.full_name));
    return found->number;
  }
  int32_t number = 0;
  if (!value.is_number() || !JsonToScalar(value, &number).empty()) {
    Fail("expected a value of enum " + std::string(type.full_name) + " (a name or an int32), got " +
         JsonForMessage(value));
  }
  if (!owner.proto3 && type.FindByNumber(number) == nullptr) {
    Fail("no value " + std::to_string(number) + " in enum " + std::string(type.full_name));
  }
  return number;
}

}  // namespace graphport::proto::proto_json_internal
