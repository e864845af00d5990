#include "mge/read_v2.h"

#include "mge/read_common.h"
#include "mge/read_error.h"
#include "mge/schema/model_v2_generated.h"
#include "mge/schema/operator_param_v1_generated.h"

namespace graphport::mge {

namespace v2 = mgb::serialization::fbs::v2;

namespace {

std::optional<TensorFormat> ReadFormat(uint8_t type, const void* table) {
  if (type == 0) return std::nullopt;
  TensorFormat f;
  f.type = type;
  auto* t = reinterpret_cast<const flatbuffers::Table*>(table);
  if (t != nullptr && type == v2::TensorFormat_Image2DPackedTensorFormat) {
    f.align_axis = t->GetField<uint8_t>(v2::Image2DPackedTensorFormat::VT_ALIGN_AXIS, 0);
  } else if (t != nullptr && type == v2::TensorFormat_LowbitsAlignedTensorFormat) {
    f.size_nbits = t->GetField<uint8_t>(v2::LowbitsAlignedTensorFormat::VT_SIZE_NBITS, 0);
    f.align_size_in_bits =
        t->GetField<uint8_t>(v2::LowbitsAlignedTensorFormat::VT_ALIGN_SIZE_IN_BITS, 0);
  }
  return f;
}

}  // namespace

void ReadV2Graph(const DumpSpan& span, const std::string& file, Graph* g) {
  const FlatbufferAt fb = VerifiedFlatbuffer(
      *g, span, file, [](flatbuffers::Verifier& v) { return v2::VerifySizePrefixedModelBuffer(v); },
      "the FBS_V2 flatbuffer fails FlatBuffers verification against the mgv2 Model schema "
      "(corrupt or not a MegEngine model)");
  const v2::Model* root = v2::GetSizePrefixedModel(fb.data);
  g->format = DumpFormat::kFbsV2;
  g->version = root->mge_version();
  g->model_version = root->model_version();
  g->nr_shared_tensor = root->nr_shared_tensor();

  if (root->oprs() != nullptr) {
    // Sized once: a vector grown by doubling holds up to twice its operators, and copies them.
    g->oprs.reserve(root->oprs()->size());
    size_t var_count = 0;
    for (const v2::Operator* o : *root->oprs())
      var_count += o->outputs() ? o->outputs()->size() : 0;
    g->vars.reserve(var_count);
    for (const v2::Operator* o : *root->oprs()) {
      const size_t index = g->oprs.size();
      Operator op;
      ReadOperatorFields(o, &op);
      op.opr_version = o->opr_version();
      op.type = OptString(o->type());
      op.cls = FindV2Class(op.type_id, op.opr_version);
      std::vector<const void*> param_at, tensor_at, blob_at;
      ReadParams(o, index, file, fb.OffsetOf(o), &op, &param_at);
      if (o->tensors() != nullptr) {
        op.has_tensors_vector = true;
        for (const v2::Tensor* t : *o->tensors()) {
          Tensor tensor = ReadTensorFields(t);
          tensor.format = ReadFormat(static_cast<uint8_t>(t->format_type()), t->format());
          if (t->data() != nullptr) {
            tensor.has_value = true;
            tensor.value = std::string_view(reinterpret_cast<const char*>(t->data()->data()),
                                            t->data()->size());
            g->value_bytes += t->data()->size();
          }
          CheckValueSize(tensor, op.tensors.size(), op, index, file, fb.OffsetOf(t));
          op.tensors.push_back(std::move(tensor));
          tensor_at.push_back(t);
        }
      }
      ReadBlobs(o->custom_data(), &op, &blob_at);
      // MegEngine writes V2 params with its v1 numbering, so 98 and 99 occur although the V2
      // union lacks them; the V2 verifier passed over them, the v1 one checks them here.
      for (const Param& p : op.params) {
        if (p.type > v2::OperatorParam_MAX && p.table != nullptr &&
            p.type <= mgb::serialization::fbs::OperatorParam_MAX) {
          flatbuffers::Verifier param_verifier(fb.data, fb.size);
          if (!mgb::serialization::fbs::VerifyOperatorParam(
                  param_verifier, p.table,
                  static_cast<mgb::serialization::fbs::OperatorParam>(p.type))) {
            ThrowAt(
                ErrorCode::kParseError, file, fb.OffsetOf(p.table),
                "param union member " + std::to_string(p.type) + " fails FlatBuffers verification",
                OprLabel(index, op.DisplayType()));
          }
        }
      }
      OrderDumpItems(&op, param_at, tensor_at, blob_at);
      CheckUnknownParams(op, index, fb.data, fb.size, file, fb.at);
      CheckInputsDefined(op, index, g->vars.size(), file, fb.OffsetOf(o));
      if (o->outputs() != nullptr) {
        op.has_outputs_vector = true;
        for (uint32_t id : *o->outputs()) {
          if (id != g->vars.size()) {
            ThrowAt(ErrorCode::kParseError, file, fb.OffsetOf(o),
                    "output id " + std::to_string(id) + " where var " +
                        std::to_string(g->vars.size()) + " comes next (ids count up from 0)",
                    OprLabel(index, op.DisplayType()));
          }
          op.outputs.push_back(id);
          // Built in place: GCC's -Wmaybe-uninitialized misreads a moved Var's optional name.
          Var& var = g->vars.emplace_back();
          var.opr = static_cast<uint32_t>(index);
          var.index = static_cast<uint32_t>(op.outputs.size() - 1);
        }
      }
      g->oprs.push_back(std::move(op));
    }
  }
  if (auto* middle = root->middle_tensors()) {
    g->has_middle_tensors = true;
    for (size_t i = 0; i < middle->size(); ++i) {
      const v2::MiddleTensor* m = middle->Get(static_cast<flatbuffers::uoffset_t>(i));
      if (i >= g->vars.size()) {
        ThrowAt(ErrorCode::kParseError, file, fb.OffsetOf(m),
                "middle tensor " + std::to_string(i) + " has no var (" +
                    std::to_string(g->vars.size()) + " vars)");
      }
      MiddleTensor& mt = g->vars[i].middle;
      mt.present = true;
      mt.name = OptString(m->name());
      mt.shape = OptU32s(m->shape());
      mt.comp_node = ReadCompNode(m->comp_node());
      mt.dtype = ReadDType(m->dtype());
      mt.format = ReadFormat(static_cast<uint8_t>(m->format_type()), m->format());
    }
  }
  ReadOutputVars(root->output_vars_idx(), fb, file, g);
  if (root->output_alias() != nullptr) {
    g->has_output_alias = true;
    for (const v2::OutputAlias* a : *root->output_alias()) {
      g->aliases.push_back({a->id(), OptString(a->name())});
    }
  }
  ReadMetadata(root->metadata(), g);
}

}  // namespace graphport::mge
