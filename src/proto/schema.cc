#include "proto/schema.h"

namespace graphport::proto {

const EnumValueSchema* EnumSchema::FindByNumber(int32_t number) const {
  for (int i = 0; i < value_count; ++i) {
    if (values[i].number == number) return &values[i];
  }
  return nullptr;
}

const EnumValueSchema* EnumSchema::FindByName(std::string_view name) const {
  for (int i = 0; i < value_count; ++i) {
    if (values[i].name == name) return &values[i];
  }
  return nullptr;
}

const FieldSchema* MessageSchema::FindFieldByNumber(int number) const {
  // Fields are sorted by number, and TensorFlow's are mostly 1..n: try the direct place first.
  if (number >= 1 && number <= field_count && fields[number - 1].number == number) {
    return &fields[number - 1];
  }
  int low = 0, high = field_count;
  while (low < high) {
    const int middle = low + (high - low) / 2;
    if (fields[middle].number < number) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < field_count && fields[low].number == number ? &fields[low] : nullptr;
}

const FieldSchema* MessageSchema::FindFieldByName(std::string_view field_name) const {
  for (const FieldSchema& field : *this) {
    if (field.name == field_name) return &field;
  }
  return nullptr;
}

const FieldSchema* MessageSchema::FindFieldByJsonName(std::string_view json_name) const {
  for (const FieldSchema& field : *this) {
    if (field.json_name == json_name) return &field;
  }
  return nullptr;
}

bool MessageSchema::IsReservedName(std::string_view reserved) const {
  for (int i = 0; i < reserved_name_count; ++i) {
    if (reserved_names[i] == reserved) return true;
  }
  return false;
}

const MessageSchema* SchemaSet::Find(std::string_view full_name) const {
  int low = 0, high = message_count;
  while (low < high) {
    const int middle = low + (high - low) / 2;
    if (messages[middle]->full_name < full_name) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < message_count && messages[low]->full_name == full_name ? messages[low] : nullptr;
}

}  // namespace graphport::proto
