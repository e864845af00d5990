// The protobuf JSON mapping's walk over a message (proto_json_writer.h): a JSON object's
// members as fields, found by either name, lists, maps with their keys in order, and Any with
// the type its "@type" names; then JsonToWire and JsonToMessage, which run it.
#include "proto/proto_json.h"

#include <cstdint>
#include <string_view>

#include "core/limits.h"
#include "core/message_text.h"
#include "proto/proto_json_scalars.h"
#include "proto/proto_json_writer.h"
#include "proto/wire_scalar.h"

namespace graphport::proto {
namespace proto_json_internal {
namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;

bool IsSigned(FieldType type) {
  switch (type) {
    case FieldType::kInt32:
    case FieldType::kInt64:
    case FieldType::kSint32:
    case FieldType::kSint64:
    case FieldType::kSfixed32:
    case FieldType::kSfixed64:
      return true;
    default:
      return false;
  }
}

}  // namespace

void WireWriter::Message(const json& value, const MessageSchema& type, bool any_body) {
  // Only messages recurse here, so this bounds the stack whatever the input.
  if (++depth_ > kMaxProtoNesting) NestingTooDeep();
  switch (any_body ? WellKnown::kNone : type.well_known) {
    case WellKnown::kAny:
      Any(value, type);
      break;
    case WellKnown::kWrapper:
      // libprotobuf also takes the object form {"value": 3}; so do we.
      if (value.is_object()) {
        Object(value, type, false);
      } else {
        Singular(value, *type.FindFieldByNumber(1), type);
      }
      break;
    case WellKnown::kUnsupported:
      Fail(std::string(type.full_name) + " in JSON is not supported: no graphport schema uses it",
           ErrorCode::kUnsupported);
    case WellKnown::kNone:
      Object(value, type, any_body);
      break;
  }
  --depth_;
}

void WireWriter::Object(const json& value, const MessageSchema& type, bool any_body) {
  if (!value.is_object()) {
    Fail("expected a JSON object for " + std::string(type.full_name) + ", got " +
         JsonForMessage(value));
  }
  const auto& object = value.get_ref<const json::object_t&>();
  const size_t region = out_->size();
  const size_t first_piece = pieces_.size();
  // The member set so far of each of the type's oneofs.
  const size_t oneof_base = set_oneofs_.size();
  set_oneofs_.resize(oneof_base + type.oneof_count, nullptr);
  for (const auto& [key, item] : object) {
    if (any_body && key == "@type") continue;
    path_.push_back({Segment::Kind::kField, key, 0});
    const FieldSchema* field = FindField(type, key);
    if (field == nullptr) Fail("no such field in " + std::string(type.full_name));
    // Paths use .proto names, as TensorFlow's docs and the text format do, whichever
    // spelling the input used; an unknown field is named as it was written.
    path_.back().name = field->name;
    // JSON objects cannot repeat a key, but a field can still be named twice.
    std::string_view other = key == field->name ? field->json_name : field->name;
    if (other != key && object.find(other) != object.end()) {
      Fail("given twice, as '" + std::string(field->json_name) + "' and '" +
           std::string(field->name) + "'");
    }
    if (!item.is_null()) {  // null leaves the field unset
      if (field->oneof >= 0) {
        const FieldSchema*& set = set_oneofs_[oneof_base + field->oneof];
        if (set != nullptr) {
          Fail("'" + std::string(set->name) + "' of the same oneof '" +
               std::string(type.oneofs[field->oneof]) + "' is set already");
        }
        set = field;
      }
      const size_t begin = out_->size();
      Field(item, *field, type);
      if (out_->size() != begin) {
        pieces_.push_back({static_cast<uint64_t>(field->number), begin, out_->size()});
      }
    }
    path_.pop_back();
  }
  set_oneofs_.resize(oneof_base);
  PutInOrder(region, first_piece, false);
}

// The field named `key`, by its JSON name or its .proto name.
const FieldSchema* WireWriter::FindField(const MessageSchema& type, std::string_view key) {
  for (const FieldSchema& field : type) {
    if (field.json_name == key || field.name == key) return &field;
  }
  return nullptr;
}

void WireWriter::Field(const json& value, const FieldSchema& field, const MessageSchema& owner) {
  if (field.map) {
    Map(value, field);
  } else if (field.repeated) {
    List(value, field, owner);
  } else if (field.type == FieldType::kMessage) {
    const size_t body = OpenMessage(field.number);
    Message(value, *field.message, false);
    CloseLength(body);
    --wire_depth_;
  } else {
    Singular(value, field, owner);
  }
}

// A scalar field that is not repeated; without presence (a proto3 field outside a oneof)
// its default is left out, as libprotobuf leaves it out.
void WireWriter::Singular(const json& value, const FieldSchema& field, const MessageSchema& owner) {
  WireValue wire = Encode(value, field, owner);
  if (!field.presence && IsDefault(field, wire)) return;
  AppendTag(out_, field.number, field.wire_type());
  Append(field, wire);
}

void WireWriter::List(const json& value, const FieldSchema& field, const MessageSchema& owner) {
  if (!value.is_array()) Fail("expected a JSON array, got " + JsonForMessage(value));
  const auto& array = value.get_ref<const json::array_t&>();
  if (array.empty()) return;
  const bool packed = field.packed;
  const size_t packed_body = packed ? OpenLength(field.number) : 0;
  for (size_t i = 0; i < array.size(); ++i) {
    path_.push_back({Segment::Kind::kIndex, {}, i});
    // libprotobuf 3.21 skips a null element, which shifts every later index; newer
    // libprotobuf and the JSON mapping's spec refuse it.
    if (array[i].is_null()) Fail("null is not allowed in a list");
    if (field.type == FieldType::kMessage) {
      const size_t body = OpenMessage(field.number);
      Message(array[i], *field.message, false);
      CloseLength(body);
      --wire_depth_;
    } else {
      WireValue wire = Encode(array[i], field, owner);
      if (!packed) AppendTag(out_, field.number, field.wire_type());
      Append(field, wire);
    }
    path_.pop_back();
  }
  if (packed) CloseLength(packed_body);
}

// A map is a repeated field of entry messages {key (1), value (2)}. JSON spells every key as
// a string; integer keys are put in numeric order (and a key given twice, as "1" and "01",
// keeps its last value), as deterministic serialisation orders them.
void WireWriter::Map(const json& value, const FieldSchema& field) {
  if (!value.is_object()) Fail("expected a JSON object (a map), got " + JsonForMessage(value));
  const MessageSchema& entry = *field.message;
  const FieldSchema& key_field = *entry.FindFieldByNumber(1);
  const FieldSchema& value_field = *entry.FindFieldByNumber(2);
  // String keys come sorted already (nlohmann's objects are std::maps), and so do bools.
  const bool integer_keys =
      key_field.type != FieldType::kString && key_field.type != FieldType::kBool;
  const size_t region = out_->size();
  const size_t first_piece = pieces_.size();
  for (const auto& [key, item] : value.get_ref<const json::object_t&>()) {
    path_.push_back({Segment::Kind::kKey, key, 0});
    // libprotobuf 3.21 stores the value type's default; that hides a mistake, so refuse.
    if (item.is_null()) Fail("null is not allowed as a map value");
    const size_t begin = out_->size();
    const size_t body = OpenMessage(field.number);
    WireValue key_wire = EncodeKey(key, key_field, entry);
    AppendTag(out_, 1, key_field.wire_type());
    Append(key_field, key_wire);
    // Deterministic serialisation writes both key and value, defaults included.
    if (value_field.type == FieldType::kMessage) {
      const size_t value_body = OpenMessage(2);
      Message(item, *value_field.message, false);
      CloseLength(value_body);
      --wire_depth_;
    } else {
      WireValue wire = Encode(item, value_field, entry);
      AppendTag(out_, 2, value_field.wire_type());
      Append(value_field, wire);
    }
    CloseLength(body);
    --wire_depth_;
    if (integer_keys) {
      uint64_t order = IsSigned(key_field.type)
                           ? static_cast<uint64_t>(KeyAsSigned(key_field, key_wire)) ^ kSignBit
                           : key_wire.bits;
      pieces_.push_back({order, begin, out_->size()});
    }
    path_.pop_back();
  }
  if (integer_keys) PutInOrder(region, first_piece, true);
}

void WireWriter::Any(const json& value, const MessageSchema& any_type) {
  if (!value.is_object()) {
    Fail("expected a JSON object with \"@type\" for google.protobuf.Any, got " +
         JsonForMessage(value));
  }
  const auto& object = value.get_ref<const json::object_t&>();
  if (object.empty()) return;  // an empty Any, as MessageToJson prints it
  auto type_member = object.find("@type");
  if (type_member == object.end()) Fail("a google.protobuf.Any needs \"@type\"");
  if (!type_member->second.is_string()) {
    Fail("\"@type\" must be a string, got " + JsonForMessage(type_member->second));
  }
  const std::string& url = type_member->second.get_ref<const std::string&>();
  // The type name is what follows the URL's last '/' (type.googleapis.com/tensorflow.X).
  size_t slash = url.rfind('/');
  if (slash == std::string::npos || slash + 1 == url.size()) {
    Fail("\"@type\" must be a type URL like type.googleapis.com/<message name>, got \"" +
         CapForMessage(url) + "\"");
  }
  std::string_view name = std::string_view(url).substr(slash + 1);
  const MessageSchema* type = any_type.set->Find(name);
  if (type == nullptr) {
    Fail("\"@type\" names an unknown message type '" + CapForMessage(name) + "'");
  }
  CheckUtf8(url, any_type);
  // type_url (1), then value (2): the message's bytes, written in place. They are bytes to
  // the parser, not a nested message, so their nesting starts again from the top.
  AppendTag(out_, 1, kWireLength);
  AppendVarint(out_, url.size());
  out_->append(url);
  const size_t body = OpenLength(2);
  const int wire_depth = wire_depth_;
  wire_depth_ = 0;
  if (type->well_known == WellKnown::kNone) {
    Message(value, *type, true);
  } else {
    // A type with a JSON form of its own sits under "value": {"@type": ..., "value": 3}.
    for (const auto& [key, item] : object) {
      if (key == "@type" || key == "value") continue;
      path_.push_back({Segment::Kind::kField, key, 0});
      Fail("no such field in an Any holding " + std::string(type->full_name) +
           " (its value goes under \"value\")");
    }
    auto inner_value = object.find("value");
    if (inner_value != object.end() && !inner_value->second.is_null()) {
      path_.push_back({Segment::Kind::kField, inner_value->first, 0});
      Message(inner_value->second, *type, false);
      path_.pop_back();
    }
  }
  wire_depth_ = wire_depth;
  if (out_->size() == body) {
    out_->resize(body - 2);  // an empty value is a proto3 default: its tag and length go
  } else {
    CloseLength(body);
  }
}

}  // namespace proto_json_internal

using nlohmann::json;
using proto_json_internal::WireWriter;

std::string JsonToWire(const json& value, const MessageSchema& schema, const std::string& what,
                       ErrorCode code) {
  std::string out;
  WireWriter(what, code, &out).Message(value, schema, false);
  return out;
}

void JsonToMessage(const json& value, google::protobuf::MessageLite* message,
                   const MessageSchema& schema, const std::string& what, ErrorCode code) {
  message->Clear();
  const std::string bytes = JsonToWire(value, schema, what, code);
  if (bytes.size() > kMaxProtoBytes) {
    throw Error(ErrorCode::kTooLarge,
                what + ": the message would be 2 GiB or more, which protobuf cannot hold");
  }
  // Every check the parser makes was made above; a refusal here is a bug of the writer.
  // (Partial: a proto2 `required` field may be missing, as reflection allowed.)
  if (!message->ParsePartialFromString(bytes)) {
    message->Clear();
    throw Error(ErrorCode::kInternal, what + ": the wire bytes made of the JSON do not parse as " +
                                          std::string(schema.full_name));
  }
}

}  // namespace graphport::proto
