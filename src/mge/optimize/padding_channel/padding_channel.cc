#include "mge/optimize/padding_channel/padding_channel.h"

#include <algorithm>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/refuse_operator.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/cpp_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;
namespace fbs_dtype = mgb::serialization::fbs;

enum class Kind { kConv, kDeconv, kFormatAware, kElemwiseLike, kCondition, kNonPadding };

// The classes the pass has a replace function for; any other is made again only when an input
// changed (auto_replace_outputs), padded input and all.
const Kind* KindOf(std::string_view key) {
  static const auto* kinds =
      new std::vector<std::pair<std::string_view, Kind>>{{"Convolution", Kind::kConv},
                                                         {kConvBiasKey, Kind::kConv},
                                                         {"ConvolutionBackwardData", Kind::kDeconv},
                                                         {"Pooling", Kind::kFormatAware},
                                                         {"WarpPerspective", Kind::kFormatAware},
                                                         {"WarpAffine", Kind::kFormatAware},
                                                         {"AdaptivePooling", Kind::kFormatAware},
                                                         {"Resize", Kind::kFormatAware},
                                                         {"ElemwiseMultiType", Kind::kElemwiseLike},
                                                         {"Elemwise", Kind::kElemwiseLike},
                                                         {"TypeCvt", Kind::kElemwiseLike},
                                                         {"PowC", Kind::kElemwiseLike},
                                                         {"Reduce", Kind::kCondition},
                                                         {"Subtensor", Kind::kCondition},
                                                         {"Reshape", Kind::kNonPadding},
                                                         {"AxisAddRemove", Kind::kNonPadding},
                                                         {"GetVarShape", Kind::kNonPadding},
                                                         {"Concat", Kind::kNonPadding},
                                                         {"Dimshuffle", Kind::kNonPadding},
                                                         {"Argmax", Kind::kNonPadding},
                                                         {"Argmin", Kind::kNonPadding},
                                                         {"IncrSubtensor", Kind::kNonPadding},
                                                         {"AssertEqual", Kind::kNonPadding}};
  for (const auto& [k, kind] : *kinds) {
    if (k == key) return &kind;
  }
  return nullptr;
}

class Padder {
 public:
  Padder(OptGraph* g, uint32_t pack)
      : g_(g),
        rw_(g),
        p_(pack),
        kwarg_(pack == 4 ? RefusingKwarg{"enable_nchw44", "enableNchw44"}
                         : RefusingKwarg{"enable_nchw88", "enableNchw88"}) {}

  PassReport Run() {
    rw_.ForEachOperator([&](uint32_t node) { Visit(node); });
    rw_.Apply();
    PassReport report{p_ == 4 ? "PaddingChannel(nchw44)" : "PaddingChannel(nchw88)",
                      padded_convs_ != 0, ""};
    if (report.changed) {
      report.summary = std::to_string(padded_convs_) + " convolutions padded to a multiple of " +
                       std::to_string(p_) + " output channels, " + std::to_string(extracted_) +
                       " channel slices back";
    }
    return report;
  }

 private:
  const Shape* ShapeOf(VarRef v) const {
    const VarShape& s = g_->var(v).shape;
    return s ? &*s : nullptr;
  }

  uint32_t Pad(uint32_t channels) const { return (p_ - channels % p_) % p_; }

  // The static shape of a var the pass made or rewired: refused when static inference cannot
  // tell it (MegEngine knows every shape here).
  const Shape& Known(VarRef v, uint32_t node) const {
    const Shape* s = ShapeOf(v);
    if (s == nullptr || s->empty()) {
      RefuseOperator(*g_, node, "reads a var whose shape graphport cannot tell statically",
                     &kwarg_);
    }
    return *s;
  }

  // The dtypes whose convolutions the pass pads (the alignment map of NCHW44 / NCHW88).
  static bool Aligned(std::optional<int> dtype) {
    return dtype == kF32 || dtype == kF16 || dtype == fbs_dtype::DTypeEnum_QuantizedS8 ||
           dtype == fbs_dtype::DTypeEnum_Quantized8Asymm;
  }

  bool Padded(VarRef original_input) const { return padded_.count(original_input.node) != 0; }

  void Visit(uint32_t node) {
    const Kind* kind = KindOf(g_->Key(node));
    for (const VarRef& in : g_->node(node).inputs) {
      const Shape* s = ShapeOf(in);
      if (s == nullptr || s->empty()) kind = nullptr;  // no static shape: left alone
    }
    if (kind == nullptr) return rw_.AutoReplaceOutputs(node);
    std::vector<VarRef> in = rw_.Inputs(node);
    switch (*kind) {
      case Kind::kConv:
        ConvInputs(node, &in);
        break;
      case Kind::kDeconv:
        DeconvInputs(node, &in);
        break;
      case Kind::kFormatAware:
        if (Padded(g_->node(node).inputs[0])) padded_.insert(node);
        break;
      case Kind::kElemwiseLike:
        ElemwiseInputs(node, &in);
        break;
      case Kind::kCondition:
        ConditionInputs(node, &in);
        break;
      case Kind::kNonPadding:
        ExtractPadded(node, &in);
        break;
    }
    const uint32_t copy = rw_.maker().Copy(node, in, false);
    for (uint32_t k = 0; k < g_->node(node).outputs.size(); ++k) {
      const VarRef src{node, k};
      VarRef dst{copy, k};
      const bool endpoint =
          std::find(g_->endpoints().begin(), g_->endpoints().end(), src) != g_->endpoints().end();
      if (endpoint && ShapeOf(src) && ShapeOf(dst) && *ShapeOf(src) != *ShapeOf(dst)) {
        dst = Extract(dst, *ShapeOf(src));
      }
      rw_.Replace(src, dst);
    }
  }

  // A dense convolution's weight gets output channels (and input channels matching a padded
  // input); a channel-wise one's gets groups matching a padded input; a group convolution
  // reads its padded inputs sliced back.
  void ConvInputs(uint32_t node, std::vector<VarRef>* in) {
    const OptNode& n = g_->node(node);
    if (n.inputs.size() < 2) return;
    const Shape weight = *ShapeOf(n.inputs[1]);
    const bool dense = weight.size() == 4;
    const bool channel_wise = weight.size() == 5 && weight[1] == 1 && weight[2] == 1;
    if (!dense && !channel_wise) return ExtractPadded(node, in);
    if (!Aligned(g_->var(n.inputs[0]).dtype)) return;
    const Shape& new_in = Known((*in)[0], node);
    if (new_in.size() < 2) return;
    const uint32_t new_in_channels = new_in[1];
    if (channel_wise) {
      if (!Padded(n.inputs[0]) || new_in_channels <= weight[0]) return;
      const uint32_t pad = new_in_channels - weight[0];
      (*in)[1] = PadChannels((*in)[1], pad, false, node);
      if (in->size() >= 3) (*in)[2] = PadChannels((*in)[2], pad, false, node);
      padded_.insert(node);
      return;
    }
    if (Padded(n.inputs[0]) && new_in_channels > weight[1]) {
      (*in)[1] = PadChannels((*in)[1], new_in_channels - weight[1], false, node);
    }
    const uint32_t pad = Pad(Known((*in)[1], node)[0]);
    if (pad == 0) return;
    (*in)[1] = PadChannels((*in)[1], pad, true, node);
    if (in->size() >= 3) (*in)[2] = PadChannels((*in)[2], pad, false, node);
    padded_.insert(node);
    ++padded_convs_;
  }

  // A deconvolution whose data input is padded gets a weight with as many more channels.
  void DeconvInputs(uint32_t node, std::vector<VarRef>* in) {
    const OptNode& n = g_->node(node);
    if (n.inputs.size() < 2 || !Padded(n.inputs[1])) return;
    const Shape& data = Known((*in)[1], node);
    if (data.size() < 2) return;
    const uint32_t out_channels = (*ShapeOf(n.inputs[0]))[0];
    const uint32_t new_out_channels = data[1];
    if (new_out_channels > out_channels) {
      (*in)[0] = PadChannels((*in)[0], new_out_channels - out_channels, true, node);
    }
  }

  // Padded on when every input but scalars is padded to the same channels; else the padded
  // inputs are sliced back.
  void ElemwiseInputs(uint32_t node, std::vector<VarRef>* in) {
    const OptNode& n = g_->node(node);
    bool any = false, all = true, same = true;
    uint32_t channels = 0;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (*ShapeOf(n.inputs[i]) == Shape{1}) continue;
      const bool padded = Padded(n.inputs[i]);
      if (padded) {
        any = true;
        const Shape* s = ShapeOf((*in)[i]);
        const uint32_t c = s != nullptr && s->size() > 1 ? (*s)[1] : 0;
        if (channels == 0) {
          channels = c;
        } else {
          same = channels == c;
        }
      }
      if (all && (!padded || !same)) all = false;
    }
    if (any && !all) return ExtractPadded(node, in);
    if (any && all) padded_.insert(node);
  }

  // A Reduce over another axis than the channels (no target shape), or a Subtensor that
  // indexes the channels or bounds their end, passes the padding on; else it reads the
  // padded inputs sliced back.
  void ConditionInputs(uint32_t node, std::vector<VarRef>* in) {
    const OptNode& n = g_->node(node);
    const Operator& op = n.op();
    const int32_t ndim = static_cast<int32_t>(ShapeOf(n.inputs[0])->size());
    bool forward = true;
    if (g_->Key(node) == "Reduce") {
      const auto* p = op.ParamAs<param::Reduce>(kReduceParam);
      int32_t axis = p != nullptr ? p->axis() : 0;
      if (axis < 0) axis += ndim;
      forward = n.inputs.size() <= 1 && axis != 1;
    } else if (const auto* p = op.ParamAs<param::IndexDescMaskDump>(kIndexDescParam)) {
      if (p->items() != nullptr) {
        for (const param::IndexDescMaskItem* item : *p->items()) {
          const int32_t axis = item->axis() < 0 ? item->axis() + ndim : item->axis();
          if (axis == 1) forward &= item->idx() || item->end();
        }
      }
    }
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (!Padded(n.inputs[i])) continue;
      if (forward) {
        padded_.insert(node);
      } else {
        (*in)[i] = Extract((*in)[i], *ShapeOf(n.inputs[i]));
      }
    }
  }

  void ExtractPadded(uint32_t node, std::vector<VarRef>* in) {
    const OptNode& n = g_->node(node);
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (Padded(n.inputs[i])) (*in)[i] = Extract((*in)[i], *ShapeOf(n.inputs[i]));
    }
  }

  // x[:, :C] of a padded NCHW var whose original shape is `original`: a Subtensor with a step
  // of 1 on axes 0, 2 and 3 and an end on axis 1, its items stored by decreasing axis.
  VarRef Extract(VarRef x, const Shape& original) {
    const Shape* s = ShapeOf(x);
    if (s == nullptr || s->size() != 4 || original.size() != 4) {
      RefuseOperator(*g_, x.node, "gives a padded var that is not 4-d to slice back", &kwarg_);
    }
    if ((*s)[1] == original[1]) return x;
    OprMaker& m = rw_.maker();
    const VarRef one = m.ScalarImm(1, kI32, x);
    const VarRef end = m.ScalarImm(static_cast<float>(original[1]), kI32, x);
    using Item = OprMaker::IndexItem;
    Item step3, step2, end1, step0;
    step3.axis = 3;
    step3.step = true;
    step2.axis = 2;
    step2.step = true;
    end1.axis = 1;
    end1.end = true;
    step0.axis = 0;
    step0.step = true;
    ++extracted_;
    return m.Subtensor(x, {step3, step2, end1, step0}, {one, one, end, one});
  }

  // `v` with `pad` zero channels more: output channels (axis 0) of a dense weight, input
  // channels (axis 1) of a dense weight or a bias, groups (axis 0) of a channel-wise weight.
  VarRef PadChannels(VarRef v, uint32_t pad, bool output_channels, uint32_t conv) {
    const Shape s = Known(v, conv);
    Shape zeros = s;
    int32_t axis = 0;
    if (s.size() == 4) {
      axis = output_channels ? 0 : 1;
      zeros[axis] = pad;
    } else if (s.size() == 5 && s[1] == 1 && s[2] == 1) {
      zeros[0] = pad;
    } else {
      RefuseOperator(*g_, conv, "is a group convolution whose channels MegEngine cannot pad",
                     &kwarg_);
    }
    const std::optional<int> dtype = g_->var(v).dtype;
    if (dtype != kF32 && dtype != kF16) {
      RefuseOperator(*g_, conv,
                     "has a quantized weight, whose zero padding graphport does not write",
                     &kwarg_);
    }
    // The padding is a tensor of the file: a shape no real weight or bias has (a hostile
    // file's) is refused rather than allocated.
    constexpr uint64_t kMaxPaddingElements = uint64_t{1} << 26;
    uint64_t elements = 1;
    for (uint32_t d : zeros) elements = std::min(elements * d, kMaxPaddingElements + 1);
    if (elements > kMaxPaddingElements) {
      RefuseOperator(*g_, conv, "would be padded with a zero tensor of more than 2^26 elements",
                     &kwarg_);
    }
    HostValue z;
    z.dtype = *dtype;
    z.shape = zeros;
    z.f.assign(ElementCount(zeros), 0.0f);
    OprMaker& m = rw_.maker();
    return m.Concat({v, m.Imm(z, v)}, axis);
  }

  OptGraph* g_;
  Rewriter rw_;
  const uint32_t p_;
  const RefusingKwarg kwarg_;
  std::unordered_set<uint32_t> padded_;  // nodes of the graph as the pass found it
  uint32_t padded_convs_ = 0, extracted_ = 0;
};

}  // namespace

PassReport PaddingChannel44(OptGraph* g) { return Padder(g, 4).Run(); }

PassReport PaddingChannel88(OptGraph* g) { return Padder(g, 8).Run(); }

}  // namespace graphport::mge::opt
