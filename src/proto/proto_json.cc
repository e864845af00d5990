#include "proto/proto_json.h"

#include <google/protobuf/descriptor.h>

#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base64.h"
#include "core/limits.h"
#include "core/message_text.h"
#include "proto/proto_json_scalars.h"

namespace graphport::proto {
namespace {

namespace pb = google::protobuf;
using nlohmann::json;
using pb::FieldDescriptor;

// How a message type is spelled in JSON. The well-known types that have a form of their own
// are the reason this is not always an object.
enum class JsonForm {
  kObject,       // {"field": value, ...}
  kAny,          // {"@type": url, fields of that type...} or {"@type": url, "value": ...}
  kWrapper,      // the wrapped value itself: 3, "text", true
  kUnsupported,  // a form of its own that no graphport schema needs (see FormOf)
};

JsonForm FormOf(const pb::Descriptor* type) {
  const std::string& name = type->full_name();
  if (name.compare(0, 16, "google.protobuf.") != 0) return JsonForm::kObject;
  std::string_view short_name = std::string_view(name).substr(16);
  if (short_name == "Any") return JsonForm::kAny;
  for (std::string_view wrapper :
       {"DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value",
        "BoolValue", "StringValue", "BytesValue"}) {
    if (short_name == wrapper) return JsonForm::kWrapper;
  }
  // Our .proto files import only any.proto and wrappers.proto. These types can still come up
  // inside an Any when the generated pool has them, and are refused there rather than read
  // as plain objects, which would accept wrong input. (Empty's form is the plain object {}.)
  for (std::string_view special :
       {"Timestamp", "Duration", "FieldMask", "Struct", "Value", "ListValue", "NullValue"}) {
    if (short_name == special) return JsonForm::kUnsupported;
  }
  return JsonForm::kObject;
}

// One step of the path an error message names: a field, a list index, or a map key.
struct Segment {
  enum class Kind { kField, kIndex, kKey };
  Kind kind;
  std::string_view name;  // the field's .proto name (or an unknown one as written), or a map key
  size_t index;
};

// A message type's fields by both spellings (JSON name and .proto name). The views point into
// the descriptor's own strings, which live as long as its pool.
using FieldsByName = std::unordered_map<std::string_view, const FieldDescriptor*>;

class JsonReader {
 public:
  JsonReader(const std::string& what, ErrorCode code) : what_(what), code_(code) {}

  // `any_body`: `value` is the body of an Any, whose "@type" member is not a field.
  void ReadMessage(const json& value, pb::Message* message, bool any_body) {
    // Only messages recurse here, so this bounds the stack whatever the input.
    if (++depth_ > kMaxProtoNesting) {
      Fail("messages nest more than " + std::to_string(kMaxProtoNesting) + " levels deep");
    }
    const pb::Descriptor* type = message->GetDescriptor();
    switch (any_body ? JsonForm::kObject : FormOf(type)) {
      case JsonForm::kAny:
        ReadAny(value, message);
        break;
      case JsonForm::kWrapper:
        // libprotobuf also takes the object form {"value": 3}; so do we.
        if (value.is_object()) {
          ReadObject(value, message, false);
        } else {
          SetScalar(value, type->FindFieldByNumber(1), message, false);
        }
        break;
      case JsonForm::kUnsupported:
        Fail(type->full_name() + " in JSON is not supported: no graphport schema uses it",
             ErrorCode::kUnsupported);
      case JsonForm::kObject:
        ReadObject(value, message, any_body);
        break;
    }
    --depth_;
  }

 private:
  void ReadObject(const json& value, pb::Message* message, bool any_body) {
    const pb::Descriptor* type = message->GetDescriptor();
    if (!value.is_object()) {
      Fail("expected a JSON object for " + type->full_name() + ", got " + JsonForMessage(value));
    }
    const pb::Reflection* reflection = message->GetReflection();
    const FieldsByName& fields = FieldsOf(type);
    const auto& object = value.get_ref<const json::object_t&>();
    for (const auto& [key, item] : object) {
      if (any_body && key == "@type") continue;
      path_.push_back({Segment::Kind::kField, key, 0});
      auto found = fields.find(key);
      if (found == fields.end()) Fail("no such field in " + type->full_name());
      const FieldDescriptor* field = found->second;
      // Paths use .proto names, as TensorFlow's docs and the text format do, whichever
      // spelling the input used; an unknown field is named as it was written.
      path_.back().name = field->name();
      // JSON objects cannot repeat a key, but a field can still be named twice.
      const std::string& other = key == field->name() ? field->json_name() : field->name();
      if (other != key && object.count(other) != 0) {
        Fail("given twice, as '" + field->json_name() + "' and '" + field->name() + "'");
      }
      if (!item.is_null()) {  // null leaves the field unset
        if (const pb::OneofDescriptor* oneof = field->real_containing_oneof()) {
          if (reflection->HasOneof(*message, oneof)) {
            Fail("'" + reflection->GetOneofFieldDescriptor(*message, oneof)->name() +
                 "' of the same oneof '" + oneof->name() + "' is set already");
          }
        }
        ReadField(item, field, message);
      }
      path_.pop_back();
    }
  }

  void ReadField(const json& value, const FieldDescriptor* field, pb::Message* message) {
    if (field->is_map()) {
      ReadMap(value, field, message);
    } else if (field->is_repeated()) {
      ReadList(value, field, message);
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      ReadMessage(value, message->GetReflection()->MutableMessage(message, field), false);
    } else {
      SetScalar(value, field, message, false);
    }
  }

  void ReadList(const json& value, const FieldDescriptor* field, pb::Message* message) {
    if (!value.is_array()) Fail("expected a JSON array, got " + JsonForMessage(value));
    const pb::Reflection* reflection = message->GetReflection();
    const auto& array = value.get_ref<const json::array_t&>();
    bool is_message = field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
    for (size_t i = 0; i < array.size(); ++i) {
      path_.push_back({Segment::Kind::kIndex, {}, i});
      // libprotobuf 3.21 skips a null element, which shifts every later index; newer
      // libprotobuf and the JSON mapping's spec refuse it.
      if (array[i].is_null()) Fail("null is not allowed in a list");
      if (is_message) {
        ReadMessage(array[i], reflection->AddMessage(message, field), false);
      } else {
        SetScalar(array[i], field, message, true);
      }
      path_.pop_back();
    }
  }

  // A map is a repeated field of entry messages {key, value}, added through reflection.
  void ReadMap(const json& value, const FieldDescriptor* field, pb::Message* message) {
    if (!value.is_object()) Fail("expected a JSON object (a map), got " + JsonForMessage(value));
    const pb::Reflection* reflection = message->GetReflection();
    const FieldDescriptor* key_field = field->message_type()->map_key();
    const FieldDescriptor* value_field = field->message_type()->map_value();
    for (const auto& [key, item] : value.get_ref<const json::object_t&>()) {
      path_.push_back({Segment::Kind::kKey, key, 0});
      // libprotobuf 3.21 stores the value type's default; that hides a mistake, so refuse.
      if (item.is_null()) Fail("null is not allowed as a map value");
      pb::Message* entry = reflection->AddMessage(message, field);
      SetMapKey(key, key_field, entry);
      if (value_field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        ReadMessage(item, entry->GetReflection()->MutableMessage(entry, value_field), false);
      } else {
        SetScalar(item, value_field, entry, false);
      }
      path_.pop_back();
    }
  }

  void ReadAny(const json& value, pb::Message* message) {
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
    std::string name = url.substr(slash + 1);
    const pb::Descriptor* type =
        message->GetDescriptor()->file()->pool()->FindMessageTypeByName(name);
    const pb::Message* prototype =
        type == nullptr ? nullptr
                        : message->GetReflection()->GetMessageFactory()->GetPrototype(type);
    if (prototype == nullptr)
      Fail("\"@type\" names an unknown message type '" + CapForMessage(name) + "'");
    std::unique_ptr<pb::Message> inner(prototype->New());
    if (FormOf(type) == JsonForm::kObject) {
      ReadMessage(value, inner.get(), true);
    } else {
      // A type with a JSON form of its own sits under "value": {"@type": ..., "value": 3}.
      for (const auto& [key, item] : object) {
        if (key == "@type" || key == "value") continue;
        path_.push_back({Segment::Kind::kField, key, 0});
        Fail("no such field in an Any holding " + type->full_name() +
             " (its value goes under \"value\")");
      }
      auto inner_value = object.find("value");
      if (inner_value != object.end() && !inner_value->second.is_null()) {
        path_.push_back({Segment::Kind::kField, inner_value->first, 0});
        ReadMessage(inner_value->second, inner.get(), false);
        path_.pop_back();
      }
    }
    const pb::Descriptor* any_type = message->GetDescriptor();
    const pb::Reflection* reflection = message->GetReflection();
    reflection->SetString(message, any_type->FindFieldByNumber(1), url);
    reflection->SetString(message, any_type->FindFieldByNumber(2), inner->SerializeAsString());
  }

  void SetScalar(const json& value, const FieldDescriptor* field, pb::Message* message, bool add) {
    const pb::Reflection* r = message->GetReflection();
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32: {
        int32_t v = 0;
        Check(JsonToInt32(value, &v));
        add ? r->AddInt32(message, field, v) : r->SetInt32(message, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_INT64: {
        int64_t v = 0;
        Check(JsonToInt64(value, &v));
        add ? r->AddInt64(message, field, v) : r->SetInt64(message, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_UINT32: {
        uint32_t v = 0;
        Check(JsonToUInt32(value, &v));
        add ? r->AddUInt32(message, field, v) : r->SetUInt32(message, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_UINT64: {
        uint64_t v = 0;
        Check(JsonToUInt64(value, &v));
        add ? r->AddUInt64(message, field, v) : r->SetUInt64(message, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_FLOAT: {
        float v = 0;
        Check(JsonToFloat(value, &v));
        add ? r->AddFloat(message, field, v) : r->SetFloat(message, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_DOUBLE: {
        double v = 0;
        Check(JsonToDouble(value, &v));
        add ? r->AddDouble(message, field, v) : r->SetDouble(message, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_BOOL: {
        bool v = false;
        Check(JsonToBool(value, &v));
        add ? r->AddBool(message, field, v) : r->SetBool(message, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_ENUM: {
        int v = EnumNumber(value, field);
        add ? r->AddEnumValue(message, field, v) : r->SetEnumValue(message, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_STRING: {
        bool bytes = field->type() == FieldDescriptor::TYPE_BYTES;
        if (!value.is_string()) {
          Fail(std::string("expected a string") + (bytes ? " (base64)" : "") + ", got " +
               JsonForMessage(value));
        }
        const std::string& text = value.get_ref<const std::string&>();
        if (!bytes) {
          add ? r->AddString(message, field, text) : r->SetString(message, field, text);
          return;
        }
        std::string decoded;
        if (!Base64DecodeEitherAlphabet(text, &decoded)) {
          Fail("expected base64 (standard or URL-safe alphabet), got " + JsonForMessage(value));
        }
        add ? r->AddString(message, field, std::move(decoded))
            : r->SetString(message, field, std::move(decoded));
        return;
      }
      case FieldDescriptor::CPPTYPE_MESSAGE:
        break;
    }
    Fail("internal: " + field->full_name() + " is not a scalar field", ErrorCode::kInternal);
  }

  // An enum value by name ("DT_FLOAT") or number (1). proto3 enums are open, so any int32 is
  // kept; a proto2 enum takes only its own numbers.
  int EnumNumber(const json& value, const FieldDescriptor* field) {
    const pb::EnumDescriptor* type = field->enum_type();
    if (value.is_string()) {
      const std::string& name = value.get_ref<const std::string&>();
      const pb::EnumValueDescriptor* found = type->FindValueByName(name);
      if (found == nullptr) Fail("no value \"" + name + "\" in enum " + type->full_name());
      return found->number();
    }
    int32_t number = 0;
    if (!value.is_number() || !JsonToInt32(value, &number).empty()) {
      Fail("expected a value of enum " + type->full_name() + " (a name or an int32), got " +
           JsonForMessage(value));
    }
    if (type->file()->syntax() != pb::FileDescriptor::SYNTAX_PROTO3 &&
        type->FindValueByNumber(number) == nullptr) {
      Fail("no value " + std::to_string(number) + " in enum " + type->full_name());
    }
    return number;
  }

  // JSON spells every map key as a string; integer and bool keys are converted.
  void SetMapKey(const std::string& key, const FieldDescriptor* field, pb::Message* entry) {
    const pb::Reflection* r = entry->GetReflection();
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_STRING:
        r->SetString(entry, field, key);
        return;
      case FieldDescriptor::CPPTYPE_INT32: {
        int32_t v = 0;
        CheckKey(KeyToInt32(key, &v));
        r->SetInt32(entry, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_INT64: {
        int64_t v = 0;
        CheckKey(KeyToInt64(key, &v));
        r->SetInt64(entry, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_UINT32: {
        uint32_t v = 0;
        CheckKey(KeyToUInt32(key, &v));
        r->SetUInt32(entry, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_UINT64: {
        uint64_t v = 0;
        CheckKey(KeyToUInt64(key, &v));
        r->SetUInt64(entry, field, v);
        return;
      }
      case FieldDescriptor::CPPTYPE_BOOL: {
        bool v = false;
        CheckKey(KeyToBool(key, &v));
        r->SetBool(entry, field, v);
        return;
      }
      default:
        break;
    }
    Fail("internal: " + field->full_name() + " cannot be a map key", ErrorCode::kInternal);
  }

  const FieldsByName& FieldsOf(const pb::Descriptor* type) {
    auto [it, inserted] = fields_.try_emplace(type);
    if (inserted) {
      for (int i = 0; i < type->field_count(); ++i) {
        const FieldDescriptor* field = type->field(i);
        it->second.emplace(field->json_name(), field);
        it->second.emplace(field->name(), field);
      }
    }
    return it->second;
  }

  void Check(const std::string& error) {
    if (!error.empty()) Fail(error);
  }
  void CheckKey(const std::string& error) {
    if (!error.empty()) Fail("map key: " + error);
  }

  [[noreturn]] void Fail(const std::string& detail) const { Fail(detail, code_); }
  [[noreturn]] void Fail(const std::string& detail, ErrorCode code) const {
    std::string message = what_;
    if (!path_.empty()) message += ": field '" + Path() + "'";
    throw Error(code, message + ": " + detail);
  }

  // "meta_info_def.tags[2]", "node[3].attr[\"T\"].type"; the middle of a very deep path is
  // left out.
  std::string Path() const {
    constexpr size_t kEnds = 8;
    std::string out;
    for (size_t i = 0; i < path_.size(); ++i) {
      if (path_.size() > 2 * kEnds && i == kEnds) {
        out += ".(" + std::to_string(path_.size() - 2 * kEnds) + " more)";
        i = path_.size() - kEnds;
      }
      const Segment& s = path_[i];
      switch (s.kind) {
        case Segment::Kind::kField:
          if (!out.empty()) out += '.';
          out += s.name;
          break;
        case Segment::Kind::kIndex:
          out += "[" + std::to_string(s.index) + "]";
          break;
        case Segment::Kind::kKey:
          out += "[\"";
          out += CapForMessage(s.name);
          out += "\"]";
          break;
      }
    }
    return out;
  }

  const std::string& what_;
  ErrorCode code_;
  std::vector<Segment> path_;
  int depth_ = 0;
  std::unordered_map<const pb::Descriptor*, FieldsByName> fields_;
};

}  // namespace

void JsonToMessage(const json& value, pb::Message* message, const std::string& what,
                   ErrorCode code) {
  message->Clear();
  JsonReader(what, code).ReadMessage(value, message, false);
}

}  // namespace graphport::proto
