#include "mge/schema/schema_reflection.h"

#include <array>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mge/schema/embedded_schemas.h"

namespace graphport::mge {
namespace {

std::string_view View(const flatbuffers::String* text) {
  return text == nullptr ? std::string_view() : std::string_view(text->c_str(), text->size());
}

// Binary search in a vector of tables sorted by the string `key_of` returns.
template <typename T, typename KeyOf>
const T* FindSorted(const flatbuffers::Vector<flatbuffers::Offset<T>>* items, std::string_view key,
                    KeyOf key_of) {
  if (items == nullptr) return nullptr;
  flatbuffers::uoffset_t low = 0, high = items->size();
  while (low < high) {
    flatbuffers::uoffset_t mid = low + (high - low) / 2;
    int order = View(key_of(*items->Get(mid))).compare(key);
    if (order == 0) return items->Get(mid);
    if (order < 0) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return nullptr;
}

template <typename T>
const T* FindNamed(const flatbuffers::Vector<flatbuffers::Offset<T>>* items,
                   std::string_view name) {
  return FindSorted(items, name, [](const T& item) { return item.name(); });
}

// Table of each union type byte (nullptr where the union has no member), built once per schema:
// readers look a param up for every operator.
using UnionIndex = std::array<const reflection::Object*, 256>;

UnionIndex BuildUnionIndex(const reflection::Schema& schema) {
  UnionIndex index{};
  // The union is declared in the root table's namespace: mgb.serialization.fbs[.v2].
  std::string root = schema.root_table()->name()->str();
  std::string name = root.substr(0, root.rfind('.') + 1) + "OperatorParam";
  const reflection::Enum* the_union = FindEnum(schema, name);
  if (the_union == nullptr) return index;
  for (const reflection::EnumVal* value : *the_union->values()) {
    const reflection::Type* type = value->union_type();
    if (value->value() <= 0 || value->value() > 255 || type == nullptr ||
        type->base_type() != reflection::Obj) {
      continue;
    }
    index[static_cast<size_t>(value->value())] =
        schema.objects()->Get(static_cast<flatbuffers::uoffset_t>(type->index()));
  }
  return index;
}

}  // namespace

const reflection::Schema& GraphV1Schema() {
  static const reflection::Schema* schema = reflection::GetSchema(GraphV1Bfbs().data());
  return *schema;
}

const reflection::Object* FindObject(const reflection::Schema& schema, std::string_view name) {
  return FindNamed(schema.objects(), name);
}

const reflection::Enum* FindEnum(const reflection::Schema& schema, std::string_view name) {
  return FindNamed(schema.enums(), name);
}

const reflection::Field* FindField(const reflection::Object& object, std::string_view name) {
  return FindNamed(object.fields(), name);
}

const reflection::Object* OperatorParamTable(const reflection::Schema& schema, uint8_t type) {
  if (&schema == &GraphV1Schema()) {
    static const UnionIndex v1 = BuildUnionIndex(schema);
    return v1[type];
  }
  return BuildUnionIndex(schema)[type];
}

uint64_t UnsignedFieldDefault(const reflection::Field& field) {
  const reflection::KeyValue* attribute =
      FindSorted(field.attributes(), kU64DefaultAttribute,
                 [](const reflection::KeyValue& item) { return item.key(); });
  if (attribute != nullptr && attribute->value() != nullptr) {
    return std::strtoull(attribute->value()->c_str(), nullptr, 10);
  }
  return static_cast<uint64_t>(field.default_integer());
}

}  // namespace graphport::mge
