// Pieces both flatbuffer readers share: converting the generated tables into the index of
// mge_model.h, in creation order, with the checks MegEngine's loader makes.
#ifndef GRAPHPORT_MGE_READ_COMMON_H_
#define GRAPHPORT_MGE_READ_COMMON_H_

#include <flatbuffers/flatbuffers.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mge/container.h"
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

// The size-prefixed flatbuffer a reader walks, verified, and where it lies in the file: tables
// are named in messages by their file offsets.
struct FlatbufferAt {
  const uint8_t* data = nullptr;
  size_t size = 0;
  int64_t at = 0;  // the flatbuffer's offset in the file

  int64_t OffsetOf(const void* p) const {
    return at + (reinterpret_cast<const uint8_t*>(p) - data);
  }
};

// `g->flatbuffer` at `span.flatbuffer` in `file`, checked by `verify` (the generated
// VerifySizePrefixed...Buffer of the format's root); `failure` says what a failure means.
template <typename Verify>
FlatbufferAt VerifiedFlatbuffer(const Graph& g, const DumpSpan& span, const std::string& file,
                                const Verify& verify, const char* failure) {
  FlatbufferAt fb{reinterpret_cast<const uint8_t*>(g.flatbuffer.data()), g.flatbuffer.size(),
                  static_cast<int64_t>(span.flatbuffer)};
  flatbuffers::Verifier verifier(fb.data, fb.size);
  if (!verify(verifier)) ThrowAt(ErrorCode::kParseError, file, fb.at, failure);
  return fb;
}

// The fields both formats' Operator tables share: type id, name, inputs, comp nodes, output
// dtype and priority.
template <typename OperatorTable>
void ReadOperatorFields(const OperatorTable* o, Operator* op) {
  op->type_id = o->type_id();
  op->name = OptString(o->name());
  op->inputs = OptU32s(o->inputs());
  if (o->comp_node() != nullptr) {
    op->comp_nodes.emplace();
    for (const auto* c : *o->comp_node()) {
      op->comp_nodes->push_back(c == nullptr ? std::nullopt : OptString(c->logical_locator()));
    }
  }
  op->output_dtype = ReadDType(o->output_dtype());
  op->priority = o->priority();
}

// The fields both formats' Tensor tables share: name, shape, comp node, dtype.
template <typename TensorTable>
Tensor ReadTensorFields(const TensorTable* t) {
  Tensor tensor;
  tensor.name = OptString(t->name());
  tensor.shape = OptU32s(t->shape());
  tensor.comp_node = ReadCompNode(t->comp_node());
  tensor.dtype = ReadDType(t->dtype());
  return tensor;
}

// A blob vector of either format (FBS_V2: custom_data) into `op`, and the tables' addresses
// into `blob_at` (for OrderDumpItems). FBS v1 requires a blob's data, FBS_V2 does not.
template <typename BlobVector>
void ReadBlobs(const BlobVector* blobs, Operator* op, std::vector<const void*>* blob_at) {
  if (blobs == nullptr) return;
  op->has_blobs_vector = true;
  for (const auto* b : *blobs) {
    Blob blob;
    if (b->data() != nullptr) {
      blob.has_data = true;
      blob.data =
          std::string_view(reinterpret_cast<const char*>(b->data()->data()), b->data()->size());
    }
    op->blobs.push_back(blob);
    blob_at->push_back(b);
  }
}

// The graph's output vars (either format's OutputVar), each a var the operators defined.
template <typename OutputVars>
void ReadOutputVars(const OutputVars* vars, const FlatbufferAt& fb, const std::string& file,
                    Graph* g) {
  if (vars == nullptr) return;
  for (const auto* v : *vars) {
    if (v->compact_id() >= g->vars.size()) {
      ThrowAt(ErrorCode::kParseError, file, fb.OffsetOf(v),
              "output var " + std::to_string(v->compact_id()) + " is not defined (" +
                  std::to_string(g->vars.size()) + " vars)");
    }
    g->outputs.push_back({v->compact_id(), v->original_id()});
  }
}

// The Metadata table of either format, when there is one.
template <typename MetadataTable>
void ReadMetadata(const MetadataTable* m, Graph* g) {
  if (m == nullptr) return;
  g->metadata.present = true;
  g->metadata.is_valid = m->is_valid();
  g->metadata.graph_modified = m->graph_modified();
  g->metadata.user_info = OptString(m->user_info());
  g->metadata.optimize_options = m->optimize_options();
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
