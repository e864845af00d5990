#include "tfjs/proto_to_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/base64.h"
#include "core/error.h"
#include "core/limits.h"
#include "proto/deterministic_bytes.h"
#include "proto/wire_record.h"
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

// Skips a group whose start tag was read, nested groups included. Only unknown fields can hold
// one: the schema generator refuses groups.
void SkipGroup(const uint8_t** p, const uint8_t* end) {
  int open = 1;
  while (*p < end) {
    uint64_t tag, value;
    if (!proto::ReadVarint(p, end, &tag)) break;
    switch (tag & 7) {
      case proto::kWireVarint:
        if (!proto::ReadVarint(p, end, &value)) Unreadable();
        break;
      case proto::kWireFixed64:
        if (end - *p < 8) Unreadable();
        *p += 8;
        break;
      case proto::kWireFixed32:
        if (end - *p < 4) Unreadable();
        *p += 4;
        break;
      case proto::kWireLength:
        if (!proto::ReadVarint(p, end, &value) || value > static_cast<uint64_t>(end - *p)) {
          Unreadable();
        }
        *p += value;
        break;
      case proto::kWireStartGroup:
        ++open;
        break;
      case proto::kWireEndGroup:
        if (--open == 0) return;
        break;
      default:
        Unreadable();
    }
  }
  Unreadable();
}

class Writer {
 public:
  // The fields of a message from its deterministic serialisation. That writes each field the
  // schema knows once, in number order (a repeated one's records together), then the unknown
  // fields: the order ListFields gives, so the members come in the order the reflection-based
  // writer made them.
  ojson Message(std::string_view bytes, const MessageSchema& type, int depth) {
    if (depth > kMaxProtoNesting) {
      throw Error(ErrorCode::kTooLarge,
                  "messages nest more than " + std::to_string(kMaxProtoNesting) + " levels deep");
    }
    ojson out = ojson::Object();
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint8_t* end = p + bytes.size();
    const FieldSchema* current = nullptr;  // the field of the last record read
    ojson* list = nullptr;                 // its list, once it has one
    const size_t first_entry = entries_.size();
    while (p < end) {
      uint64_t tag;
      WireValue wire;
      if (!proto::ReadVarint(&p, end, &tag)) Unreadable();
      const int wire_type = static_cast<int>(tag & 7);
      switch (wire_type) {
        case proto::kWireVarint:
          if (!proto::ReadVarint(&p, end, &wire.bits)) Unreadable();
          break;
        case proto::kWireFixed64:
          if (end - p < 8) Unreadable();
          wire.bits = proto::ReadFixed64(p);
          p += 8;
          break;
        case proto::kWireFixed32:
          if (end - p < 4) Unreadable();
          wire.bits = proto::ReadFixed32(p);
          p += 4;
          break;
        case proto::kWireLength: {
          uint64_t size;
          if (!proto::ReadVarint(&p, end, &size) || size > static_cast<uint64_t>(end - p)) {
            Unreadable();
          }
          wire.payload = std::string_view(reinterpret_cast<const char*>(p), size);
          p += size;
          break;
        }
        case proto::kWireStartGroup:
          SkipGroup(&p, end);
          continue;
        default:
          Unreadable();
      }
      const uint64_t number = tag >> 3;
      const FieldSchema* field = number <= static_cast<uint64_t>(INT32_MAX)
                                     ? type.FindFieldByNumber(static_cast<int>(number))
                                     : nullptr;
      if (field == nullptr) continue;  // an unknown field
      const bool packed = wire_type == proto::kWireLength && field->packable();
      // libprotobuf keeps a record of a known number but another wire type as unknown.
      if (wire_type != field->wire_type() && !packed) continue;
      if (field != current) {
        if (current != nullptr && current->map) Map(&out, *current, first_entry, depth);
        current = field;
        list = nullptr;
      }
      if (field->map) {
        AddEntry(*field, wire.payload, type);
      } else if (!field->repeated) {
        if (IsUnknownEnum(*field, wire.bits, type)) continue;
        out[field->json_name] = Value(*field, wire, depth);
      } else if (!packed) {
        if (IsUnknownEnum(*field, wire.bits, type)) continue;
        AddToList(&out, *field, &list, Value(*field, wire, depth));
      } else {
        Packed(&out, *field, &list, wire.payload, type);
      }
    }
    if (current != nullptr && current->map) Map(&out, *current, first_entry, depth);
    return out;
  }

 private:
  static void AddToList(ojson* out, const FieldSchema& field, ojson** list, ojson value) {
    if (*list == nullptr) {
      *list = &(*out)[field.json_name];
      if (!(*list)->is_array()) **list = ojson::Array();
    }
    (*list)->items().push_back(std::move(value));
  }

  void Packed(ojson* out, const FieldSchema& field, ojson** list, std::string_view payload,
              const MessageSchema& owner) {
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
      AddToList(out, field, list, Value(field, wire, 0));
    }
  }

  // A proto2 message's enum fields are closed: libprotobuf keeps a number its enum does not
  // have as an unknown field, which serialisation writes after the known ones.
  static bool IsUnknownEnum(const FieldSchema& field, uint64_t bits, const MessageSchema& owner) {
    return field.type == FieldType::kEnum && !owner.proto3 &&
           field.enumeration->FindByNumber(static_cast<int32_t>(bits)) == nullptr;
  }

  // Element `wire` of `field`; `depth` is that of the message holding it.
  ojson Value(const FieldSchema& field, const WireValue& wire, int depth) {
    const uint64_t bits = wire.bits;
    switch (field.type) {
      case FieldType::kInt32:
        return static_cast<int32_t>(bits);
      case FieldType::kSint32:
        return proto::ZigZagDecode32(static_cast<uint32_t>(bits));
      case FieldType::kSfixed32:
        return static_cast<int32_t>(static_cast<uint32_t>(bits));
      case FieldType::kUint32:
      case FieldType::kFixed32:
        return static_cast<uint32_t>(bits);
      case FieldType::kInt64:
      case FieldType::kSfixed64:
        return std::to_string(static_cast<int64_t>(bits));
      case FieldType::kSint64:
        return std::to_string(proto::ZigZagDecode64(bits));
      case FieldType::kUint64:
      case FieldType::kFixed64:
        return std::to_string(bits);
      case FieldType::kFloat:
        return FloatJson(proto::BitsToFloat(static_cast<uint32_t>(bits)));
      case FieldType::kDouble:
        return DoubleJson(proto::BitsToDouble(bits));
      case FieldType::kBool:
        return bits != 0;
      case FieldType::kEnum: {
        const int number = static_cast<int32_t>(bits);
        const proto::EnumValueSchema* value = field.enumeration->FindByNumber(number);
        return value != nullptr ? ojson(std::string(value->name)) : ojson(number);
      }
      case FieldType::kString:
        return std::string(wire.payload);
      case FieldType::kBytes:
        return Base64Encode(wire.payload);
      case FieldType::kMessage:
        return Message(wire.payload, *field.message, depth + 1);
      case FieldType::kGroup:
        break;
    }
    return ojson();
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

  // The entries gathered from `first_entry` on, as an object sorted by key text (stable: of
  // equal keys the first place and the last value, as operator[] would leave them).
  void Map(ojson* out, const FieldSchema& field, size_t first_entry, int depth) {
    // None: records of the map among the unknown fields (entries a closed enum left there).
    if (entries_.size() == first_entry) return;
    const FieldSchema& value_field = *field.message->FindFieldByNumber(2);
    auto begin = entries_.begin() + static_cast<std::ptrdiff_t>(first_entry);
    auto by_key = [](const Entry& a, const Entry& b) { return a.key < b.key; };
    if (!std::is_sorted(begin, entries_.end(), by_key)) {
      std::stable_sort(begin, entries_.end(), by_key);
    }
    ojson map = ojson::Object();
    std::vector<ojson::Member>& members = map.members();
    const size_t count = entries_.size();
    for (size_t i = first_entry; i < count; ++i) {
      // A value that is a message adds entries of its own (and may move these).
      std::string key = std::move(entries_[i].key);
      WireValue wire = entries_[i].value;
      if (!entries_[i].has_value && value_field.type == FieldType::kEnum) {
        wire.bits = EnumDefault(value_field);
      }
      ojson value = Value(value_field, wire, depth);
      if (!members.empty() && members.back().first == key) {
        members.back().second = std::move(value);
      } else {
        members.emplace_back(std::move(key), std::move(value));
      }
    }
    entries_.resize(first_entry);
    (*out)[field.json_name] = std::move(map);
  }

  std::vector<Entry> entries_;  // of the maps being gathered, innermost last
};

}  // namespace

OrderedJson MessageToJson(const google::protobuf::MessageLite& message,
                          const proto::MessageSchema& schema) {
  return Writer().Message(proto::DeterministicBytes(message), schema, 0);
}

OrderedJson SerializedMessageToJson(std::string_view deterministic_bytes,
                                    const proto::MessageSchema& schema) {
  return Writer().Message(deterministic_bytes, schema, 0);
}

}  // namespace graphport::tfjs
