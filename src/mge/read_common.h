// Pieces both flatbuffer readers share: converting the generated tables into the index of
// mge_model.h, in creation order, with the checks MegEngine's loader makes.
#ifndef GRAPHPORT_MGE_READ_COMMON_H_
#define GRAPHPORT_MGE_READ_COMMON_H_

#include <flatbuffers/flatbuffers.h>

#include <optional>
#include <string>
#include <vector>

#include "mge/mge_model.h"
#include "mge/read_error.h"
#include "mge/schema/dtype_generated.h"

namespace graphport::mge {

inline std::optional<std::string> OptString(const flatbuffers::String* s) {
  if (s == nullptr) return std::nullopt;
  return s->str();
}

inline std::optional<std::vector<uint32_t>> OptU32s(const flatbuffers::Vector<uint32_t>* v) {
  if (v == nullptr) return std::nullopt;
  return std::vector<uint32_t>(v->begin(), v->end());
}

std::optional<DType> ReadDType(const mgb::serialization::fbs::DType* d);

// A CompNode table: absent, present without a locator, or with one.
template <typename CompNodeTable>
std::optional<std::optional<std::string>> ReadCompNode(const CompNodeTable* c) {
  if (c == nullptr) return std::nullopt;
  return OptString(c->logical_locator());
}

// Reads an operator table's param and additional params (both formats name them alike) into
// `op`, in order, and their tables' addresses into `param_at` (for OrderDumpItems). The two
// vectors of additional params must be the same length; `at` is the operator's offset in the
// file, for that error.
template <typename OperatorTable>
void ReadParams(const OperatorTable* o, size_t index, const std::string& file, int64_t at,
                Operator* op, std::vector<const void*>* param_at) {
  if (o->param_type() != 0) {  // 0: OperatorParam NONE
    op->params.push_back(
        {static_cast<uint8_t>(o->param_type()), static_cast<const uint8_t*>(o->param())});
    param_at->push_back(o->param());
  }
  auto* extra_types = o->additional_params_type();
  auto* extra = o->additional_params();
  if (extra_types == nullptr && extra == nullptr) return;
  op->has_additional_params_vector = true;
  size_t n = extra_types ? extra_types->size() : 0;
  if (extra == nullptr || extra->size() != n) {
    ThrowAt(ErrorCode::kParseError, file, at,
            "additional_params_type and additional_params differ in length",
            OprLabel(index, op->DisplayType()));
  }
  for (size_t i = 0; i < n; ++i) {
    const void* table = extra->Get(static_cast<flatbuffers::uoffset_t>(i));
    op->params.push_back({extra_types->Get(i), static_cast<const uint8_t*>(table)});
    param_at->push_back(table);
  }
}

// Orders the operator's params, tensors and blobs as MegEngine's dumper created them: a
// FlatBuffers builder writes back to front, so a later object sits at a lower address.
void OrderDumpItems(Operator* op, const std::vector<const void*>& param_tables,
                    const std::vector<const void*>& tensor_tables,
                    const std::vector<const void*>& blob_tables);

// Checks that every input id names a var already defined (MegEngine's loader asserts it).
void CheckInputsDefined(const Operator& op, size_t index, size_t vars_defined,
                        const std::string& file, int64_t offset);

// Checks the tables of param union members newer than the schemas (above 99), which the
// generated verifiers pass over: their vtable and inline bytes must lie in the flatbuffer
// (`data`, `size`; `fb_at` is its offset in the file), as the writer copies them byte for byte.
void CheckUnknownParams(const Operator& op, size_t index, const uint8_t* data, size_t size,
                        const std::string& file, int64_t fb_at);

// Checks a tensor's value size against its shape and dtype ("tensor #i of operator ...").
void CheckValueSize(const Tensor& t, size_t tensor_index, const Operator& op, size_t opr_index,
                    const std::string& file, int64_t offset);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_READ_COMMON_H_
