// What graphport knows of a protobuf schema at run time: message types, their fields and
// enums, as constant tables generated at build time from the .proto files
// (scripts/gen-proto-schema.mjs, from protoc's descriptor set). It stands in for libprotobuf's
// Descriptor and Reflection, which only its full runtime has: the generated message classes
// are lite (parse, serialize, accessors), and everything that needs a field's name, type or
// number (text format, JSON, the wire checks, error paths) reads these tables and the
// message's wire bytes instead. The WebAssembly module then links libprotobuf-lite alone.
#ifndef GRAPHPORT_PROTO_SCHEMA_H_
#define GRAPHPORT_PROTO_SCHEMA_H_

#include <cstdint>
#include <string_view>

namespace graphport::proto {

// The numbers of descriptor.proto's FieldDescriptorProto.Type.
enum class FieldType : uint8_t {
  kDouble = 1,
  kFloat = 2,
  kInt64 = 3,
  kUint64 = 4,
  kInt32 = 5,
  kFixed64 = 6,
  kFixed32 = 7,
  kBool = 8,
  kString = 9,
  kGroup = 10,  // never generated: the generator refuses groups
  kMessage = 11,
  kBytes = 12,
  kUint32 = 13,
  kEnum = 14,
  kSfixed32 = 15,
  kSfixed64 = 16,
  kSint32 = 17,
  kSint64 = 18,
};

enum WireType : int {
  kWireVarint = 0,
  kWireFixed64 = 1,
  kWireLength = 2,
  kWireStartGroup = 3,
  kWireEndGroup = 4,
  kWireFixed32 = 5,
};

// The wire type one value of `type` is written with (a packed field's record is
// length-delimited instead).
constexpr int WireTypeOf(FieldType type) {
  switch (type) {
    case FieldType::kDouble:
    case FieldType::kFixed64:
    case FieldType::kSfixed64:
      return kWireFixed64;
    case FieldType::kFloat:
    case FieldType::kFixed32:
    case FieldType::kSfixed32:
      return kWireFixed32;
    case FieldType::kString:
    case FieldType::kBytes:
    case FieldType::kMessage:
      return kWireLength;
    case FieldType::kGroup:
      return kWireStartGroup;
    default:
      return kWireVarint;
  }
}

// Bytes one value of a scalar type takes in memory once parsed (for packed fields' estimates).
constexpr int MemoryWidthOf(FieldType type) {
  switch (type) {
    case FieldType::kInt64:
    case FieldType::kUint64:
    case FieldType::kSint64:
    case FieldType::kFixed64:
    case FieldType::kSfixed64:
    case FieldType::kDouble:
      return 8;
    case FieldType::kBool:
      return 1;
    default:
      return 4;
  }
}

struct EnumValueSchema {
  std::string_view name;
  int32_t number;
};

struct EnumSchema {
  std::string_view full_name;
  const EnumValueSchema* values;  // in declaration order (the first is the default)
  int value_count;

  // The first value declared with `number` (aliases share one): the name text format and JSON
  // print. Null when no value has it (an open enum's unknown number).
  const EnumValueSchema* FindByNumber(int32_t number) const;
  const EnumValueSchema* FindByName(std::string_view name) const;
};

struct MessageSchema;

struct FieldSchema {
  std::string_view name;       // as in the .proto file: text format's and error paths' name
  std::string_view json_name;  // lowerCamelCase, as protoc derives it
  int32_t number;
  FieldType type;
  bool repeated;
  bool packed;    // a repeated scalar written as one length-delimited record
  bool map;       // a map field; `message` is its entry type (key 1, value 2)
  bool presence;  // has explicit presence: a message, a oneof member, proto3 `optional`
  int16_t oneof;  // index into the owner's oneofs, -1 outside a (real) oneof
  const MessageSchema* message;   // kMessage
  const EnumSchema* enumeration;  // kEnum

  int wire_type() const { return WireTypeOf(type); }
  // A repeated number type, which a parser takes packed or not whatever `packed` says.
  bool packable() const {
    return repeated && type != FieldType::kString && type != FieldType::kBytes &&
           type != FieldType::kMessage && type != FieldType::kGroup;
  }
  bool is_text() const { return type == FieldType::kString || type == FieldType::kBytes; }
};

// How a message type is spelled in JSON and text format beyond its fields.
enum class WellKnown : uint8_t {
  kNone,
  kAny,      // type_url (1) + value (2): JSON {"@type": ..., fields}; text [url] { ... }
  kWrapper,  // one field `value` (1): JSON gives the bare value
  // Timestamp, Duration, FieldMask, Struct, Value, ListValue: a JSON form of its own ("1.5s")
  // that graphport does not implement, so JSON refuses them rather than misread them.
  kUnsupported,
};

struct SchemaSet;

// The walks that keep a table of each message type's fields by number (wire_check_tables.cc,
// wire_text.cc) table the numbers up to this and look larger ones up through the schema: a
// schema with huge numbers would make the tables large, and TensorFlow's numbers are small.
inline constexpr int kMaxTabledField = 255;

struct MessageSchema {
  std::string_view full_name;  // "tensorflow.NodeDef"
  std::string_view name;       // "NodeDef"
  const FieldSchema* fields;   // sorted by number
  int field_count;
  const std::string_view* oneofs;  // the real oneofs' names, by index
  int oneof_count;
  bool proto3;
  bool map_entry;
  WellKnown well_known;
  const SchemaSet* set;  // the set this type belongs to (for Any's type URLs)
  // Names declared `reserved`: text format skips a field of such a name instead of refusing it.
  const std::string_view* reserved_names;
  int reserved_name_count;

  const FieldSchema* FindFieldByNumber(int number) const;
  const FieldSchema* FindFieldByName(std::string_view name) const;
  const FieldSchema* FindFieldByJsonName(std::string_view json_name) const;
  bool IsReservedName(std::string_view name) const;
  const FieldSchema* begin() const { return fields; }
  const FieldSchema* end() const { return fields + field_count; }
};

// Every message type generated from one set of .proto files, sorted by full name.
struct SchemaSet {
  const MessageSchema* const* messages;
  int message_count;

  const MessageSchema* Find(std::string_view full_name) const;
};

// The schema of a generated message class; each generated set specializes it for its classes
// (in its generated header, e.g. tensorflow/schemas.h).
template <typename Message>
const MessageSchema& SchemaOf();

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_SCHEMA_H_
