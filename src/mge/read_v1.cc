#include "mge/read_v1.h"

#include "mge/opr_outputs.h"
#include "mge/read_common.h"
#include "mge/read_error.h"
#include "mge/schema/graph_v1_generated.h"

namespace graphport::mge {

namespace fbs = mgb::serialization::fbs;

void ReadV1Graph(std::string_view bytes, const DumpSpan& span, const std::string& file, Graph* g) {
  const FlatbufferAt fb = VerifiedFlatbuffer(
      *g, span, file,
      [](flatbuffers::Verifier& v) { return fbs::VerifySizePrefixedGraphBuffer(v); },
      "the FBS v1 flatbuffer fails FlatBuffers verification against the mgb1 Graph schema "
      "(corrupt or not a MegEngine graph)");
  const fbs::Graph* root = fbs::GetSizePrefixedGraph(fb.data);
  g->format = DumpFormat::kFbsV1;
  g->magic = span.magic;
  g->feature_bits = span.feature_bits;
  g->version = root->mgb_version();
  g->hash = root->hash();
  g->nr_shared_tensor = root->nr_shared_tensor();
  const V1Ids ids = span.magic == V1Magic::kMgbc ? V1Ids::kPersist : V1Ids::kUnversioned;

  std::string_view blob = bytes.substr(span.values, span.values_size);
  uint64_t cursor = 0;  // values are consumed strictly in order
  if (root->oprs() != nullptr) {
    // Sized once: a vector grown by doubling holds up to twice its operators, and copies them.
    // The vars are numbered as the operators are read; most operators make one.
    g->oprs.reserve(root->oprs()->size());
    g->vars.reserve(root->oprs()->size());
    for (const fbs::Operator* o : *root->oprs()) {
      const size_t index = g->oprs.size();
      Operator op;
      ReadOperatorFields(o, &op);
      op.cls = FindV1Class(op.type_id, ids);
      if (o->output_name() != nullptr) {
        op.output_names.emplace();
        for (const flatbuffers::String* s : *o->output_name()) op.output_names->push_back(s->str());
      }
      std::vector<const void*> param_at, tensor_at, blob_at;
      ReadParams(o, index, file, fb.OffsetOf(o), &op, &param_at);
      if (o->tensors() != nullptr) {
        op.has_tensors_vector = true;
        for (const fbs::Tensor* t : *o->tensors()) {
          Tensor tensor = ReadTensorFields(t);
          tensor.v1_offset = t->offset();
          uint64_t need = uint64_t{t->offset()} + t->data_size();
          if (need > blob.size() - cursor) {
            ThrowAt(ErrorCode::kParseError, file, static_cast<int64_t>(span.values + cursor),
                    "tensor " + std::to_string(op.tensors.size()) + " needs " +
                        std::to_string(t->data_size()) + " value bytes, but the value blob has " +
                        std::to_string(blob.size() - cursor -
                                       std::min<uint64_t>(t->offset(), blob.size() - cursor)) +
                        " left (the blob is shorter than its tensors)",
                    OprLabel(index, op.DisplayType()));
          }
          cursor += t->offset();
          if (t->data_size() != 0) {
            tensor.has_value = true;
            tensor.value = blob.substr(cursor, t->data_size());
            cursor += t->data_size();
            g->value_bytes += t->data_size();
          }
          CheckValueSize(tensor, op.tensors.size(), op, index, file, fb.OffsetOf(t));
          op.tensors.push_back(std::move(tensor));
          tensor_at.push_back(t);
        }
      }
      ReadBlobs(o->blobs(), &op, &blob_at);
      OrderDumpItems(&op, param_at, tensor_at, blob_at);
      CheckUnknownParams(op, index, fb.data, fb.size, file, fb.at);
      CheckInputsDefined(op, index, g->vars.size(), file, fb.OffsetOf(o));
      uint32_t outputs = 0;
      if (!V1NumberedOutputs(op, &outputs)) {
        ThrowAt(ErrorCode::kUnsupported, file, fb.OffsetOf(o),
                "an operator this version does not know, without output names: its outputs "
                "cannot be numbered",
                OprLabel(index, op.DisplayType()));
      }
      for (uint32_t i = 0; i < outputs; ++i) {
        op.outputs.push_back(static_cast<uint32_t>(g->vars.size()));
        // Built in place: GCC's -Wmaybe-uninitialized misreads a moved Var's optional name.
        Var& var = g->vars.emplace_back();
        var.opr = static_cast<uint32_t>(index);
        var.index = i;
      }
      g->oprs.push_back(std::move(op));
    }
  }
  // MegEngine's loader only needs the values to fit; bytes left over are never read.
  g->unused_value_bytes = blob.size() - cursor;
  ReadOutputVars(root->output_vars_idx(), fb, file, g);
  ReadMetadata(root->metadata(), g);
}

}  // namespace graphport::mge
