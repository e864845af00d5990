#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"

#include <set>

#include "mge/optimize/schema_numbers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

}  // namespace

std::optional<ConvParams> ConvParamsOf(const OptGraph& g, uint32_t node) {
  const Operator& op = g.node(node).op();
  if (op.params.empty() || op.params[0].table == nullptr) return std::nullopt;
  ConvParams c;
  if (g.Key(node) == "Convolution" && op.params[0].type == kConvolutionParam) {
    const auto* p = reinterpret_cast<const param::Convolution*>(op.params[0].table);
    c = {kIdentity,     p->mode(),     p->sparse(),   p->format(),   p->pad_h(),       p->pad_w(),
         p->stride_h(), p->stride_w(), p->dilate_h(), p->dilate_w(), p->compute_mode()};
    return c;
  }
  if (g.Key(node) == kConvBiasKey && op.params[0].type == kConvBiasParam) {
    const auto* p = reinterpret_cast<const param::ConvBias*>(op.params[0].table);
    c = {p->nonlineMode(), p->mode(),     p->sparse(),      p->format(),
         p->pad_h(),       p->pad_w(),    p->stride_h(),    p->stride_w(),
         p->dilate_h(),    p->dilate_w(), p->compute_mode()};
    return c;
  }
  return std::nullopt;
}

VarRef MakeConvBias(OprMaker* maker, uint32_t from, const ConvParams& c, std::vector<VarRef> inputs,
                    VarRef like, std::optional<int> dtype) {
  OptGraph* g = maker->graph();
  const Operator& source = g->node(from).op();
  Operator op = g->NewOperator(kConvBiasKey);
  flatbuffers::FlatBufferBuilder fbb(128);
  op.params.push_back(g->OwnParam(
      kConvBiasParam, &fbb,
      param::CreateConvBias(fbb, static_cast<param::ConvBiasV0NonlineMode>(c.nonline),
                            static_cast<param::ConvolutionV0Mode>(c.mode),
                            static_cast<param::ConvolutionV0Sparse>(c.sparse),
                            static_cast<param::ConvolutionFormat>(c.format), c.pad_h, c.pad_w,
                            c.stride_h, c.stride_w, c.dilate_h, c.dilate_w,
                            static_cast<param::ConvolutionV1ComputeMode>(c.compute_mode))
          .Union()));
  // The execution policy (additional params) and the config come from `from`.
  TakeRestFrom(source, &op);
  if (dtype) {
    op.output_dtype = DType{};
    op.output_dtype->type = static_cast<int8_t>(*dtype);
  }
  OptNode n;
  n.set_op(std::move(op));
  n.inputs = std::move(inputs);
  n.outputs.resize(1);
  const VarRef v = maker->Insert(std::move(n), "");
  // The static inference knows no ConvBias: its output is the convolution's.
  OptVar& out = g->mutable_var(v);
  if (!out.shape) out.shape = g->var(like).shape;
  if (!out.dtype) out.dtype = dtype ? dtype : g->var(like).dtype;
  g->mutable_node(v.node).shape_const = g->node(like.node).shape_const;
  return v;
}

std::map<VarRef, uint32_t> OperatorsReading(const OptGraph& g) {
  std::map<VarRef, uint32_t> count;
  for (uint32_t node : g.TopoOrder()) {
    const std::set<VarRef> read(g.node(node).inputs.begin(), g.node(node).inputs.end());
    for (const VarRef& v : read) ++count[v];
  }
  return count;
}

}  // namespace graphport::mge::opt
