#include "mge/schema/schema_reflection.h"

#include <array>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mge/schema/embedded_schemas.h"

namespace graphport::mge {
namespace {

// Table of each union type byte (nullptr where the union has no member), built once per schema:
// readers look a param up for every operator.
using UnionIndex = std::array<const reflection::Object*, 256>;

UnionIndex BuildUnionIndex(const reflection::Schema& schema) {
  UnionIndex index{};
  // The union is declared in the root table's namespace: mgb.serialization.fbs[.v2].
  std::string root = schema.root_table()->name()->str();
  std::string name = root.substr(0, root.rfind('.') + 1) + "OperatorParam";
  const reflection::Enum* the_union = schema.enums()->LookupByKey(name.c_str());
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

const reflection::Schema& ModelV2Schema() {
  static const reflection::Schema* schema = reflection::GetSchema(ModelV2Bfbs().data());
  return *schema;
}

const reflection::Object* OperatorParamTable(const reflection::Schema& schema, uint8_t type) {
  if (&schema == &GraphV1Schema()) {
    static const UnionIndex v1 = BuildUnionIndex(schema);
    return v1[type];
  }
  if (&schema == &ModelV2Schema()) {
    static const UnionIndex v2 = BuildUnionIndex(schema);
    return v2[type];
  }
  return BuildUnionIndex(schema)[type];
}

uint64_t UnsignedFieldDefault(const reflection::Field& field) {
  if (field.attributes() != nullptr) {
    if (const reflection::KeyValue* attribute =
            field.attributes()->LookupByKey(kU64DefaultAttribute)) {
      if (attribute->value() != nullptr) {
        return std::strtoull(attribute->value()->c_str(), nullptr, 10);
      }
    }
  }
  return static_cast<uint64_t>(field.default_integer());
}

}  // namespace graphport::mge
