#include "mge/optimize/param_merge/param_merge.h"

#include "mge/optimize/rewriter.h"

namespace graphport::mge::opt {

PassReport ParamMerge(OptGraph* g) {
  std::vector<uint32_t> shared;
  for (uint32_t node : g->TopoOrder()) {
    const OptNode& n = g->node(node);
    if (g->Key(node) == "SharedDeviceTensor" && n.op().tensors.size() == 1) shared.push_back(node);
  }
  if (shared.empty()) return {"ParamMerge", false, ""};
  const std::string name = "merged" + std::to_string(shared.size());
  OptNode holder;
  holder.set_op(g->NewOperator("MultipleDeviceTensorHolder"));
  holder.mutable_op().name = name;
  holder.mutable_op().priority = g->node(shared[0]).op().priority;
  holder.mutable_op().has_tensors_vector = true;
  const bool v1 = g->source().format == DumpFormat::kFbsV1;
  if (v1) {  // FBS v1's holder dumper writes the tensor count first
    const uint32_t count = static_cast<uint32_t>(shared.size());
    std::string bytes(4, '\0');
    for (int i = 0; i < 4; ++i) bytes[i] = static_cast<char>((count >> (8 * i)) & 0xff);
    Blob blob;
    blob.has_data = true;
    blob.data = g->OwnBytes(bytes);
    holder.mutable_op().blobs.push_back(blob);
    holder.mutable_op().has_blobs_vector = true;
    holder.mutable_op().items.push_back({DumpItem::kBlob, 0});
  }
  for (size_t i = 0; i < shared.size(); ++i) {
    const OptNode& n = g->node(shared[i]);
    const OptVar& v = n.outputs[0];
    Tensor t = n.op().tensors[0];
    if (v.middle().name) t.name = v.middle().name;
    holder.mutable_op().tensors.push_back(t);
    holder.mutable_op().items.push_back({DumpItem::kTensor, i});
    OptVar out;
    out.mutable_middle().name = v.middle().name
                                    ? v.middle().name
                                    : std::optional<std::string>(name + ":o" + std::to_string(i));
    if (v.v1_name()) out.set_v1_name(*v.v1_name());
    out.dtype = v.dtype;
    holder.outputs.push_back(std::move(out));
    holder.has_v1_names = holder.has_v1_names || n.has_v1_names;
  }
  const uint32_t merged = g->Add(std::move(holder));
  Rewriter rw(g);
  for (size_t i = 0; i < shared.size(); ++i) {
    rw.Replace({shared[i], 0}, {merged, static_cast<uint32_t>(i)});
  }
  rw.ForEachOperator([&](uint32_t node) { rw.AutoReplaceOutputs(node); });
  rw.Apply();
  return {"ParamMerge", true,
          std::to_string(shared.size()) + " SharedDeviceTensor merged into " + name};
}

}  // namespace graphport::mge::opt
