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
  const int64_t fb_at = static_cast<int64_t>(span.flatbuffer);
  auto* data = reinterpret_cast<const uint8_t*>(g->flatbuffer.data());
  flatbuffers::Verifier verifier(data, g->flatbuffer.size());
  if (!v2::VerifySizePrefixedModelBuffer(verifier)) {
    ThrowAt(ErrorCode::kParseError, file, fb_at,
            "the FBS_V2 flatbuffer fails FlatBuffers verification against the mgv2 Model "
            "schema (corrupt or not a MegEngine model)");
  }
  const v2::Model* root = v2::GetSizePrefixedModel(data);
  auto offset_of = [&](const void* p) {
    return fb_at + (reinterpret_cast<const uint8_t*>(p) - data);
  };
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
      op.type_id = o->type_id();
      op.opr_version = o->opr_version();
      op.type = OptString(o->type());
      op.cls = FindV2Class(op.type_id, op.opr_version);
      op.name = OptString(o->name());
      op.inputs = OptU32s(o->inputs());
      if (o->comp_node() != nullptr) {
        op.comp_nodes.emplace();
        for (const v2::CompNode* c : *o->comp_node()) {
          op.comp_nodes->push_back(OptString(c->logical_locator()));
        }
      }
      op.output_dtype = ReadDType(o->output_dtype());
      op.priority = o->priority();
      std::vector<const void*> param_at, tensor_at, blob_at;
      ReadParams(o, index, file, offset_of(o), &op, &param_at);
      if (o->tensors() != nullptr) {
        op.has_tensors_vector = true;
        for (const v2::Tensor* t : *o->tensors()) {
          Tensor tensor;
          tensor.name = OptString(t->name());
          tensor.shape = OptU32s(t->shape());
          tensor.comp_node = ReadCompNode(t->comp_node());
          tensor.dtype = ReadDType(t->dtype());
          tensor.format = ReadFormat(static_cast<uint8_t>(t->format_type()), t->format());
          if (t->data() != nullptr) {
            tensor.has_value = true;
            tensor.value = std::string_view(reinterpret_cast<const char*>(t->data()->data()),
                                            t->data()->size());
            g->value_bytes += t->data()->size();
          }
          CheckValueSize(tensor, op.tensors.size(), op, index, file, offset_of(t));
          op.tensors.push_back(std::move(tensor));
          tensor_at.push_back(t);
        }
      }
      if (o->custom_data() != nullptr) {
        op.has_blobs_vector = true;
        for (const v2::Blob* b : *o->custom_data()) {
          Blob blob;
          if (b->data() != nullptr) {
            blob.has_data = true;
            blob.data = std::string_view(reinterpret_cast<const char*>(b->data()->data()),
                                         b->data()->size());
          }
          op.blobs.push_back(blob);
          blob_at.push_back(b);
        }
      }
      // MegEngine writes V2 params with its v1 numbering, so 98 and 99 occur although the V2
      // union lacks them; the V2 verifier passed over them, the v1 one checks them here.
      for (const Param& p : op.params) {
        if (p.type > v2::OperatorParam_MAX && p.table != nullptr &&
            p.type <= mgb::serialization::fbs::OperatorParam_MAX) {
          flatbuffers::Verifier param_verifier(data, g->flatbuffer.size());
          if (!mgb::serialization::fbs::VerifyOperatorParam(
                  param_verifier, p.table,
                  static_cast<mgb::serialization::fbs::OperatorParam>(p.type))) {
            ThrowAt(
                ErrorCode::kParseError, file, offset_of(p.table),
                "param union member " + std::to_string(p.type) + " fails FlatBuffers verification",
                OprLabel(index, op.DisplayType()));
          }
        }
      }
      OrderDumpItems(&op, param_at, tensor_at, blob_at);
      CheckUnknownParams(op, index, data, g->flatbuffer.size(), file, fb_at);
      CheckInputsDefined(op, index, g->vars.size(), file, offset_of(o));
      if (o->outputs() != nullptr) {
        op.has_outputs_vector = true;
        for (uint32_t id : *o->outputs()) {
          if (id != g->vars.size()) {
            ThrowAt(ErrorCode::kParseError, file, offset_of(o),
                    "output id " + std::to_string(id) + " where var " +
                        std::to_string(g->vars.size()) + " comes next (ids count up from 0)",
                    OprLabel(index, op.DisplayType()));
          }
          op.outputs.push_back(id);
          Var var;
          var.opr = static_cast<uint32_t>(index);
          var.index = static_cast<uint32_t>(op.outputs.size() - 1);
          g->vars.push_back(std::move(var));
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
        ThrowAt(ErrorCode::kParseError, file, offset_of(m),
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
  if (root->output_vars_idx() != nullptr) {
    for (const v2::OutputVar* v : *root->output_vars_idx()) {
      if (v->compact_id() >= g->vars.size()) {
        ThrowAt(ErrorCode::kParseError, file, offset_of(v),
                "output var " + std::to_string(v->compact_id()) + " is not defined (" +
                    std::to_string(g->vars.size()) + " vars)");
      }
      g->outputs.push_back({v->compact_id(), v->original_id()});
    }
  }
  if (root->output_alias() != nullptr) {
    g->has_output_alias = true;
    for (const v2::OutputAlias* a : *root->output_alias()) {
      g->aliases.push_back({a->id(), OptString(a->name())});
    }
  }
  if (const v2::Metadata* m = root->metadata()) {
    g->metadata.present = true;
    g->metadata.is_valid = m->is_valid();
    g->metadata.graph_modified = m->graph_modified();
    g->metadata.user_info = OptString(m->user_info());
    g->metadata.optimize_options = m->optimize_options();
  }
}

}  // namespace graphport::mge
