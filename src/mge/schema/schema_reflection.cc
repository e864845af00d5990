#include "mge/schema/schema_reflection.h"

#include <cstdlib>
#include <string>
#include <string_view>

#include "mge/schema/embedded_schemas.h"

namespace graphport::mge {
namespace {

// The union is declared in the root table's namespace: mgb.serialization.fbs[.v2].
std::string OperatorParamEnumName(const reflection::Schema& schema) {
  std::string root = schema.root_table()->name()->str();
  return root.substr(0, root.rfind('.') + 1) + "OperatorParam";
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
  if (type == 0) return nullptr;
  const reflection::Enum* the_union =
      schema.enums()->LookupByKey(OperatorParamEnumName(schema).c_str());
  if (the_union == nullptr) return nullptr;
  for (const reflection::EnumVal* value : *the_union->values()) {
    if (value->value() != type) continue;
    const reflection::Type* union_type = value->union_type();
    if (union_type == nullptr || union_type->base_type() != reflection::Obj) return nullptr;
    return schema.objects()->Get(static_cast<flatbuffers::uoffset_t>(union_type->index()));
  }
  return nullptr;
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
