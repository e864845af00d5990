#include "mge/write_v1.h"

#include <flatbuffers/flatbuffers.h>

#include "core/error.h"
#include "mge/dump/content_hash.h"
#include "mge/little_endian.h"
#include "mge/param_copy.h"
#include "mge/schema/graph_v1_generated.h"
#include "mge/shared_strings.h"
#include "mge/write_tables.h"

namespace graphport::mge {
namespace {

namespace fbs = mgb::serialization::fbs;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

}  // namespace

WrittenDump WriteV1(const DumpPlan& plan) {
  const Graph& g = *plan.graph;
  const V1Ids ids = plan.magic == V1Magic::kMgbc ? V1Ids::kPersist : V1Ids::kUnversioned;
  WrittenDump out;
  uint64_t value_bytes = 0;
  FlatBufferBuilder fbb;
  SharedStrings strings(&fbb);

  Offset<fbs::Metadata> metadata;
  if (plan.write_metadata) {
    const Metadata& m = plan.metadata;
    auto user_info = strings.Create(m.user_info.value_or(""));
    fbs::MetadataBuilder mb(fbb);
    mb.add_is_valid(m.is_valid);
    mb.add_graph_modified(m.graph_modified);
    mb.add_user_info(user_info);
    mb.add_optimize_options(m.optimize_options);
    metadata = mb.Finish();
  }

  std::vector<Offset<fbs::Operator>> oprs;
  for (size_t i = 0; i < g.oprs.size(); ++i) {
    const Operator& op = g.oprs[i];
    CheckExpressibleInV1(g, i);
    OprIdentity id = V1Identity(g, i, ids);
    const std::string label = WriterOprLabel(g, i);
    // The reader numbers an unknown operator's outputs by their names (read_v1.cc): without
    // them the dump would not load back.
    if (op.cls == nullptr && !plan.write_output_names[i]) {
      ErrorLocation where;
      where.opr = label;
      throw Error(ErrorCode::kUnsupported,
                  "operator " + label +
                      ": not in MegEngine's operator registry as graphport knows it, so its "
                      "outputs are known only by their names, which this dump would not write "
                      "(keepVarName 2 writes every operator's output names)",
                  where);
    }
    // a. comp nodes; b. inputs; c. name; d. output names; e. output dtype
    const auto comp_nodes = BuildCompNodes<fbs::CompNode>(&fbb, &strings, op);
    Offset<flatbuffers::Vector<uint32_t>> inputs;
    if (op.inputs && !op.inputs->empty()) inputs = fbb.CreateVector(*op.inputs);
    Offset<flatbuffers::String> name;
    if (plan.opr_names[i]) name = strings.Create(*plan.opr_names[i]);
    Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> output_names;
    if (plan.write_output_names[i]) {
      std::vector<std::string> names;
      for (uint32_t v : op.outputs) names.push_back(plan.var_names[v]);
      output_names = fbb.CreateVectorOfStrings(names);
    }
    Offset<void> output_dtype;
    if (op.output_dtype) output_dtype = BuildDType(&fbb, *op.output_dtype);
    // f. the operator's dumper: params, tensors (values into the blob) and blobs, in order
    const auto items = ReplayDumper<fbs::Tensor, fbs::Blob>(
        &fbb, g, i, ItemsFor(g, i, DumpFormat::kFbsV1, 0), label,
        [&](size_t k) {
          const Tensor& t = op.tensors[k];
          if (t.has_value) {
            if (!t.value.empty()) out.values.push_back(t.value);
            value_bytes += t.value.size();
          }
          const auto f =
              BuildTensorFields<fbs::CompNode>(&fbb, &strings, plan.tensor_names[i][k], t);
          return fbs::CreateTensor(fbb, f.name, f.shape, f.comp_node, f.dtype,
                                   t.has_value ? static_cast<uint32_t>(t.value.size()) : 0, 0);
        },
        // FBS v1 always writes a blob's data, an empty vector for a blob without any.
        [&](const Blob& b) { return BuildBlob<fbs::Blob>(&fbb, b.data); });
    // g. tensors; h. blobs; i. additional params
    const auto vectors = BuildDumperVectors(&fbb, items);
    // j. the operator, fields in the dumper's order
    fbs::OperatorBuilder ob(fbb);
    ob.add_type_id(id.type_id);
    if (!inputs.IsNull()) ob.add_inputs(inputs);
    ob.add_priority(plan.priorities[i]);
    if (!comp_nodes.IsNull()) ob.add_comp_node(comp_nodes);
    if (!output_names.IsNull()) ob.add_output_name(output_names);
    if (!name.IsNull()) ob.add_name(name);
    if (!output_dtype.IsNull()) ob.add_output_dtype(Offset<fbs::DType>(output_dtype.o));
    AddParams<fbs::OperatorParam>(&ob, items.params, vectors.extra);
    if (!vectors.tensors.IsNull()) ob.add_tensors(vectors.tensors);
    if (!vectors.blobs.IsNull()) ob.add_blobs(vectors.blobs);
    oprs.push_back(ob.Finish());
  }
  auto opr_vec = fbb.CreateVector(oprs);
  std::vector<fbs::OutputVar> output_vars;
  for (const OutputVar& v : g.outputs) output_vars.emplace_back(v.compact_id, v.original_id);
  auto outputs = fbb.CreateVectorOfStructs(output_vars);
  // The hash covers what the builder holds now: the tail of the finished flatbuffer.
  out.content_hash = ContentHash(fbb.GetCurrentBufferPointer(), fbb.GetSize());
  fbs::GraphBuilder gb(fbb);
  gb.add_mgb_version(plan.version);
  gb.add_hash(out.content_hash);
  gb.add_oprs(opr_vec);
  gb.add_output_vars_idx(outputs);
  gb.add_nr_shared_tensor(g.nr_shared_tensor);
  if (!metadata.IsNull()) gb.add_metadata(metadata);
  fbb.FinishSizePrefixed(gb.Finish(), fbs::GraphIdentifier());

  std::string& header = out.header;
  AppendLe(&header, plan.magic == V1Magic::kMgbc ? 0x4342474D : 0x5342474D, 4);
  if (plan.magic == V1Magic::kMgbc) AppendLe(&header, 0, 8);  // feature bits
  AppendLe(&header, 0, 4);                                    // reserved
  AppendLe(&header, value_bytes, 8);                          // offset to the flatbuffer
  out.tensor_value_bytes = value_bytes;
  out.flatbuffer = fbb.Release();
  out.nr_opr = static_cast<uint32_t>(g.oprs.size());
  return out;
}

}  // namespace graphport::mge
