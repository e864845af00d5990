#include "mge/optimize/enable_nchwxx/enable_nchwxx.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/refuse_operator.h"
#include "mge/optimize/relayout/placeholders.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

constexpr uint8_t kPoolingParam = fbs::OperatorParam_param_Pooling;
constexpr uint8_t kResizeParam = fbs::OperatorParam_param_Resize;

enum class ConvKind { kNone, kPure, kHybrid };

// What the insert stage does with an operator of each class of MegEngine's table.
enum class Handling { kConv, kPooling, kAdaptivePooling, kResize, kReduce, kMultiInput, kToNchw };

const Handling* HandlingOf(std::string_view key) {
  static const auto* table =
      new std::map<std::string_view, Handling>{{"Convolution", Handling::kConv},
                                               {kConvBiasKey, Handling::kConv},
                                               {"Pooling", Handling::kPooling},
                                               {"AdaptivePooling", Handling::kAdaptivePooling},
                                               {"Resize", Handling::kResize},
                                               {"Concat", Handling::kMultiInput},
                                               {"Elemwise", Handling::kMultiInput},
                                               {"TypeCvt", Handling::kMultiInput},
                                               {"ElemwiseMultiType", Handling::kMultiInput},
                                               {"PowC", Handling::kMultiInput},
                                               {"Reduce", Handling::kReduce},
                                               {"ConvolutionBackwardData", Handling::kToNchw},
                                               {"Subtensor", Handling::kToNchw},
                                               {"GetVarShape", Handling::kToNchw},
                                               {"Dimshuffle", Handling::kToNchw},
                                               {"AssertEqual", Handling::kToNchw},
                                               {"IncrSubtensor", Handling::kToNchw},
                                               {"WarpPerspective", Handling::kToNchw},
                                               {"WarpAffine", Handling::kToNchw},
                                               {"Reshape", Handling::kToNchw},
                                               {"AxisAddRemove", Handling::kToNchw},
                                               {"Argmax", Handling::kToNchw},
                                               {"Broadcast", Handling::kToNchw},
                                               {"ImmutableTensor", Handling::kToNchw}};
  auto it = table->find(key);
  return it == table->end() ? nullptr : &it->second;
}

class Nchwxx {
 public:
  Nchwxx(OptGraph* g, uint32_t pack)
      : g_(g),
        rw_(g),
        placeholders_(g),
        p_(pack),
        format_(pack == 4 ? param::ConvolutionFormat_NCHW44 : param::ConvolutionFormat_NCHW88),
        kwarg_(pack == 4 ? RefusingKwarg{"enable_nchw44", "enableNchw44"}
                         : RefusingKwarg{"enable_nchw88", "enableNchw88"}) {}

  PassReport Run() {
    rw_.ForEachOperator([&](uint32_t node) { Visit(node); });
    rw_.Apply();
    placeholders_.Translate();
    PassReport report{p_ == 4 ? "EnableNchwxx(nchw44)" : "EnableNchwxx(nchw88)", converted_ != 0,
                      ""};
    if (report.changed) {
      report.summary = std::to_string(converted_) + " operators to NCHW" + std::to_string(p_) +
                       std::to_string(p_) + " (" + std::to_string(convs_) + " convolutions, " +
                       std::to_string(hybrid_) + " of them hybrid, " + std::to_string(pooled_) +
                       " poolings), " + std::to_string(kept_) + " convolutions kept in NCHW, " +
                       std::to_string(feature_relayouts_) + " feature relayouts";
    }
    return report;
  }

 private:
  [[noreturn]] void Refuse(uint32_t node, const std::string& what) const {
    RefuseOperator(*g_, node, what, &kwarg_);
  }

  const Shape* ShapeOf(VarRef v) const {
    const VarShape& s = g_->var(v).shape;
    return s ? &*s : nullptr;
  }
  size_t Ndim(VarRef v) const { return ShapeOf(v) ? ShapeOf(v)->size() : 0; }
  bool Scalar(VarRef v) const { return ShapeOf(v) && *ShapeOf(v) == Shape{1}; }

  // RelayoutPlaceholder::make(x, key) (relayout/placeholders.h).
  VarRef Placeholder(VarRef x, Reformat key, uint32_t visited) {
    if (ShapeOf(x) == nullptr) Refuse(visited, "reads a var whose shape is not known statically");
    if (key == Reformat::kToPacked || key == Reformat::kToNchw) ++feature_relayouts_;
    return placeholders_.Make(&rw_.maker(), x, {key, p_});
  }

  void Visit(uint32_t node) {
    const Handling* h = HandlingOf(g_->Key(node));
    if (h == nullptr) return rw_.AutoReplaceOutputs(node);
    std::vector<VarRef> in = rw_.Inputs(node);
    uint32_t made = 0;
    switch (*h) {
      case Handling::kConv:
        made = VisitConv(node, std::move(in));
        break;
      case Handling::kPooling:
      case Handling::kAdaptivePooling:
      case Handling::kResize:
        made = VisitFormatted(node, *h, std::move(in));
        break;
      case Handling::kReduce:
        made = VisitReduce(node, std::move(in));
        break;
      case Handling::kMultiInput:
        made = VisitMultiInput(node, std::move(in));
        break;
      case Handling::kToNchw:
        made = Copy(node, ToNchwWhereChanged(node, std::move(in)));
        break;
    }
    const OptNode& n = g_->node(node);
    for (uint32_t k = 0; k < n.outputs.size() && k < g_->node(made).outputs.size(); ++k) {
      const VarRef src{node, k};
      VarRef dst{made, k};
      const bool endpoint =
          std::find(g_->endpoints().begin(), g_->endpoints().end(), src) != g_->endpoints().end();
      if (endpoint && ShapeOf(src) && ShapeOf(dst) && *ShapeOf(src) != *ShapeOf(dst)) {
        dst = Placeholder(dst, Reformat::kToNchw, node);
      }
      rw_.Replace(src, dst);
    }
  }

  // copy_opr_shallow(opr, inputs, opr->config()): the same operator when nothing changed.
  uint32_t Copy(uint32_t node, const std::vector<VarRef>& in) {
    const uint32_t copy = rw_.maker().Copy(node, in, false);
    for (uint32_t k = 0; k < g_->node(node).outputs.size(); ++k) {
      // Static inference lacks some classes (ConvBias): the copy's output has the shape the
      // operator's had, on the same NCHW inputs.
      if (k < g_->node(copy).outputs.size() && !g_->var({copy, k}).shape) {
        g_->mutable_var({copy, k}).shape = g_->var({node, k}).shape;
      }
    }
    return copy;
  }

  // Each input whose shape changed (now packed) relaid back to NCHW.
  std::vector<VarRef> ToNchwWhereChanged(uint32_t node, std::vector<VarRef> in) {
    const OptNode& n = g_->node(node);
    for (size_t i = 0; i < in.size(); ++i) {
      const Shape* was = ShapeOf(n.inputs[i]);
      const Shape* now = ShapeOf(in[i]);
      if (was != nullptr && now != nullptr && *was != *now) {
        in[i] = Placeholder(in[i], Reformat::kToNchw, node);
      }
    }
    return in;
  }

  // MegEngine's is_nchw_nchwxx_optimized (dnn/src/common/nchw_nchwxx_valid.h) for the float
  // kernels: NCHW44 in Float32, NCHW88 in Float32 (any kernel) and in Float16; `dtype` is the
  // source's, the filter's and the output's when they agree, else nullopt.
  bool Hybrid(const ConvParams& c, const Shape& w, bool full_bias, std::optional<int> dtype) const {
    const uint32_t oc = w[0], ic = w[1], fh = w[2], fw = w[3];
    if (ic >= p_ || oc % p_ != 0 || c.dilate_h != 1 || c.dilate_w != 1 ||
        c.mode != param::ConvolutionV0Mode_CROSS_CORRELATION || full_bias) {
      return false;
    }
    if (p_ == 8 && dtype == kF32) return true;
    if (!(dtype == kF32 || (p_ == 8 && dtype == kF16))) return false;
    const bool kernel = fh == fw && (fh == 2 || fh == 3 || fh == 5 || fh == 7);
    const bool stride = c.stride_h == c.stride_w && (c.stride_h == 1 || c.stride_h == 2);
    const bool nonline =
        c.nonline == kIdentity || c.nonline == kNonlineRelu || c.nonline == kHSwish;
    return kernel && stride && nonline;
  }

  // test_trans_nchwxx: how the weight is relaid, if at all.
  std::pair<ConvKind, Reformat> Classify(const ConvParams& c, const Shape& w,
                                         bool hybrid_valid) const {
    if (c.sparse == param::ConvolutionV0Sparse_DENSE) {
      if (w.size() == 4 && w[0] % p_ == 0 && w[1] % p_ == 0) {
        return {ConvKind::kPure, Reformat::kDenseWeight};
      }
      if (hybrid_valid) return {ConvKind::kHybrid, Reformat::kHybridWeight};
    } else if (w.size() == 5) {
      if (w[1] == 1 && w[2] == 1 && w[0] % p_ == 0) {
        return {ConvKind::kPure, Reformat::kChannelWiseWeight};
      }
      if (w[1] % p_ == 0 && w[2] % p_ == 0) return {ConvKind::kPure, Reformat::kGroupWeight};
    }
    return {ConvKind::kNone, Reformat::kToNchw};
  }

  uint32_t VisitConv(uint32_t node, std::vector<VarRef> in) {
    const std::string_view key = g_->Key(node);
    const std::optional<ConvParams> params = ConvParamsOf(*g_, node);
    if (!params) Refuse(node, "has a param table of another version than the current one");
    if (key == kConvBiasKey && in.size() > 3) {
      Refuse(node, "has a fourth input (z): MegEngine's pass does not convert a fused z");
    }
    if (params->format != param::ConvolutionFormat_NCHW) {
      Refuse(node,
             "is not in NCHW format: MegEngine converts only NCHW convolutions to NCHWxx "
             "(\"ConvertFormat Pass only support converting NCHW to NCHWXX\"); a model "
             "converted before must not be converted again");
    }
    if (in.size() < 2 || ShapeOf(in[1]) == nullptr || ShapeOf({node, 0}) == nullptr) {
      Refuse(node, "has a weight or an output whose shape is not known statically");
    }
    const Shape weight = *ShapeOf(in[1]);
    const Shape out = *ShapeOf({node, 0});
    bool full_bias = false;
    if (key == kConvBiasKey && in.size() > 2 && ShapeOf(in[2]) != nullptr) {
      Shape b = *ShapeOf(in[2]);
      if (b.size() == 5) b = Shape{b[0], b[1] * b[4], b[2], b[3]};
      full_bias = b == out;
    }
    const std::optional<int> dtype = g_->var(in[0]).dtype;
    const bool same_dtype = g_->var(in[1]).dtype == dtype && g_->var({node, 0}).dtype == dtype;
    const bool hybrid_valid =
        weight.size() == 4 && in.size() != 4 &&
        Hybrid(*params, weight, full_bias, same_dtype ? dtype : std::optional<int>());
    const auto [kind, weight_key] = Classify(*params, weight, hybrid_valid);
    if (kind == ConvKind::kNone) {
      ++kept_;
      if (Ndim(in[0]) == 5) in[0] = Placeholder(in[0], Reformat::kToNchw, node);
      if (in.size() > 2 && Ndim(in[2]) == 5) in[2] = Placeholder(in[2], Reformat::kToNchw, node);
      return Copy(node, in);
    }
    in[1] = Placeholder(in[1], weight_key, node);
    if (kind == ConvKind::kPure && Ndim(in[0]) != 5) {
      in[0] = Placeholder(in[0], Reformat::kToPacked, node);
    }
    if (in.size() > 2 && Ndim(in[2]) == 4) in[2] = Placeholder(in[2], Reformat::kToPacked, node);
    ++convs_;
    if (kind == ConvKind::kHybrid) ++hybrid_;
    ConvParams c = *params;
    c.format = format_;
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
    return MadePacked(node, std::move(op), std::move(in), out);
  }

  // The operator `op` (made anew with its params; the execution policy and the config, but a
  // default name, from `node`'s) reading `in`, whose output 0 is the packed form of `node`'s
  // NCHW `shape`.
  uint32_t MadePacked(uint32_t node, Operator op, std::vector<VarRef> in, const Shape& shape) {
    TakeRestFrom(g_->node(node).op(), &op);
    if (g_->default_named(node)) op.name.reset();
    ++converted_;
    OptNode n;
    n.set_op(std::move(op));
    n.inputs = std::move(in);
    n.outputs.resize(g_->node(node).outputs.size());
    const VarRef v = rw_.maker().Insert(std::move(n), "");
    OptVar& out = g_->mutable_var(v);
    out.shape = g_->InternShape(Shape{shape[0], shape[1] / p_, shape[2], shape[3], p_});
    out.dtype = g_->var({node, 0}).dtype;
    g_->mutable_node(v.node).shape_const = false;
    return v.node;
  }

  // Pooling, AdaptivePooling and Resize (NCHW) run packed on a packed input; a Resize in
  // NHWC gets its packed input relaid back.
  uint32_t VisitFormatted(uint32_t node, Handling h, std::vector<VarRef> in) {
    const Operator& source = g_->node(node).op();
    const Shape* out = ShapeOf({node, 0});
    const uint8_t type = h == Handling::kPooling           ? kPoolingParam
                         : h == Handling::kAdaptivePooling ? kAdaptivePoolingParam
                                                           : kResizeParam;
    if (source.params.empty() || source.params[0].type != type ||
        source.params[0].table == nullptr) {
      Refuse(node, "has a param table of another version than the current one");
    }
    const void* table = source.params[0].table;
    param::ConvolutionFormat format =
        h == Handling::kPooling ? static_cast<const param::Pooling*>(table)->format()
        : h == Handling::kAdaptivePooling
            ? static_cast<const param::AdaptivePooling*>(table)->format()
            : static_cast<const param::Resize*>(table)->format();
    if (h == Handling::kResize && format == param::ConvolutionFormat_NHWC) {
      if (Ndim(in[0]) == 5) in[0] = Placeholder(in[0], Reformat::kToNchw, node);
      return Copy(node, in);
    }
    if (format != param::ConvolutionFormat_NCHW) {
      Refuse(node, "is not in NCHW format: a model converted before must not be converted again");
    }
    if (Ndim(in[0]) != 5) return Copy(node, in);
    if (out == nullptr || out->size() != 4) {
      Refuse(node, "has an output whose shape is not known statically");
    }
    Operator op = g_->NewOperator(std::string(g_->Key(node)));
    flatbuffers::FlatBufferBuilder fbb(64);
    if (h == Handling::kPooling) {
      const auto* p = static_cast<const param::Pooling*>(table);
      op.params.push_back(
          g_->OwnParam(kPoolingParam, &fbb,
                       param::CreatePooling(fbb, p->mode(), p->pad_h(), p->pad_w(), p->stride_h(),
                                            p->stride_w(), p->window_h(), p->window_w(), format_)
                           .Union()));
    } else if (h == Handling::kAdaptivePooling) {
      const auto* p = static_cast<const param::AdaptivePooling*>(table);
      op.params.push_back(
          g_->OwnParam(kAdaptivePoolingParam, &fbb,
                       param::CreateAdaptivePooling(fbb, p->mode(), format_).Union()));
    } else {
      const auto* p = static_cast<const param::Resize*>(table);
      op.params.push_back(
          g_->OwnParam(kResizeParam, &fbb, param::CreateResize(fbb, p->imode(), format_).Union()));
    }
    ++pooled_;
    const Shape shape = *out;
    return MadePacked(node, std::move(op), std::move(in), shape);
  }

  // Reduce over H or W (axis 2 or 3) reads the packed var as it is; any other relays back.
  uint32_t VisitReduce(uint32_t node, std::vector<VarRef> in) {
    const Operator& op = g_->node(node).op();
    const Shape* was = ShapeOf(g_->node(node).inputs[0]);
    if (was != nullptr && ShapeOf(in[0]) != nullptr && *was != *ShapeOf(in[0])) {
      const auto* p = op.ParamAs<param::Reduce>(kReduceParam);
      const int32_t axis = p != nullptr ? p->axis() : 0;
      if (axis != 2 && axis != 3) in[0] = Placeholder(in[0], Reformat::kToNchw, node);
    }
    return Copy(node, in);
  }

  // Packed when some input is packed and every other one is a 4-d tensor whose channels p
  // divides (relaid to packed) or a scalar; else the packed inputs are relaid back.
  uint32_t VisitMultiInput(uint32_t node, std::vector<VarRef> in) {
    bool changed = false, packable = true;
    for (const VarRef& v : in) {
      if (Ndim(v) == 5) {
        changed = true;
      } else if (Ndim(v) == 4) {
        packable &= (*ShapeOf(v))[1] % p_ == 0;
      } else if (!Scalar(v)) {
        packable = false;
      }
    }
    if (changed) {
      for (VarRef& v : in) {
        if (packable && Ndim(v) == 4) {
          v = Placeholder(v, Reformat::kToPacked, node);
        } else if (!packable && Ndim(v) == 5) {
          v = Placeholder(v, Reformat::kToNchw, node);
        }
      }
      if (packable) ++converted_;
    }
    return Copy(node, in);
  }

  OptGraph* g_;
  Rewriter rw_;
  RelayoutPlaceholders placeholders_;
  const uint32_t p_;
  const param::ConvolutionFormat format_;
  const RefusingKwarg kwarg_;
  uint32_t converted_ = 0, convs_ = 0, hybrid_ = 0, pooled_ = 0, kept_ = 0;
  uint32_t feature_relayouts_ = 0;
};

}  // namespace

PassReport EnableNchw44(OptGraph* g) { return Nchwxx(g, 4).Run(); }

PassReport EnableNchw88(OptGraph* g) { return Nchwxx(g, 8).Run(); }

}  // namespace graphport::mge::opt
