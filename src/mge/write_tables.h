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

// What an operator's dumper wrote, in its order: the params, the tensors and the blobs (FBS_V2:
// custom data), the count blob of a holder that has one before its first tensor (or alone).
template <typename TensorT, typename BlobT>
struct DumperItems {
  BuiltParams params;
  std::vector<flatbuffers::Offset<TensorT>> tensors;
  std::vector<flatbuffers::Offset<BlobT>> blobs;
};
// Replays the dumper of operator `opr`: `make_tensor(index)` builds its tensor `index`,
// `make_blob(blob)` a blob; the params are copied as written by `graph`'s version.
template <typename TensorT, typename BlobT, typename MakeTensor, typename MakeBlob>
DumperItems<TensorT, BlobT> ReplayDumper(flatbuffers::FlatBufferBuilder* fbb, const Graph& graph,
                                         size_t opr, const ItemsToWrite& items,
                                         const std::string& label, const MakeTensor& make_tensor,
                                         const MakeBlob& make_blob) {
  const Operator& op = graph.oprs[opr];
  DumperItems<TensorT, BlobT> out;
  auto write_count_blob = [&]() {
    out.blobs.push_back(BuildBlob<BlobT>(fbb, CountBlob(op.tensors.size())));
  };
  for (const DumpItem& item : items.items) {
    if (item.kind == DumpItem::kParam) {
      const Param& p = op.params[item.index];
      out.params.push_back({p.type, CopyParam(fbb, p, label, graph.version)});
    } else if (item.kind == DumpItem::kTensor) {
      if (items.add_count_blob && out.tensors.empty()) write_count_blob();
      out.tensors.push_back(make_tensor(item.index));
    } else {
      out.blobs.push_back(make_blob(op.blobs[item.index]));
    }
  }
  if (items.add_count_blob && out.tensors.empty()) write_count_blob();
  return out;
}

// The vectors an operator table holds its dumper's items in, built in the dumpers' order
// (tensors, blobs, additional params); each null when empty.
template <typename TensorT, typename BlobT>
struct DumperVectors {
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<TensorT>>> tensors;
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<BlobT>>> blobs;
  AdditionalParams extra;
};
template <typename TensorT, typename BlobT>
DumperVectors<TensorT, BlobT> BuildDumperVectors(flatbuffers::FlatBufferBuilder* fbb,
                                                 const DumperItems<TensorT, BlobT>& items) {
  DumperVectors<TensorT, BlobT> out;
  if (!items.tensors.empty()) out.tensors = fbb->CreateVector(items.tensors);
  if (!items.blobs.empty()) out.blobs = fbb->CreateVector(items.blobs);
  out.extra = CreateAdditionalParams(fbb, items.params);
  return out;
}

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_WRITE_TABLES_H_
