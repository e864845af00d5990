// The tables FBS v1 and FBS_V2 spell alike (CompNode, Blob, a tensor's leading fields, an
// operator's params), built once for both writers by templates on the generated types. Each
// builds its fields in the order MegEngine's dumpers do, so the bytes are theirs.
#ifndef GRAPHPORT_MGE_WRITE_TABLES_H_
#define GRAPHPORT_MGE_WRITE_TABLES_H_

#include <flatbuffers/flatbuffers.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mge/little_endian.h"
#include "mge/mge_model.h"
#include "mge/param_copy.h"
#include "mge/schema/dtype_generated.h"
#include "mge/shared_strings.h"
#include "mge/write_common.h"

namespace graphport::mge {

// A CompNode table (fbs::CompNode, v2::CompNode): the locator, when there is one.
template <typename CompNodeT>
flatbuffers::Offset<CompNodeT> BuildCompNode(flatbuffers::FlatBufferBuilder* fbb,
                                             SharedStrings* strings,
                                             const std::optional<std::string>& locator) {
  flatbuffers::Offset<flatbuffers::String> s;
  if (locator) s = strings->Create(*locator);
  typename CompNodeT::Builder b(*fbb);
  b.add_logical_locator(s);
  return b.Finish();
}

// An operator's comp node vector; null when the operator has none.
template <typename CompNodeT>
flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<CompNodeT>>> BuildCompNodes(
    flatbuffers::FlatBufferBuilder* fbb, SharedStrings* strings, const Operator& op) {
  if (!op.comp_nodes) return 0;
  std::vector<flatbuffers::Offset<CompNodeT>> cns;
  for (const auto& locator : *op.comp_nodes) {
    cns.push_back(BuildCompNode<CompNodeT>(fbb, strings, locator));
  }
  return fbb->CreateVector(cns);
}

// A Blob table (fbs::Blob, v2::Blob) holding `bytes`; without data when there are none.
template <typename BlobT>
flatbuffers::Offset<BlobT> BuildBlob(flatbuffers::FlatBufferBuilder* fbb,
                                     std::optional<std::string_view> bytes) {
  flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data;
  if (bytes) {
    data = fbb->CreateVector(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
  }
  typename BlobT::Builder b(*fbb);
  b.add_data(data);
  return b.Finish();
}

// The blob MultipleDeviceTensorHolder's dumper writes before its tensors: their count, u32.
inline std::string CountBlob(size_t tensors) {
  std::string count;
  AppendLe(&count, tensors, 4);
  return count;
}

// The fields a Tensor table of either format starts with, built in the dumpers' order:
// name, shape, comp node, dtype.
template <typename CompNodeT>
struct TensorFields {
  flatbuffers::Offset<flatbuffers::String> name;
  flatbuffers::Offset<flatbuffers::Vector<uint32_t>> shape;
  flatbuffers::Offset<CompNodeT> comp_node;
  flatbuffers::Offset<mgb::serialization::fbs::DType> dtype;
};
template <typename CompNodeT>
TensorFields<CompNodeT> BuildTensorFields(flatbuffers::FlatBufferBuilder* fbb,
                                          SharedStrings* strings,
                                          const std::optional<std::string>& name, const Tensor& t) {
  TensorFields<CompNodeT> f;
  if (name) f.name = strings->Create(*name);
  if (t.shape) f.shape = fbb->CreateVector(*t.shape);
  if (t.comp_node) f.comp_node = BuildCompNode<CompNodeT>(fbb, strings, *t.comp_node);
  if (t.dtype) f.dtype.o = BuildDType(fbb, *t.dtype).o;
  return f;
}

// Adds an operator's param and additional params to its builder (fbs::OperatorBuilder,
// v2::OperatorBuilder, whose union enum is ParamEnum).
template <typename ParamEnum, typename OperatorBuilder>
void AddParams(OperatorBuilder* ob, const BuiltParams& params, const AdditionalParams& extra) {
  if (!params.empty()) {
    ob->add_param_type(static_cast<ParamEnum>(params[0].first));
    ob->add_param(params[0].second);
  }
  if (!extra.IsNull()) {
    ob->add_additional_params_type(extra.types);
    ob->add_additional_params(extra.tables);
  }
}

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_WRITE_TABLES_H_
