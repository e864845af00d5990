#ifndef GRAPHPORT_MGE_SCHEMA_SCHEMA_REFLECTION_H_
#define GRAPHPORT_MGE_SCHEMA_SCHEMA_REFLECTION_H_

// The embedded MegEngine schemas as reflection objects, so that any param table can be
// decoded by field name without code per table.

#include <flatbuffers/reflection.h>

#include <cstdint>
#include <string_view>

namespace graphport::mge {

// The parsed binary schemas (root mgb.serialization.fbs.Graph resp. .v2.Model). The family
// reads every param, V2 files' too, through GraphV1Schema(): the param tables are the same in
// both. ModelV2Schema() is for checks of the schema files, and not linked where none calls it.
const reflection::Schema& GraphV1Schema();
const reflection::Schema& ModelV2Schema();

// An object, enum or field by (full) name, e.g. "mgb.serialization.fbs.param.Convolution" or
// "pad_h"; nullptr when absent. Binary search: the binary schema keeps these vectors sorted by
// name. (Vector::LookupByKey does the same, but its inlined strcmp trips GCC 12's
// -Wstringop-overread in sanitizer builds.)
const reflection::Object* FindObject(const reflection::Schema& schema, std::string_view name);
const reflection::Enum* FindEnum(const reflection::Schema& schema, std::string_view name);
const reflection::Field* FindField(const reflection::Object& object, std::string_view name);

// The table an OperatorParam union type byte stands for in `schema`, or nullptr for 0 (NONE)
// and for numbers that schema does not declare. For GraphV1Schema() the lookup is an index
// built once; any other schema is searched on each call. V2 files can hold 98 and 99,
// which only the v1 union declares (MegEngine writes V2 params with its v1 numbering): look
// those up in GraphV1Schema() (the param tables are the same in both), and resolve the enum
// types of their fields in GraphV1Schema() too.
const reflection::Object* OperatorParamTable(const reflection::Schema& schema, uint8_t type);

// The default of an unsigned integer field, as the schema text gives it. flatc 2.0.8 writes 0
// into a binary schema for a ulong default above INT64_MAX (ExecutionPolicy.workspace_limit =
// 2^64-1), so the .fbs repeats such a default in the attribute kU64DefaultAttribute.
inline constexpr char kU64DefaultAttribute[] = "graphport_u64_default";
uint64_t UnsignedFieldDefault(const reflection::Field& field);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_SCHEMA_SCHEMA_REFLECTION_H_
