#include "mge/write_v2.h"

#include <flatbuffers/flatbuffers.h>

#include "mge/param_copy.h"
#include "mge/schema/model_v2_generated.h"
#include "mge/shared_strings.h"
#include "mge/write_tables.h"

namespace graphport::mge {
namespace {

namespace v2 = mgb::serialization::fbs::v2;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

Offset<void> BuildFormat(FlatBufferBuilder* fbb, const TensorFormat& f) {
  switch (f.type) {
    case v2::TensorFormat_Image2DPackedTensorFormat:
      return v2::CreateImage2DPackedTensorFormat(*fbb, f.align_axis).Union();
    case v2::TensorFormat_LowbitsAlignedTensorFormat:
      return v2::CreateLowbitsAlignedTensorFormat(*fbb, f.size_nbits, f.align_size_in_bits).Union();
    default:
      return v2::CreateDefaultTensorFormat(*fbb).Union();
  }
}

// What MegEngine's V2 dumper knows of a var that an FBS v1 file does not store: a constant's
// var holds its value on the device at dump time (shape, comp node, dtype, format); an
// input's var has its static shape only; of any other var graphport knows nothing more.
MiddleTensor MiddleFromV1(const Operator& op, uint32_t var) {
  MiddleTensor mt;
  mt.present = true;
  if (op.cls == nullptr || op.tensors.size() != 1 || op.outputs.size() != 1 ||
      op.outputs[0] != var) {
    return mt;
  }
  const Tensor& t = op.tensors[0];
  if (op.cls->key == "ImmutableTensor" && t.has_value) {
    mt.shape = t.shape;
    mt.comp_node = t.comp_node;
    mt.dtype = t.dtype;
    mt.format = TensorFormat{v2::TensorFormat_DefaultTensorFormat};
  } else if (op.cls->key == "Host2DeviceCopy" && t.shape && !t.shape->empty()) {
    mt.shape = t.shape;
  }
  return mt;
}

}  // namespace

WrittenDump WriteV2(const DumpPlan& plan) {
  const Graph& g = *plan.graph;
  const bool from_v1 = g.format == DumpFormat::kFbsV1;
  WrittenDump out;
  // The values go into the flatbuffer: sized for them (and the loaded flatbuffer's tables) up
  // front, the builder does not grow by doubling and copying all it holds, which in
  // WebAssembly would leave the heap at several times the values.
  const uint64_t expected = g.flatbuffer.size() + (from_v1 ? g.value_bytes : 0);
  FlatBufferBuilder fbb(static_cast<size_t>(expected + expected / 16 + 4096));
  SharedStrings strings(&fbb);

  Offset<v2::Metadata> metadata;
  if (plan.write_metadata) {
    const Metadata& m = plan.metadata;
    auto user_info = strings.Create(m.user_info.value_or(""));
    v2::MetadataBuilder mb(fbb);
    mb.add_is_valid(m.is_valid);
    mb.add_graph_modified(m.graph_modified);
    mb.add_optimize_options(m.optimize_options);
    mb.add_user_info(user_info);
    metadata = mb.Finish();
  }

  std::vector<Offset<v2::Operator>> oprs;
  std::vector<Offset<v2::MiddleTensor>> middle(g.vars.size());
  for (size_t i = 0; i < g.oprs.size(); ++i) {
    const Operator& op = g.oprs[i];
    OprIdentity id = V2Identity(g, i);
    const std::string label = WriterOprLabel(g, i);
    // a. inputs
    Offset<flatbuffers::Vector<uint32_t>> inputs;
    if (op.inputs && !op.inputs->empty()) inputs = fbb.CreateVector(*op.inputs);
    // b. the operator's dumper
    const auto items = ReplayDumper<v2::Tensor, v2::Blob>(
        &fbb, g, i, ItemsFor(g, i, DumpFormat::kFbsV2, id.opr_version), label,
        [&](size_t k) {
          const Tensor& t = op.tensors[k];
          Offset<flatbuffers::Vector<uint8_t>> data;
          if (t.has_value) {
            data =
                fbb.CreateVector(reinterpret_cast<const uint8_t*>(t.value.data()), t.value.size());
            out.tensor_value_bytes += t.value.size();
          }
          const auto f =
              BuildTensorFields<v2::CompNode>(&fbb, &strings, plan.tensor_names[i][k], t);
          // MegEngine gives every V2 tensor a format (Default unless a holder passes one); a
          // tensor from FBS v1 gets Default, one from FBS_V2 keeps what it had.
          std::optional<TensorFormat> format = t.format;
          if (from_v1) format = TensorFormat{v2::TensorFormat_DefaultTensorFormat};
          Offset<void> format_table;
          if (format) format_table = BuildFormat(&fbb, *format);
          return v2::CreateTensor(
              fbb, f.name, f.shape, f.comp_node, f.dtype,
              format ? static_cast<v2::TensorFormat>(format->type) : v2::TensorFormat_NONE,
              format_table, data);
        },
        [&](const Blob& b) {
          return BuildBlob<v2::Blob>(
              &fbb, b.has_data ? std::optional<std::string_view>(b.data) : std::nullopt);
        });
    // c. comp nodes; d. name; e. output dtype
    const auto comp_nodes = BuildCompNodes<v2::CompNode>(&fbb, &strings, op);
    Offset<flatbuffers::String> name;
    if (plan.opr_names[i]) name = strings.Create(*plan.opr_names[i]);
    Offset<void> output_dtype;
    if (op.output_dtype) output_dtype = BuildDType(&fbb, *op.output_dtype);
    // f. outputs, each var's middle tensor built right here
    Offset<flatbuffers::Vector<uint32_t>> outputs;
    if (plan.write_middle_tensors) {
      for (uint32_t v : op.outputs) {
        // An optimized graph has its own (OptGraph::Emit), whatever it was read from.
        const MiddleTensor& mt =
            from_v1 && !g.vars[v].middle.present ? MiddleFromV1(op, v) : g.vars[v].middle;
        auto mname = strings.Create(plan.var_names[v]);
        if (mt.present && (mt.comp_node || mt.dtype || mt.format)) {
          Offset<flatbuffers::Vector<uint32_t>> shape;
          if (mt.shape) shape = fbb.CreateVector(*mt.shape);
          Offset<v2::CompNode> cn;
          if (mt.comp_node) cn = BuildCompNode<v2::CompNode>(&fbb, &strings, *mt.comp_node);
          Offset<void> dtype;
          if (mt.dtype) dtype = BuildDType(&fbb, *mt.dtype);
          Offset<void> format;
          if (mt.format) format = BuildFormat(&fbb, *mt.format);
          middle[v] = v2::CreateMiddleTensor(
              fbb, mname, shape, cn, Offset<mgb::serialization::fbs::DType>(dtype.o),
              mt.format ? static_cast<v2::TensorFormat>(mt.format->type) : v2::TensorFormat_NONE,
              format);
        } else if (mt.present && mt.shape) {
          auto shape = fbb.CreateVector(*mt.shape);
          middle[v] = v2::CreateMiddleTensor(fbb, mname, shape);
        } else {
          middle[v] = v2::CreateMiddleTensor(fbb, mname);
        }
      }
    }
    if (from_v1 ? !op.outputs.empty() : op.has_outputs_vector) {
      outputs = fbb.CreateVector(op.outputs);
    }
    // g. tensors; h. custom data; i. additional params; j. the type string
    const auto vectors = BuildDumperVectors(&fbb, items);
    auto type = strings.Create(id.type);
    // k. the operator, fields in the dumper's order
    v2::OperatorBuilder ob(fbb);
    ob.add_type(type);
    ob.add_type_id(id.type_id);
    if (!inputs.IsNull()) ob.add_inputs(inputs);
    if (!outputs.IsNull()) ob.add_outputs(outputs);
    ob.add_priority(plan.priorities[i]);
    if (!comp_nodes.IsNull()) ob.add_comp_node(comp_nodes);
    ob.add_opr_version(id.opr_version);
    if (!name.IsNull()) ob.add_name(name);
    if (!output_dtype.IsNull()) {
      ob.add_output_dtype(Offset<mgb::serialization::fbs::DType>(output_dtype.o));
    }
    AddParams<v2::OperatorParam>(&ob, items.params, vectors.extra);
    if (!vectors.tensors.IsNull()) ob.add_tensors(vectors.tensors);
    if (!vectors.blobs.IsNull()) ob.add_custom_data(vectors.blobs);
    oprs.push_back(ob.Finish());
  }
  auto opr_vec = fbb.CreateVector(oprs);
  std::vector<Offset<v2::OutputVar>> output_vars;
  for (const OutputVar& v : g.outputs) {
    output_vars.push_back(v2::CreateOutputVar(fbb, v.compact_id, v.original_id));
  }
  auto outputs = fbb.CreateVector(output_vars);
  std::vector<Offset<v2::OutputAlias>> aliases;
  for (const OutputAlias& a : g.aliases) {
    Offset<flatbuffers::String> aname;
    if (a.name) aname = strings.Create(*a.name);
    aliases.push_back(v2::CreateOutputAlias(fbb, a.id, aname));
  }
  auto alias_vec = fbb.CreateVector(aliases);
  Offset<flatbuffers::Vector<Offset<v2::MiddleTensor>>> middle_vec;
  if (plan.write_middle_tensors) middle_vec = fbb.CreateVector(middle);

  v2::ModelBuilder mb(fbb);
  mb.add_mge_version(plan.version);
  mb.add_model_version(from_v1 ? 2 : g.model_version);
  mb.add_oprs(opr_vec);
  if (!middle_vec.IsNull()) mb.add_middle_tensors(middle_vec);
  mb.add_output_vars_idx(outputs);
  mb.add_output_alias(alias_vec);
  mb.add_nr_shared_tensor(g.nr_shared_tensor);
  if (!metadata.IsNull()) mb.add_metadata(metadata);
  fbb.FinishSizePrefixed(mb.Finish(), v2::ModelIdentifier());
  out.flatbuffer = fbb.Release();
  out.nr_opr = static_cast<uint32_t>(g.oprs.size());
  return out;
}

}  // namespace graphport::mge
