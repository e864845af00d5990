#include "proto/proto_json.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/base64.h"
#include "core/limits.h"
#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/proto_json_scalars.h"
#include "proto/wire_scalar.h"

namespace graphport::proto {
namespace {

using nlohmann::json;

// One step of the path an error message names: a field, a list index, or a map key.
struct Segment {
  enum class Kind { kField, kIndex, kKey };
  Kind kind;
  std::string_view name;  // the field's .proto name (or an unknown one as written), or a map key
  size_t index;
};

// One value as it goes on the wire: the bits of a varint or fixed-width value, or the bytes of
// a string or bytes field.
struct WireValue {
  uint64_t bits = 0;
  std::string_view text;
};

// A run of the output that may have to move: one field of a message (`order` is its number),
// or one entry of a map with integer keys (`order` sorts as the key does).
struct Piece {
  uint64_t order;
  size_t begin;
  size_t end;
};

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

// Writes the wire bytes of a message from its JSON. Fields go out in the order the JSON names
// them, so that errors come in that order too, and are then put in number order; the result
// is what libprotobuf's deterministic serialisation writes, which an Any's value must be.
class WireWriter {
 public:
  WireWriter(const std::string& what, ErrorCode code, std::string* out)
      : what_(what), code_(code), out_(out) {}

  // The body of a message (no tag, no length). `any_body`: `value` is the body of an Any,
  // whose "@type" member is not a field.
  void Message(const json& value, const MessageSchema& type, bool any_body) {
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

 private:
  void Object(const json& value, const MessageSchema& type, bool any_body) {
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
  static const FieldSchema* FindField(const MessageSchema& type, std::string_view key) {
    for (const FieldSchema& field : type) {
      if (field.json_name == key || field.name == key) return &field;
    }
    return nullptr;
  }

  void Field(const json& value, const FieldSchema& field, const MessageSchema& owner) {
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
  void Singular(const json& value, const FieldSchema& field, const MessageSchema& owner) {
    WireValue wire = Encode(value, field, owner);
    if (!field.presence && IsDefault(field, wire)) return;
    AppendTag(out_, field.number, field.wire_type());
    Append(field, wire);
  }

  void List(const json& value, const FieldSchema& field, const MessageSchema& owner) {
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
  void Map(const json& value, const FieldSchema& field) {
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

  void Any(const json& value, const MessageSchema& any_type) {
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

  // --- scalars ----------------------------------------------------------------------------

  WireValue Encode(const json& value, const FieldSchema& field, const MessageSchema& owner) {
    WireValue wire;
    switch (field.type) {
      case FieldType::kInt32:
      case FieldType::kSint32:
      case FieldType::kSfixed32: {
        int32_t v = 0;
        Check(JsonToInt32(value, &v));
        wire.bits = Signed32Bits(field.type, v);
        return wire;
      }
      case FieldType::kInt64:
      case FieldType::kSint64:
      case FieldType::kSfixed64: {
        int64_t v = 0;
        Check(JsonToInt64(value, &v));
        wire.bits = Signed64Bits(field.type, v);
        return wire;
      }
      case FieldType::kUint32:
      case FieldType::kFixed32: {
        uint32_t v = 0;
        Check(JsonToUInt32(value, &v));
        wire.bits = v;
        return wire;
      }
      case FieldType::kUint64:
      case FieldType::kFixed64: {
        uint64_t v = 0;
        Check(JsonToUInt64(value, &v));
        wire.bits = v;
        return wire;
      }
      case FieldType::kFloat: {
        float v = 0;
        Check(JsonToFloat(value, &v));
        wire.bits = FloatBits(v);
        return wire;
      }
      case FieldType::kDouble: {
        double v = 0;
        Check(JsonToDouble(value, &v));
        wire.bits = DoubleBits(v);
        return wire;
      }
      case FieldType::kBool: {
        bool v = false;
        Check(JsonToBool(value, &v));
        wire.bits = v ? 1 : 0;
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
      case FieldType::kMessage:
      case FieldType::kGroup:
        break;
    }
    Fail("internal: " + std::string(owner.full_name) + "." + std::string(field.name) +
             " is not a scalar field",
         ErrorCode::kInternal);
  }

  // A map key, which JSON always spells as a string; integer and bool keys are converted.
  WireValue EncodeKey(const std::string& key, const FieldSchema& field,
                      const MessageSchema& entry) {
    WireValue wire;
    switch (field.type) {
      case FieldType::kString:
        CheckUtf8(key, entry);
        wire.text = key;
        return wire;
      case FieldType::kInt32:
      case FieldType::kSint32:
      case FieldType::kSfixed32: {
        int32_t v = 0;
        CheckKey(KeyToInt32(key, &v));
        wire.bits = Signed32Bits(field.type, v);
        return wire;
      }
      case FieldType::kInt64:
      case FieldType::kSint64:
      case FieldType::kSfixed64: {
        int64_t v = 0;
        CheckKey(KeyToInt64(key, &v));
        wire.bits = Signed64Bits(field.type, v);
        return wire;
      }
      case FieldType::kUint32:
      case FieldType::kFixed32: {
        uint32_t v = 0;
        CheckKey(KeyToUInt32(key, &v));
        wire.bits = v;
        return wire;
      }
      case FieldType::kUint64:
      case FieldType::kFixed64: {
        uint64_t v = 0;
        CheckKey(KeyToUInt64(key, &v));
        wire.bits = v;
        return wire;
      }
      case FieldType::kBool: {
        bool v = false;
        CheckKey(KeyToBool(key, &v));
        wire.bits = v ? 1 : 0;
        return wire;
      }
      default:
        break;
    }
    Fail("internal: " + std::string(entry.full_name) + "." + std::string(field.name) +
             " cannot be a map key",
         ErrorCode::kInternal);
  }

  static uint64_t Signed32Bits(FieldType type, int32_t v) {
    switch (type) {
      case FieldType::kSint32:
        return ZigZagEncode32(v);
      case FieldType::kSfixed32:
        return static_cast<uint32_t>(v);
      default:  // int32: sign-extended to 64 bits, as libprotobuf writes it
        return static_cast<uint64_t>(static_cast<int64_t>(v));
    }
  }
  static uint64_t Signed64Bits(FieldType type, int64_t v) {
    return type == FieldType::kSint64 ? ZigZagEncode64(v) : static_cast<uint64_t>(v);
  }
  // A signed key's value back from its wire bits, for ordering map entries.
  static int64_t KeyAsSigned(const FieldSchema& field, const WireValue& wire) {
    switch (field.type) {
      case FieldType::kSint32:
        return ZigZagDecode32(static_cast<uint32_t>(wire.bits));
      case FieldType::kSint64:
        return ZigZagDecode64(wire.bits);
      case FieldType::kSfixed32:
        return static_cast<int32_t>(static_cast<uint32_t>(wire.bits));
      default:
        return static_cast<int64_t>(wire.bits);
    }
  }

  // An enum value by name ("DT_FLOAT") or number (1). proto3 enums are open, so any int32 is
  // kept; a proto2 message's enum fields take only their enum's numbers (libprotobuf 3.21
  // decides by the message's syntax, and would keep another number as an unknown field).
  int32_t EnumNumber(const json& value, const FieldSchema& field, const MessageSchema& owner) {
    const EnumSchema& type = *field.enumeration;
    if (value.is_string()) {
      const std::string& name = value.get_ref<const std::string&>();
      const EnumValueSchema* found = type.FindByName(name);
      if (found == nullptr)
        Fail("no value \"" + name + "\" in enum " + std::string(type.full_name));
      return found->number;
    }
    int32_t number = 0;
    if (!value.is_number() || !JsonToInt32(value, &number).empty()) {
      Fail("expected a value of enum " + std::string(type.full_name) +
           " (a name or an int32), got " + JsonForMessage(value));
    }
    if (!owner.proto3 && type.FindByNumber(number) == nullptr) {
      Fail("no value " + std::to_string(number) + " in enum " + std::string(type.full_name));
    }
    return number;
  }

  // libprotobuf-lite refuses a proto3 string that is not UTF-8 when it parses.
  void CheckUtf8(std::string_view text, const MessageSchema& owner) {
    if (owner.proto3 && !IsAscii(text) && !IsValidUtf8(text)) {
      Fail("a string that is not UTF-8, which a proto3 string must be");
    }
  }

  static bool IsDefault(const FieldSchema& field, const WireValue& wire) {
    // Floating point by its bits, as libprotobuf decides: -0.0 is written.
    return field.is_text() ? wire.text.empty() : wire.bits == 0;
  }

  void Append(const FieldSchema& field, const WireValue& wire) {
    switch (field.wire_type()) {
      case kWireFixed32:
        AppendFixed32(out_, static_cast<uint32_t>(wire.bits));
        return;
      case kWireFixed64:
        AppendFixed64(out_, wire.bits);
        return;
      case kWireLength:
        AppendVarint(out_, wire.text.size());
        out_->append(wire.text);
        return;
      default:
        AppendVarint(out_, wire.bits);
        return;
    }
  }

  // --- lengths and order ------------------------------------------------------------------

  // A length-delimited record of field `number` whose payload follows: a one-byte length is
  // reserved, and widened by CloseLength when the payload turns out longer. Returns where the
  // payload starts.
  size_t OpenLength(int number) {
    AppendTag(out_, number, kWireLength);
    out_->push_back('\0');
    return out_->size();
  }

  // The same for a message, which is one level deeper on the wire (the caller closes it with
  // CloseLength and --wire_depth_).
  size_t OpenMessage(int number) {
    // libprotobuf parses messages nested this deep below the one it is given, and no deeper.
    if (++wire_depth_ > kMaxProtoNesting) NestingTooDeep();
    return OpenLength(number);
  }

  void CloseLength(size_t body) {
    const size_t length = out_->size() - body;
    if (length > kMaxProtoBytes) {
      Fail("the message would be 2 GiB or more, which protobuf cannot hold", ErrorCode::kTooLarge);
    }
    const int width = VarintSize(length);
    if (width > 1) out_->insert(body, static_cast<size_t>(width - 1), '\0');
    WriteVarint(length, &(*out_)[body - 1]);
  }

  // Puts the pieces from `first_piece` on, which together are the output from `region` on, in
  // the order of their `order`, equal ones as they came; `keep_last` keeps only the last of
  // equal ones.
  void PutInOrder(size_t region, size_t first_piece, bool keep_last) {
    auto begin = pieces_.begin() + static_cast<std::ptrdiff_t>(first_piece);
    auto end = pieces_.end();
    auto by_order = [](const Piece& a, const Piece& b) { return a.order < b.order; };
    bool sorted = std::adjacent_find(begin, end, [](const Piece& a, const Piece& b) {
                    return a.order >= b.order;
                  }) == end;
    if (!sorted) {
      std::stable_sort(begin, end, by_order);
      scratch_.assign(*out_, region, std::string::npos);
      size_t at = region;
      for (auto it = begin; it != end; ++it) {
        if (keep_last && it + 1 != end && (it + 1)->order == it->order) continue;
        const size_t size = it->end - it->begin;
        std::memcpy(&(*out_)[at], scratch_.data() + (it->begin - region), size);
        at += size;
      }
      out_->resize(at);
    }
    pieces_.resize(first_piece);
  }

  // --- errors -----------------------------------------------------------------------------

  [[noreturn]] void NestingTooDeep() const {
    Fail("messages nest more than " + std::to_string(kMaxProtoNesting) + " levels deep");
  }

  void Check(const std::string& error) const {
    if (!error.empty()) Fail(error);
  }
  void CheckKey(const std::string& error) const {
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
  std::string* out_;
  std::vector<Segment> path_;
  int depth_ = 0;              // messages as JSON nests them
  int wire_depth_ = 0;         // messages as the wire nests them, below the one being written
  std::vector<Piece> pieces_;  // of the messages and maps being written
  std::vector<const FieldSchema*> set_oneofs_;  // of the messages being written
  std::string decoded_;                         // a bytes value, until it is appended
  std::string scratch_;                         // PutInOrder's copy
};

}  // namespace

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
