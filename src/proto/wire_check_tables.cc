#include "proto/wire_check_tables.h"

#include <algorithm>

namespace graphport::proto {
using wire_check_internal::FieldInfo;
using wire_check_internal::TypeInfo;

const TypeInfo& WireChecker::Tables::For(const MessageSchema& type) {
  auto& slot = types[&type];
  if (slot != nullptr) return *slot;
  slot = std::make_unique<TypeInfo>();
  TypeInfo& info = *slot;
  info.type = &type;
  info.proto3 = type.proto3;
  info.map_entry = type.map_entry;
  int largest = 0;
  for (const FieldSchema& f : type) largest = std::max(largest, f.number);
  // A schema with huge field numbers would make the table large: those are looked up.
  info.fields.resize(std::min(largest, kMaxTabledField) + 1);
  for (const FieldSchema& f : type) {
    if (f.number > kMaxTabledField) continue;
    info.fields[f.number] = Describe(f, info);
  }
  info.field_limit = static_cast<int>(info.fields.size());
  for (int tag = 0; tag < 128; ++tag) {
    const int number = tag >> 3;
    if (number == 0 || number >= info.field_limit) continue;
    const FieldInfo& fi = info.fields[number];
    if (fi.field != nullptr && fi.wire_type == (tag & 7)) info.by_tag[tag] = &fi;
  }
  return info;
}

FieldInfo WireChecker::Tables::Describe(const FieldSchema& f, const TypeInfo& owner) {
  FieldInfo fi;
  fi.field = &f;
  fi.type = f.type;
  fi.wire_type = f.wire_type();
  fi.repeated = f.repeated;
  fi.packable = f.packable();
  fi.packed = f.packed;
  fi.is_map = f.map;
  fi.zero_omitted = owner.proto3 && !owner.map_entry && !f.repeated && !f.presence;
  fi.is_string = f.type == FieldType::kString;
  fi.is_message = f.type == FieldType::kMessage;
  fi.oneof = f.oneof;
  fi.plain_text = f.is_text() && fi.oneof < 0;
  fi.memory_width = MemoryWidthOf(f.type);
  if (fi.is_map) {
    const FieldSchema* key = f.message->FindFieldByNumber(1);
    switch (key != nullptr ? key->type : FieldType::kGroup) {
      case FieldType::kString:
        fi.map_key = FieldInfo::MapKeyOrder::kString;
        break;
      case FieldType::kUint32:
      case FieldType::kUint64:
      case FieldType::kBool:
        fi.map_key = FieldInfo::MapKeyOrder::kUnsigned;
        break;
      case FieldType::kInt32:
      case FieldType::kInt64:
        fi.map_key = FieldInfo::MapKeyOrder::kSigned;
        break;
      default:
        break;
    }
  }
  return fi;
}

}  // namespace graphport::proto
