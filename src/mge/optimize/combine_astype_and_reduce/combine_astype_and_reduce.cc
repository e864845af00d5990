#include "mge/optimize/combine_astype_and_reduce/combine_astype_and_reduce.h"

#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;
constexpr int32_t kMaxNdim = 7;  // MEGDNN_MAX_NDIM: axes outside [-7, 7) mean "to a shape"

}  // namespace

PassReport CombineAstypeAndReduce(OptGraph* g) {
  if (!g->Holds("Reduce")) return {"CombineAstypeAndReduce", false, ""};  // nothing to rewrite
  Rewriter rw(g);
  uint32_t combined = 0;
  rw.ForEachOperator([&](uint32_t node) {
    const OptNode& n = g->node(node);
    const Operator& op = n.op();
    if (g->Key(node) == "Reduce" && !n.inputs.empty() && !op.params.empty() &&
        op.params[0].type == kReduceParam) {
      const VarRef in = rw.Get(n.inputs[0]);
      const OptNode& cvt = g->node(in.node);
      if (g->Key(in.node) == "TypeCvt" && cvt.inputs.size() == 1 &&
          g->var(cvt.inputs[0]).dtype == kF16 && g->var(in).dtype == kF32) {
        const auto* p = reinterpret_cast<const param::Reduce*>(op.params[0].table);
        const bool to_shape = p->axis() < -kMaxNdim || p->axis() >= kMaxNdim;
        if (to_shape != (n.inputs.size() > 1)) {
          rw.AutoReplaceOutputs(node);
          return;
        }
        // Reduce::make(half, param with FLOAT_O32xC32, target shape, the old config): a copy
        // of the operator with the new param and input.
        Operator made = op;
        flatbuffers::FlatBufferBuilder fbb(64);
        made.params[0] = g->OwnParam(
            kReduceParam, &fbb,
            param::CreateReduce(fbb, p->mode(), p->axis(), param::ReduceDataType_FLOAT_O32xC32)
                .Union());
        OptNode r;
        r.set_op(std::move(made));
        r.inputs = {cvt.inputs[0]};
        if (to_shape) r.inputs.push_back(n.inputs[1]);  // the original, as MegEngine passes it
        r.outputs.resize(1);
        r.outputs[0].dtype = kF32;
        const VarRef out = rw.maker().Insert(std::move(r), "");
        rw.Replace({node, 0}, out);
        ++combined;
        return;
      }
    }
    rw.AutoReplaceOutputs(node);
  });
  rw.Apply();
  PassReport report{"CombineAstypeAndReduce", combined != 0, ""};
  if (combined) report.summary = std::to_string(combined) + " Reduce read Float16 directly";
  return report;
}

}  // namespace graphport::mge::opt
