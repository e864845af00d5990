#include "mge/optimize/enable_nchwxx/enable_nchwxx.h"

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/refuse_operator.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

constexpr uint8_t kPoolingParam = fbs::OperatorParam_param_Pooling;

enum class ConvKind { kNone, kPure, kHybrid, kChannelWise, kGroup };

int32_t I(uint32_t v) { return static_cast<int32_t>(v); }

class Nchwxx {
 public:
  Nchwxx(OptGraph* g, uint32_t pack)
      : g_(g),
        rw_(g),
        p_(pack),
        format_(pack == 4 ? param::ConvolutionFormat_NCHW44 : param::ConvolutionFormat_NCHW88),
        kwarg_(pack == 4 ? RefusingKwarg{"enable_nchw44", "enableNchw44"}
                         : RefusingKwarg{"enable_nchw88", "enableNchw88"}) {}

  PassReport Run() {
    rw_.ForEachOperator([&](uint32_t node) { Visit(node); });
    // The graph's outputs keep NCHW: a packed endpoint is relaid back, and the relayout
    // takes the output's name (what a user looks the output up by).
    for (size_t i = 0; i < g_->endpoints().size(); ++i) {
      const VarRef original = g_->endpoints()[i];
      const VarRef now = rw_.Get(original);
      if (packed_.count(now) == 0) continue;
      const VarRef nchw = ToNchw(now);
      const std::optional<std::string> name = g_->var(now).middle().name;
      if (name && !g_->var(nchw).middle().name) {
        g_->mutable_var(nchw).mutable_middle().name = name;
        g_->mutable_var(now).mutable_middle().name.reset();
      }
      rw_.Replace(original, nchw);
    }
    rw_.Apply();
    PassReport report{p_ == 4 ? "EnableNchwxx(nchw44)" : "EnableNchwxx(nchw88)", converted_ != 0,
                      ""};
    if (report.changed) {
      report.summary = std::to_string(converted_) + " operators to NCHW" + std::to_string(p_) +
                       std::to_string(p_) + " (" + std::to_string(counts_[1]) + " dense, " +
                       std::to_string(counts_[2]) + " hybrid, " + std::to_string(counts_[3]) +
                       " channel-wise, " + std::to_string(counts_[4]) + " group convolutions, " +
                       std::to_string(pooled_) + " poolings), " + std::to_string(kept_) +
                       " convolutions kept in NCHW, " + std::to_string(relayouts_) +
                       " feature relayouts";
    }
    return report;
  }

 private:
  [[noreturn]] void Refuse(uint32_t node, const std::string& what) const {
    RefuseOperator(*g_, node, what, &kwarg_);
  }

  const Shape* ShapeOf(VarRef v) const {
    const std::optional<Shape>& s = g_->var(v).shape;
    return s ? &*s : nullptr;
  }

  // NCHW -> NCHWc{p}: Reshape to (N, C/p, p, H, W), Dimshuffle (0, 1, 3, 4, 2). The target
  // shape is a constant for a constant (a bias), else built from the feature's GetVarShape.
  VarRef ToPacked(VarRef v) {
    if (auto it = nchw_to_packed_.find(v); it != nchw_to_packed_.end()) return it->second;
    OprMaker& m = rw_.maker();
    const Shape s = *ShapeOf(v);
    const int32_t c = I(s[1]) / I(p_);
    VarRef target;
    if (g_->node(v.node).shape_const) {
      target = m.ShapeImm({I(s[0]), c, I(p_), I(s[2]), I(s[3])}, v);
    } else {
      target = m.Concat({m.GetVarShape(v, 0), m.ShapeImm({c}, v), m.ShapeImm({I(p_)}, v),
                         m.GetVarShape(v, 2), m.GetVarShape(v, 3)},
                        0);
      ++relayouts_;
    }
    const VarRef packed = m.Dimshuffle(m.Reshape(v, target), {0, 1, 3, 4, 2});
    packed_.insert(packed);
    nchw_to_packed_[v] = packed;
    packed_to_nchw_[packed] = v;
    return packed;
  }

  // NCHWc{p} -> NCHW: Dimshuffle (0, 1, 4, 2, 3), Reshape to (N, C, H, W).
  VarRef ToNchw(VarRef v) {
    if (auto it = packed_to_nchw_.find(v); it != packed_to_nchw_.end()) return it->second;
    OprMaker& m = rw_.maker();
    if (ShapeOf(v) == nullptr || ShapeOf(v)->size() != 5) {
      Refuse(v.node, "makes a packed var whose shape is not known statically");
    }
    const Shape s = *ShapeOf(v);
    const VarRef shuffled = m.Dimshuffle(v, {0, 1, 4, 2, 3});
    const VarRef target = m.Concat({m.GetVarShape(v, 0), m.ShapeImm({I(s[1] * s[4])}, v),
                                    m.GetVarShape(v, 2), m.GetVarShape(v, 3)},
                                   0);
    const VarRef nchw = m.Reshape(shuffled, target);
    ++relayouts_;
    packed_to_nchw_[v] = nchw;
    nchw_to_packed_[nchw] = v;
    return nchw;
  }

  // A weight's relayout: Reshape to `split` (constant), Dimshuffle by `pattern`.
  VarRef Relayout(VarRef w, const std::vector<int32_t>& split,
                  const std::vector<int32_t>& pattern) {
    OprMaker& m = rw_.maker();
    return m.Dimshuffle(m.Reshape(w, m.ShapeImm(split, w)), pattern);
  }

  // The classes EnableNchwxxPass has a replace function for (fill_opr_convert_fun).
  static bool InMegEngineTable(std::string_view key) {
    static const auto* keys = new std::set<std::string_view>{"Convolution",
                                                             "ConvBiasForward",
                                                             "Pooling",
                                                             "AdaptivePooling",
                                                             "Resize",
                                                             "Concat",
                                                             "Elemwise",
                                                             "TypeCvt",
                                                             "ElemwiseMultiType",
                                                             "PowC",
                                                             "Reduce",
                                                             "ConvolutionBackwardData",
                                                             "Subtensor",
                                                             "GetVarShape",
                                                             "Dimshuffle",
                                                             "AssertEqual",
                                                             "IncrSubtensor",
                                                             "WarpPerspective",
                                                             "WarpAffine",
                                                             "Reshape",
                                                             "AxisAddRemove",
                                                             "Argmax",
                                                             "Broadcast",
                                                             "ImmutableTensor"};
    return keys->count(key) != 0;
  }

  bool InputsChanged(uint32_t node) const {
    for (const VarRef& r : g_->node(node).inputs) {
      if (rw_.Get(r) != r) return true;
    }
    return false;
  }

  // The operator made again on its inputs with packed ones relaid back to NCHW.
  void KeepNchw(uint32_t node) {
    if (!InputsChanged(node)) {
      // MegEngine's pass remakes every operator of its table (copy_opr_shallow), which the
      // graph finds again when nothing of it changed: the ids that spends.
      const std::string_view key = g_->Key(node);
      if (InMegEngineTable(key)) g_->SpendIdsOfDeduplicated(key, g_->node(node).outputs.size());
      return;
    }
    std::vector<VarRef> in = rw_.Inputs(node);
    for (VarRef& v : in) {
      if (packed_.count(v) != 0) v = ToNchw(v);
    }
    const uint32_t copy = rw_.maker().Copy(node, in);
    for (uint32_t k = 0; k < g_->node(node).outputs.size(); ++k) {
      if (k >= g_->node(copy).outputs.size()) continue;
      // Static inference lacks some classes (ConvBias): the copy's output has the shape the
      // operator's had, on the same NCHW inputs.
      if (!g_->var({copy, k}).shape) g_->mutable_var({copy, k}).shape = g_->var({node, k}).shape;
      rw_.Replace({node, k}, {copy, k});
    }
  }

  void Visit(uint32_t node) {
    const std::string_view key = g_->Key(node);
    if (key == "Convolution" || key == kConvBiasKey) return VisitConv(node, key);
    if (key == "Pooling") return VisitPooling(node);
    if (key == "AdaptivePooling") return VisitAdaptivePooling(node);
    if (key == "Elemwise" || key == "TypeCvt" || key == "PowC") return VisitElemwise(node);
    if (key == "Concat" && ConcatAxis(node) == 1) return VisitElemwise(node);
    if (key == "Reduce") return VisitReduce(node);
    KeepNchw(node);
  }

  // MegEngine's is_nchw_nchwxx_optimized for Float32.
  bool Hybrid(const ConvParams& c, const Shape& w, bool full_bias) const {
    const uint32_t oc = w[0], ic = w[1], fh = w[2], fw = w[3];
    if (ic >= p_ || oc % p_ != 0 || c.dilate_h != 1 || c.dilate_w != 1 ||
        c.mode != param::ConvolutionV0Mode_CROSS_CORRELATION || full_bias) {
      return false;
    }
    if (p_ == 8) return true;
    const bool kernel = fh == fw && (fh == 2 || fh == 3 || fh == 5 || fh == 7);
    const bool stride = c.stride_h == c.stride_w && (c.stride_h == 1 || c.stride_h == 2);
    const bool nonline =
        c.nonline == kIdentity || c.nonline == kNonlineRelu || c.nonline == kHSwish;
    return kernel && stride && nonline;
  }

  ConvKind Classify(const ConvParams& c, const Shape& w, bool full_bias) const {
    if (c.sparse == param::ConvolutionV0Sparse_DENSE && w.size() == 4) {
      if (w[0] % p_ == 0 && w[1] % p_ == 0) return ConvKind::kPure;
      return Hybrid(c, w, full_bias) ? ConvKind::kHybrid : ConvKind::kNone;
    }
    if (c.sparse == param::ConvolutionV0Sparse_GROUP && w.size() == 5) {
      if (w[1] == 1 && w[2] == 1 && w[0] % p_ == 0) return ConvKind::kChannelWise;
      if (w[1] % p_ == 0 && w[2] % p_ == 0) return ConvKind::kGroup;
    }
    return ConvKind::kNone;
  }

  VarRef PackedWeight(ConvKind kind, VarRef w, const Shape& s) {
    const int32_t p = I(p_);
    switch (kind) {
      case ConvKind::kPure:  // KCRS -> (K/p, p, C/p, p, R, S) -> KCRSc{p}k{p}
        return Relayout(w, {I(s[0]) / p, p, I(s[1]) / p, p, I(s[2]), I(s[3])}, {0, 2, 4, 5, 3, 1});
      case ConvKind::kHybrid:  // KCRS -> (K/p, p, C, R, S) -> KRSCk{p}
        return Relayout(w, {I(s[0]) / p, p, I(s[1]), I(s[2]), I(s[3])}, {0, 3, 4, 2, 1});
      case ConvKind::kChannelWise:  // (G,1,1,R,S) -> (G/p, p, 1, 1, R, S) -> C11RSc{p}
        return Relayout(w, {I(s[0]) / p, p, 1, 1, I(s[3]), I(s[4])}, {0, 2, 3, 4, 5, 1});
      case ConvKind::kGroup:  // GKCRS -> (G, K/p, p, C/p, p, R, S) -> GKCRSc{p}k{p}
        return Relayout(w, {I(s[0]), I(s[1]) / p, p, I(s[2]) / p, p, I(s[3]), I(s[4])},
                        {0, 1, 3, 5, 6, 4, 2});
      case ConvKind::kNone:
        break;
    }
    return w;
  }

  void VisitConv(uint32_t node, std::string_view key) {
    const std::optional<ConvParams> params = ConvParamsOf(*g_, node);
    if (!params) Refuse(node, "has a param table of another version than the current one");
    if (params->format != param::ConvolutionFormat_NCHW) {
      Refuse(node,
             "is not in NCHW format: MegEngine converts only NCHW convolutions to NCHWxx "
             "(\"ConvertFormat Pass only support converting NCHW to NCHWXX\"); a model "
             "converted before must not be converted again");
    }
    std::vector<VarRef> in = rw_.Inputs(node);
    if (in.size() < 2) Refuse(node, "has fewer than two inputs");
    if (key == kConvBiasKey && in.size() > 3) {
      Refuse(node, "has a fourth input (z): MegEngine's pass asks to fuse Z first");
    }
    const Shape* w = ShapeOf(in[1]);
    const Shape* x = ShapeOf(in[0]);
    const Shape* out = ShapeOf({node, 0});
    const bool f32 = g_->var({node, 0}).dtype == kF32 && g_->var(in[1]).dtype == kF32;
    bool full_bias = false, bias_packable = true;
    if (in.size() == 3) {
      const Shape* b = ShapeOf(in[2]);
      full_bias = b == nullptr || (out != nullptr && *b == *out);
      // A bias of unknown shape, or one that is not NCHW with channels p divides, cannot be
      // relaid: the conv stays NCHW rather than guess.
      bias_packable =
          packed_.count(in[2]) != 0 || (b != nullptr && b->size() == 4 && (*b)[1] % p_ == 0);
    }
    const ConvKind kind =
        w == nullptr || x == nullptr || out == nullptr || out->size() != 4 || !f32 || !bias_packable
            ? ConvKind::kNone
            : Classify(*params, *w, full_bias);
    if (kind == ConvKind::kNone) {
      ++kept_;
      return KeepNchw(node);
    }
    ++counts_[static_cast<int>(kind)];
    ++converted_;
    const Shape wshape = *w;
    const Shape oshape = *out;
    if (kind == ConvKind::kHybrid) {
      if (packed_.count(in[0]) != 0) in[0] = ToNchw(in[0]);
    } else if (packed_.count(in[0]) == 0) {
      in[0] = ToPacked(in[0]);
    }
    in[1] = PackedWeight(kind, in[1], wshape);
    if (in.size() == 3 && packed_.count(in[2]) == 0) in[2] = ToPacked(in[2]);
    ConvParams c = *params;
    c.format = format_;
    const Operator& source = g_->node(node).op();
    Operator op = g_->NewOperator(std::string(key));
    flatbuffers::FlatBufferBuilder fbb(128);
    if (key == kConvBiasKey) {
      op.params.push_back(g_->OwnParam(
          kConvBiasParam, &fbb,
          param::CreateConvBias(fbb, static_cast<param::ConvBiasV0NonlineMode>(c.nonline),
                                static_cast<param::ConvolutionV0Mode>(c.mode),
                                static_cast<param::ConvolutionV0Sparse>(c.sparse), format_, c.pad_h,
                                c.pad_w, c.stride_h, c.stride_w, c.dilate_h, c.dilate_w,
                                static_cast<param::ConvolutionV1ComputeMode>(c.compute_mode))
              .Union()));
    } else {
      op.params.push_back(g_->OwnParam(
          kConvolutionParam, &fbb,
          param::CreateConvolution(fbb, static_cast<param::ConvolutionV0Mode>(c.mode), c.pad_h,
                                   c.pad_w, c.stride_h, c.stride_w, c.dilate_h, c.dilate_w,
                                   static_cast<param::ConvolutionV0Sparse>(c.sparse), format_,
                                   static_cast<param::ConvolutionV1ComputeMode>(c.compute_mode))
              .Union()));
    }
    // The execution policy and the config (name, comp node, output dtype) stay.
    TakeRestFrom(source, &op);
    MadePacked(node, std::move(op), std::move(in), oshape);
  }

  // Inserts `op` reading `in`, whose output 0 is the packed form of `node`'s NCHW `shape`,
  // and replaces the node's output by it.
  void MadePacked(uint32_t node, Operator op, std::vector<VarRef> in, const Shape& shape) {
    OptNode n;
    n.set_op(std::move(op));
    n.inputs = std::move(in);
    n.outputs.resize(g_->node(node).outputs.size());
    const VarRef v = rw_.maker().Insert(std::move(n), "");
    OptVar& out = g_->mutable_var(v);
    out.shape = g_->InternShape(Shape{shape[0], shape[1] / p_, shape[2], shape[3], p_});
    out.dtype = g_->var({node, 0}).dtype;
    g_->mutable_node(v.node).shape_const = false;
    packed_.insert(v);
    rw_.Replace({node, 0}, v);
  }

  void VisitPooling(uint32_t node) {
    if (g_->node(node).inputs.size() != 1) return KeepNchw(node);
    const VarRef in = rw_.Get(g_->node(node).inputs[0]);
    const Operator& source = g_->node(node).op();
    const Shape* out = ShapeOf({node, 0});
    if (packed_.count(in) == 0 || source.params.empty() || source.params[0].type != kPoolingParam ||
        out == nullptr || g_->node(node).inputs.size() != 1) {
      return KeepNchw(node);
    }
    const auto* p = reinterpret_cast<const param::Pooling*>(source.params[0].table);
    if (p->format() != param::ConvolutionFormat_NCHW) {
      Refuse(node, "is not in NCHW format: a model converted before must not be converted again");
    }
    Operator op = g_->NewOperator("Pooling");
    flatbuffers::FlatBufferBuilder fbb(64);
    op.params.push_back(
        g_->OwnParam(kPoolingParam, &fbb,
                     param::CreatePooling(fbb, p->mode(), p->pad_h(), p->pad_w(), p->stride_h(),
                                          p->stride_w(), p->window_h(), p->window_w(), format_)
                         .Union()));
    TakeRestFrom(source, &op);
    ++pooled_;
    ++converted_;
    const Shape shape = *out;
    MadePacked(node, std::move(op), {in}, shape);
  }

  int32_t ConcatAxis(uint32_t node) const {
    const Operator& op = g_->node(node).op();
    if (op.params.empty() || op.params[0].type != kAxisParam || op.params[0].table == nullptr) {
      return -1;
    }
    return reinterpret_cast<const param::Axis*>(op.params[0].table)->axis();
  }

  // Reduce over H or W (axis 2 or 3) reads the packed var as it is; any other relays back.
  void VisitReduce(uint32_t node) {
    const Operator& op = g_->node(node).op();
    if (g_->node(node).inputs.size() != 1) return KeepNchw(node);
    const VarRef in = rw_.Get(g_->node(node).inputs[0]);
    if (packed_.count(in) == 0 || op.params.empty() || op.params[0].type != kReduceParam ||
        op.params[0].table == nullptr) {
      return KeepNchw(node);
    }
    const int32_t axis = reinterpret_cast<const param::Reduce*>(op.params[0].table)->axis();
    if (axis != 2 && axis != 3) return KeepNchw(node);
    const uint32_t copy = rw_.maker().Copy(node, {in}, false);
    packed_.insert({copy, 0});
    rw_.Replace({node, 0}, {copy, 0});
  }

  // AdaptivePooling switches to the packed format on a packed input, its target shape (OH,
  // OW) unchanged.
  void VisitAdaptivePooling(uint32_t node) {
    const Operator& source = g_->node(node).op();
    std::vector<VarRef> in = rw_.Inputs(node);
    const Shape* out = ShapeOf({node, 0});
    if (in.size() != 2 || packed_.count(in[0]) == 0 || out == nullptr || out->size() != 4 ||
        source.params.empty() || source.params[0].type != kAdaptivePoolingParam ||
        source.params[0].table == nullptr) {
      return KeepNchw(node);
    }
    const auto* p = reinterpret_cast<const param::AdaptivePooling*>(source.params[0].table);
    if (p->format() != param::ConvolutionFormat_NCHW) {
      Refuse(node, "is not in NCHW format: a model converted before must not be converted again");
    }
    Operator op = g_->NewOperator("AdaptivePooling");
    flatbuffers::FlatBufferBuilder fbb(64);
    op.params.push_back(
        g_->OwnParam(kAdaptivePoolingParam, &fbb,
                     param::CreateAdaptivePooling(fbb, p->mode(), format_).Union()));
    TakeRestFrom(source, &op);
    ++pooled_;
    ++converted_;
    const Shape shape = *out;
    MadePacked(node, std::move(op), std::move(in), shape);
  }

  // Packed when some input is packed and every other one is packed, a scalar or an NCHW
  // tensor whose channels p divides; else NCHW. Concat along the channels likewise (each
  // input's channels a multiple of p: the blocks concatenate).
  void VisitElemwise(uint32_t node) {
    std::vector<VarRef> in = rw_.Inputs(node);
    bool any = false, all = true;
    for (const VarRef& v : in) {
      if (packed_.count(v) != 0) {
        any = true;
        continue;
      }
      const Shape* s = ShapeOf(v);
      const bool scalar =
          s != nullptr && ElementCount(*s) == 1 && g_->Key(node) != std::string_view("Concat");
      const bool packable = s != nullptr && s->size() == 4 && (*s)[1] % p_ == 0;
      all &= scalar || packable;
    }
    if (!any || !all) return KeepNchw(node);
    for (VarRef& v : in) {
      const Shape* s = ShapeOf(v);
      if (packed_.count(v) == 0 && !(s != nullptr && ElementCount(*s) == 1)) v = ToPacked(v);
    }
    const uint32_t copy = rw_.maker().Copy(node, in, false);
    const VarRef made{copy, 0};
    packed_.insert(made);
    rw_.Replace({node, 0}, made);
  }

  OptGraph* g_;
  Rewriter rw_;
  const uint32_t p_;
  const param::ConvolutionFormat format_;
  const RefusingKwarg kwarg_;
  std::unordered_set<VarRef, VarRefHash> packed_;
  std::unordered_map<VarRef, VarRef, VarRefHash> nchw_to_packed_, packed_to_nchw_;
  uint32_t counts_[5] = {0, 0, 0, 0, 0};
  uint32_t converted_ = 0, pooled_ = 0, kept_ = 0, relayouts_ = 0;
};

}  // namespace

PassReport EnableNchw44(OptGraph* g) { return Nchwxx(g, 4).Run(); }

PassReport EnableNchw88(OptGraph* g) { return Nchwxx(g, 8).Run(); }

}  // namespace graphport::mge::opt
