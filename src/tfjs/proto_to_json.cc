#include "tfjs/proto_to_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base64.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/text_appender.h"
#include "core/utf8.h"
#include "proto/deterministic_bytes.h"
#include "proto/wire_reader.h"
#include "proto/wire_scalar.h"

namespace graphport::tfjs {
namespace {

using ojson = OrderedJson;
using proto::FieldSchema;
using proto::FieldType;
using proto::MessageSchema;

ojson NonFinite(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "Infinity" : "-Infinity";
}

// The shortest of %.1g .. %.9g that reads back as `v` (9 digits always do).
ojson FloatJson(float v) {
  if (!std::isfinite(v)) return NonFinite(v);
  char text[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(v));
    if (std::strtof(text, nullptr) == v) break;
  }
  return std::strtod(text, nullptr);
}

ojson DoubleJson(double v) { return std::isfinite(v) ? ojson(v) : NonFinite(v); }

// The bytes are libprotobuf's own serialisation of a message in memory: anything unreadable
// in them is a bug, not bad input.
[[noreturn]] void Unreadable() {
  throw Error(ErrorCode::kInternal, "protobuf JSON: a message's serialisation does not read back");
}

// One value as the wire holds it: a varint's or a fixed width's bits, or a payload.
struct WireValue {
  uint64_t bits = 0;
  std::string_view payload;
};

// A map entry on its way out: the text of its key (what the entries are sorted by) and its
// value, if the entry has one.
struct Entry {
  std::string key;
  WireValue value;
  bool has_value = false;
};

// Writes JSON text straight from the bytes: a member as its record is read, a map once its
// entries are gathered and ordered. Nothing is built but the text.
class Printer {
 public:
  explicit Printer(std::string* out) : out_(out) {}

  // The fields of a message from its deterministic serialisation. That writes each field the
  // schema knows once, in number order (a repeated one's records together), then the unknown
  // fields: the order ListFields gives, which is the order the members are written in. False
  // when a string is not UTF-8.
  bool Message(std::string_view bytes, const MessageSchema& type, int depth) {
    if (!proto::WithinNesting(depth)) {
      throw Error(ErrorCode::kTooLarge,
                  "messages nest more than " + std::to_string(kMaxProtoNesting) + " levels deep");
    }
    out_.Put('{');
    Members members;
    proto::WireReader reader(bytes, depth);
    const FieldSchema* current = nullptr;  // the field of the last record read
    const size_t first_entry = entries_.size();
    proto::Record r;
    while (reader.Next(&r)) {
      const int wire_type = r.wire_type;
      WireValue wire;
      if (wire_type == proto::kWireVarint) {
        wire.bits = r.varint;
      } else if (wire_type == proto::kWireFixed64) {
        wire.bits = proto::ReadFixed64(r.end - 8);
      } else if (wire_type == proto::kWireFixed32) {
        wire.bits = proto::ReadFixed32(r.end - 4);
      } else if (wire_type == proto::kWireLength) {
        wire.payload = r.view();
      } else {
        continue;  // a group: only unknown fields hold one (the schema generator refuses them)
      }
      const FieldSchema* field = type.FindFieldByNumber(r.number);
      if (field == nullptr) continue;  // an unknown field
      const bool packed = wire_type == proto::kWireLength && field->packable();
      // libprotobuf keeps a record of a known number but another wire type as unknown.
      if (wire_type != field->wire_type() && !packed) continue;
      if (field != current) {
        if (!Finish(current, first_entry, depth, &members)) return false;
        current = field;
      }
      if (field->map) {
        AddEntry(*field, wire.payload, type);
      } else if (!field->repeated) {
        if (IsUnknownEnum(*field, wire.bits, type)) continue;
        members.Key(field->json_name, &out_);
        if (!Value(*field, wire, depth)) return false;
      } else if (!packed) {
        if (IsUnknownEnum(*field, wire.bits, type)) continue;
        members.Element(field->json_name, &out_);
        if (!Value(*field, wire, depth)) return false;
      } else if (!Packed(*field, wire.payload, type, &members)) {
        return false;
      }
    }
    if (reader.fault() != proto::WireFault::kNone) Unreadable();
    if (!Finish(current, first_entry, depth, &members)) return false;
    out_.Put('}');
    return true;
  }

 private:
  // Where the members of the object being written stand: the separators they need.
  struct Members {
    bool any = false;        // a member is written
    bool list_open = false;  // the last member is a list still taking elements

    void Key(std::string_view name, TextAppender* out) {
      if (any) out->Put(',');
      any = true;
      out->Put('"');
      out->Put(name);  // JSON names are ASCII letters, digits and underscores
      out->Put("\":");
    }
    // An element of list `name`, opened by its first element: a list whose elements are all
    // left out (a closed enum's unknown numbers) is not written at all.
    void Element(std::string_view name, TextAppender* out) {
      if (list_open) {
        out->Put(',');
        return;
      }
      Key(name, out);
      out->Put('[');
      list_open = true;
    }
  };

  // Ends what `field`, the field before the next one, left open: its list, or its map, whose
  // entries were gathered from `first_entry` on.
  bool Finish(const FieldSchema* field, size_t first_entry, int depth, Members* members) {
    if (members->list_open) {
      out_.Put(']');
      members->list_open = false;
    }
    return field == nullptr || !field->map || Map(*field, first_entry, depth, members);
  }

  bool Packed(const FieldSchema& field, std::string_view payload, const MessageSchema& owner,
              Members* members) {
    const auto* p = reinterpret_cast<const uint8_t*>(payload.data());
    const uint8_t* end = p + payload.size();
    const int width = field.wire_type() == proto::kWireFixed32   ? 4
                      : field.wire_type() == proto::kWireFixed64 ? 8
                                                                 : 0;
    if (width != 0 && payload.size() % width != 0) Unreadable();
    while (p < end) {
      WireValue wire;
      if (width == 4) {
        wire.bits = proto::ReadFixed32(p);
        p += 4;
      } else if (width == 8) {
        wire.bits = proto::ReadFixed64(p);
        p += 8;
      } else if (!proto::ReadVarint(&p, end, &wire.bits)) {
        Unreadable();
      }
      if (IsUnknownEnum(field, wire.bits, owner)) continue;
      members->Element(field.json_name, &out_);
      if (!Value(field, wire, 0)) return false;
    }
    return true;
  }

  // A proto2 message's enum fields are closed: libprotobuf keeps a number its enum does not
  // have as an unknown field, which serialisation writes after the known ones.
  static bool IsUnknownEnum(const FieldSchema& field, uint64_t bits, const MessageSchema& owner) {
    return field.type == FieldType::kEnum && !owner.proto3 &&
           field.enumeration->FindByNumber(static_cast<int32_t>(bits)) == nullptr;
  }

  template <typename Number>
  void Decimal(Number value, bool quoted) {
    char text[24];  // any 64-bit integer
    const std::to_chars_result end = std::to_chars(text, text + sizeof text, value);
    if (quoted) out_.Put('"');
    out_.Put(std::string_view(text, end.ptr - text));
    if (quoted) out_.Put('"');
  }

  // A JSON string. Most are names in plain ASCII, copied as they are; anything else is
  // escaped as OrderedJson escapes it. False when `text` is not UTF-8.
  bool String(std::string_view text) {
    if (IsPlainJsonText(text)) {
      out_.Put('"');
      out_.Put(text);
      out_.Put('"');
      return true;
    }
    std::string escaped;
    if (!OrderedJson::DumpString(text, &escaped)) return false;
    out_.Put(escaped);
    return true;
  }

  // A number as OrderedJson prints it (nlohmann's shortest text for a double).
  void Dumped(const OrderedJson& value) {
    std::string text;
    value.Dump(&text);
    out_.Put(text);
  }

  // Element `wire` of `field`; `depth` is that of the message holding it.
  bool Value(const FieldSchema& field, const WireValue& wire, int depth) {
    const uint64_t bits = wire.bits;
    switch (field.type) {
      case FieldType::kInt32:
      case FieldType::kSfixed32:
        Decimal(static_cast<int32_t>(bits), false);
        return true;
      case FieldType::kSint32:
        Decimal(proto::ZigZagDecode32(static_cast<uint32_t>(bits)), false);
        return true;
      case FieldType::kUint32:
      case FieldType::kFixed32:
        Decimal(static_cast<uint32_t>(bits), false);
        return true;
      case FieldType::kInt64:
      case FieldType::kSfixed64:
        Decimal(static_cast<int64_t>(bits), true);
        return true;
      case FieldType::kSint64:
        Decimal(proto::ZigZagDecode64(bits), true);
        return true;
      case FieldType::kUint64:
      case FieldType::kFixed64:
        Decimal(bits, true);
        return true;
      case FieldType::kFloat:
        Dumped(FloatJson(proto::BitsToFloat(static_cast<uint32_t>(bits))));
        return true;
      case FieldType::kDouble:
        Dumped(DoubleJson(proto::BitsToDouble(bits)));
        return true;
      case FieldType::kBool:
        out_.Put(bits != 0 ? "true" : "false");
        return true;
      case FieldType::kEnum: {
        const int number = static_cast<int32_t>(bits);
        const proto::EnumValueSchema* value = field.enumeration->FindByNumber(number);
        if (value == nullptr) {
          Decimal(number, false);
          return true;
        }
        return String(value->name);
      }
      case FieldType::kString:
        return String(wire.payload);
      case FieldType::kBytes:
        return String(Base64Encode(wire.payload));
      case FieldType::kMessage:
        return Message(wire.payload, *field.message, depth + 1);
      case FieldType::kGroup:
        break;
    }
    out_.Put("null");
    return true;
  }

  // The text of a map key, as the key's JSON value would print.
  static std::string KeyText(const FieldSchema& field, const WireValue& wire) {
    const uint64_t bits = wire.bits;
    switch (field.type) {
      case FieldType::kString:
        return std::string(wire.payload);
      case FieldType::kInt32:
        return std::to_string(static_cast<int32_t>(bits));
      case FieldType::kSint32:
        return std::to_string(proto::ZigZagDecode32(static_cast<uint32_t>(bits)));
      case FieldType::kSfixed32:
        return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(bits)));
      case FieldType::kUint32:
      case FieldType::kFixed32:
        return std::to_string(static_cast<uint32_t>(bits));
      case FieldType::kInt64:
      case FieldType::kSfixed64:
        return std::to_string(static_cast<int64_t>(bits));
      case FieldType::kSint64:
        return std::to_string(proto::ZigZagDecode64(bits));
      case FieldType::kBool:
        return bits != 0 ? "true" : "false";
      default:  // uint64, fixed64 (no other type can be a key)
        return std::to_string(bits);
    }
  }

  // One entry of map `field` from its bytes: key (1) and value (2), a missing one its default.
  void AddEntry(const FieldSchema& field, std::string_view bytes, const MessageSchema& owner) {
    const MessageSchema& entry_type = *field.message;
    const FieldSchema& key_field = *entry_type.FindFieldByNumber(1);
    const FieldSchema& value_field = *entry_type.FindFieldByNumber(2);
    WireValue key;
    Entry entry;
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint8_t* end = p + bytes.size();
    proto::Record r;
    for (; p < end; p = r.end) {
      if (!proto::ReadRecord(p, end, &r)) Unreadable();
      const FieldSchema* f = r.number == 1 ? &key_field : r.number == 2 ? &value_field : nullptr;
      if (f == nullptr || r.wire_type != f->wire_type()) continue;
      WireValue wire;
      if (r.wire_type == proto::kWireLength) {
        wire.payload = r.view();
      } else if (r.wire_type == proto::kWireVarint) {
        wire.bits = r.varint;
      } else {
        wire.bits = r.wire_type == proto::kWireFixed32 ? proto::ReadFixed32(r.end - 4)
                                                       : proto::ReadFixed64(r.end - 8);
      }
      if (f == &key_field) {
        key = wire;
      } else {
        entry.value = wire;
        entry.has_value = true;
      }
    }
    // An entry whose value a closed enum does not have is kept whole as an unknown field.
    if (value_field.type == FieldType::kEnum) {
      const uint64_t bits = entry.has_value ? entry.value.bits : EnumDefault(value_field);
      if (IsUnknownEnum(value_field, bits, owner)) return;
    }
    entry.key = KeyText(key_field, key);
    entries_.push_back(std::move(entry));
  }

  static uint64_t EnumDefault(const FieldSchema& field) {
    return static_cast<uint64_t>(static_cast<int64_t>(field.enumeration->values[0].number));
  }

  // The entries gathered from `first_entry` on, as an object sorted by key text. Deterministic
  // serialisation writes each key once, string keys in this order already; number keys are
  // sorted here (by value there).
  bool Map(const FieldSchema& field, size_t first_entry, int depth, Members* members) {
    // None: records of the map among the unknown fields (entries a closed enum left there).
    if (entries_.size() == first_entry) return true;
    const FieldSchema& value_field = *field.message->FindFieldByNumber(2);
    auto begin = entries_.begin() + static_cast<std::ptrdiff_t>(first_entry);
    auto by_key = [](const Entry& a, const Entry& b) { return a.key < b.key; };
    if (!std::is_sorted(begin, entries_.end(), by_key)) {
      std::sort(begin, entries_.end(), by_key);
    }
    members->Key(field.json_name, &out_);
    out_.Put('{');
    const size_t count = entries_.size();
    for (size_t i = first_entry; i < count; ++i) {
      if (i > first_entry) out_.Put(',');
      // A value that is a message adds entries of its own (and may move these).
      const std::string key = std::move(entries_[i].key);
      WireValue wire = entries_[i].value;
      if (!entries_[i].has_value && value_field.type == FieldType::kEnum) {
        wire.bits = EnumDefault(value_field);
      }
      if (!String(key)) return false;
      out_.Put(':');
      if (!Value(value_field, wire, depth)) return false;
    }
    out_.Put('}');
    entries_.resize(first_entry);
    return true;
  }

  TextAppender out_;
  std::vector<Entry> entries_;  // of the maps being gathered, innermost last
};

}  // namespace

bool AppendMessageJson(std::string_view deterministic_bytes, const proto::MessageSchema& schema,
                       std::string* out) {
  return Printer(out).Message(deterministic_bytes, schema, 0);
}

OrderedJson MessageToJson(const google::protobuf::MessageLite& message,
                          const proto::MessageSchema& schema) {
  std::string text;
  if (!AppendMessageJson(proto::DeterministicBytes(message), schema, &text)) {
    throw Error(ErrorCode::kUnsupported, "TF.js writer: a string in a " +
                                             std::string(schema.full_name) +
                                             " is not UTF-8, which JSON cannot hold");
  }
  // Each message level is an object, and may sit in a list or a map's object.
  std::string error;
  std::optional<OrderedJson> tree = OrderedJson::Parse(text, 3 * (kMaxProtoNesting + 1), &error);
  if (!tree)
    throw Error(ErrorCode::kInternal,
                "protobuf JSON: the text written does not read back: " + error);
  return std::move(*tree);
}

}  // namespace graphport::tfjs
