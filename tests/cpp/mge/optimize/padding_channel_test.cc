// PaddingChannel on MegEngine's own test graphs (src/gopt/test/padding_channel.cpp:
// ChannelPaddingNCHW44 / NCHW88 through optimize_for_inference with the layout kwarg,
// ChannelPaddingSubtensor and ChannelPaddingReduce with the pass alone): what is padded, what is
// sliced back, and that the graph computes what it computed.
#include "mge/optimize/padding_channel/padding_channel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/optimize_for_inference.h"
#include "mge/optimize/rewriter.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::TestGraph;
namespace param = testing::param;

HostValue PadWeights(const Shape& shape, uint32_t salt) {
  std::vector<float> v(ElementCount(shape));
  for (size_t k = 0; k < v.size(); ++k) {
    v[k] = static_cast<float>(static_cast<int>((k * 5 + salt) % 17) - 8) / 16;
  }
  return HostValue::Floats(shape, v);
}

struct ConvSeen {
  std::string key;
  uint32_t format;
  Shape weight;  // as dumped: the folded, packed constant
};

// Each Convolution / ConvBias of `graph` in the dumper's order.
std::vector<ConvSeen> ConvsSeen(const Graph& graph) {
  std::vector<ConvSeen> convs;
  for (const Operator& op : graph.oprs) {
    const std::string key = op.cls ? op.cls->key : "";
    uint32_t format = 0;
    if (key == "Convolution") {
      format = reinterpret_cast<const param::Convolution*>(op.params.at(0).table)->format();
    } else if (key == kConvBiasKey) {
      format = reinterpret_cast<const param::ConvBias*>(op.params.at(0).table)->format();
    } else {
      continue;
    }
    const Var& w = graph.vars.at(op.inputs->at(1));
    const Operator& holder = graph.oprs.at(w.opr);
    Shape weight;
    if (w.index < holder.tensors.size() && holder.tensors[w.index].shape) {
      weight = *holder.tensors[w.index].shape;
    }
    convs.push_back({key, format, weight});
  }
  return convs;
}

// ChannelPaddingNCHW44 / NCHW88 (s = 1 for 44, 2 for 88): conv1 3s -> 8s (hybrid, + bias),
// conv2 8s -> 6s, conv3 6s -> 3s (+ bias each), conv4 channel-wise (3s groups, + bias),
// conv5 channel-wise, conv6 3s -> 6s (1x1), conv7 a group conv of 2s groups (4 -> 3 each: not
// padded, stays NCHW), conv8 8s -> 3s; fuse_conv_bias_nonlinearity on, as MegEngine's test.
void CheckChannelPadding(Layout layout) {
  const uint32_t s = layout == Layout::kNchw44 ? 1 : 2;
  const uint32_t pack = 4 * s;
  const uint32_t format =
      layout == Layout::kNchw44 ? param::ConvolutionFormat_NCHW44 : param::ConvolutionFormat_NCHW88;
  TestGraph t;
  auto conv_bias = [&](VarRef x, const Shape& w, bool group, uint32_t salt) {
    const VarRef c =
        t.ConvolutionStrided(x, t.Shared("w" + std::to_string(salt), PadWeights(w, salt)),
                             w.size() == 4 && w[2] == 3 ? 1 : 0, 1, group);
    const uint32_t oc = group ? w[0] * w[1] : w[0];
    return t.Elemwise(kAdd,
                      {c, t.Shared("b" + std::to_string(salt), PadWeights({1, oc, 1, 1}, salt))});
  };
  VarRef x = t.Input("x", {1, 3 * s, 8, 8});
  VarRef c1 = conv_bias(x, {8 * s, 3 * s, 3, 3}, false, 1);
  VarRef c2 = conv_bias(c1, {6 * s, 8 * s, 3, 3}, false, 2);
  VarRef c3 = conv_bias(c2, {3 * s, 6 * s, 3, 3}, false, 3);
  VarRef c4 = conv_bias(c3, {3 * s, 1, 1, 1, 1}, true, 4);
  VarRef c5 =
      t.ConvolutionStrided(c4, t.Shared("w5", PadWeights({3 * s, 1, 1, 1, 1}, 5)), 0, 1, true);
  VarRef c6 =
      t.ConvolutionStrided(c5, t.Shared("w6", PadWeights({6 * s, 3 * s, 1, 1}, 6)), 0, 1, false);
  VarRef c7 =
      t.ConvolutionStrided(c6, t.Shared("w7", PadWeights({2 * s, 4, 3, 1, 1}, 7)), 0, 1, true);
  t.Output(
      t.ConvolutionStrided(c7, t.Shared("w8", PadWeights({3 * s, 8 * s, 1, 1}, 8)), 0, 1, false));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptimizeOptions options;
  options.layout = layout;
  options.fuse_conv_bias_nonlinearity = true;
  const OptimizeResult r = OptimizeForInference(before, options, &out);
  const std::vector<ConvSeen> convs = ConvsSeen(*r.graph);
  ASSERT_EQ(convs.size(), 8u);
  // conv1: its input not padded; hybrid, its weight KRSCk{p} (8s output channels).
  EXPECT_EQ(convs[0].format, format);
  EXPECT_EQ(convs[0].weight, (Shape{8 * s / pack, 3, 3, 3 * s, pack}));
  // conv2 and conv3: output channels padded to the pack (6s -> 8s, 3s -> 4s), dense packed.
  EXPECT_EQ(convs[1].format, format);
  EXPECT_EQ(convs[1].weight[0], 2u);
  EXPECT_EQ(convs[2].format, format);
  EXPECT_EQ(convs[2].weight[0], 1u);
  // conv4 and conv5: channel-wise, their groups padded to match (3s -> 4s).
  EXPECT_EQ(convs[3].format, format);
  EXPECT_EQ(convs[3].weight[0], 1u);
  EXPECT_EQ(convs[4].format, format);
  EXPECT_EQ(convs[4].weight[0], 1u);
  // conv7, a group convolution, is never padded: NCHW, reading conv6 sliced back to 6s.
  EXPECT_EQ(convs[6].key, "Convolution");
  EXPECT_EQ(convs[6].format, static_cast<uint32_t>(param::ConvolutionFormat_NCHW));
  EXPECT_EQ(convs[6].weight, (Shape{2 * s, 4, 3, 1, 1}));
  bool padded = false;
  for (const PassReport& p : r.passes)
    padded |= p.pass.rfind("PaddingChannel", 0) == 0 && p.changed;
  EXPECT_TRUE(padded);
  // The output keeps its 3s channels and its values.
  testing::ExpectSameOutputs(before, *r.graph, 1e-5);
}

TEST(PaddingChannel, ChannelPaddingNchw44) { CheckChannelPadding(Layout::kNchw44); }

TEST(PaddingChannel, ChannelPaddingNchw88) { CheckChannelPadding(Layout::kNchw88); }

// The pass alone on x (1,3,8,8) -> conv1 (3 -> 8) + bias -> conv2 (8 -> 6): conv2's weight
// gets 2 zero output channels; each reader of conv2 is run on the pass's result.
struct PaddedConv {
  TestGraph t;
  VarRef conv2;
  PaddedConv() {
    VarRef x = t.Input("x", {1, 3, 8, 8});
    VarRef c1 = t.ConvolutionStrided(x, t.Shared("w1", PadWeights({8, 3, 3, 3}, 1)), 1, 1, false);
    VarRef a1 = t.Elemwise(kAdd, {c1, t.Shared("b1", PadWeights({1, 8, 1, 1}, 2))});
    conv2 = t.ConvolutionStrided(a1, t.Shared("w2", PadWeights({6, 8, 1, 1}, 3)), 0, 1, false);
  }
  VarRef Scalar(int32_t v) { return t.Imm(HostValue::Ints({1}, {v})); }
};

using Reads = std::vector<std::pair<std::string, uint32_t>>;

// Per Subtensor or Reduce after the pass: its channel count in, keyed by the number of items
// (Subtensor) or by the axis (Reduce).
Reads ChannelsRead(TestGraph* t) {
  const Graph& before = t->Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  EXPECT_TRUE(PaddingChannel44(&g).changed);
  Reads read;
  for (uint32_t node : g.TopoOrder()) {
    const std::string key(g.Key(node));
    if (key != "Subtensor" && key != "Reduce") continue;
    const OptNode& n = g.node(node);
    std::string what = key + ":" + std::to_string(n.inputs.size());
    if (key == "Reduce") {
      what = key + ":" + std::to_string(n.op().ParamAs<param::Reduce>(kReduceParam)->axis());
    }
    read.emplace_back(what, (*g.var(n.inputs[0]).shape)[1]);
  }
  std::sort(read.begin(), read.end());
  testing::ExpectSameOutputs(before, g.Emit(), 1e-5);
  return read;
}

// ChannelPaddingSubtensor: sub0 slices H only and sub1 bounds the channels' end: both read
// the padded 8 channels; sub2 takes channels 5.. (no end): it reads them sliced back to 6.
TEST(PaddingChannel, SubtensorOnThePaddedChannels) {
  PaddedConv p;
  OprMaker m(&p.t.g());
  using Item = OprMaker::IndexItem;
  Item h{2, true, true, true, false};          // [1:4:1] on H
  Item c_bounded{1, true, true, true, false};  // [1:2:1] on C
  Item c_open{1, true, false, false, false};   // [5:] on C
  const VarRef sub0 = m.Subtensor(p.conv2, {h}, {p.Scalar(1), p.Scalar(4), p.Scalar(1)});
  const VarRef sub1 =
      m.Subtensor(p.conv2, {h, c_bounded},
                  {p.Scalar(1), p.Scalar(4), p.Scalar(1), p.Scalar(1), p.Scalar(2), p.Scalar(1)});
  const VarRef sub2 =
      m.Subtensor(p.conv2, {h, c_open}, {p.Scalar(1), p.Scalar(4), p.Scalar(1), p.Scalar(5)});
  p.t.Output(p.t.Elemwise(kAdd, {p.t.Elemwise(kAdd, {sub0, sub1}), sub2}, "y"));
  const Reads read = ChannelsRead(&p.t);
  // Besides: the slice back (4 items) of conv2 for sub2, and one of sub0 for the ADD, whose
  // padded inputs (sub0's 8 channels, sub1's 1) differ: both read 8 channels. (Slicing sub1,
  // whose 1 channel was 1 before, is sub1 itself.)
  EXPECT_EQ(read, (Reads{{"Subtensor:4", 8},
                         {"Subtensor:5", 6},
                         {"Subtensor:5", 8},
                         {"Subtensor:5", 8},
                         {"Subtensor:7", 8}}));
}

// ChannelPaddingReduce: a Reduce over the channels reads them sliced back; one over the last
// axis reads the padded channels.
TEST(PaddingChannel, ReduceOnThePaddedChannels) {
  PaddedConv p;
  const VarRef reduce0 = p.t.Reduce(p.conv2, kReduceMax, 1);
  const VarRef reduce1 = p.t.Reduce(p.conv2, kReduceMax, -1);
  p.t.Output(p.t.Elemwise(kAdd, {reduce0, reduce1}, "y"));
  const Reads read = ChannelsRead(&p.t);
  // The slices back: conv2's for reduce0, and reduce1's for the ADD (reduce0 is not padded).
  EXPECT_EQ(read,
            (Reads{{"Reduce:-1", 8}, {"Reduce:1", 6}, {"Subtensor:5", 8}, {"Subtensor:5", 8}}));
}

}  // namespace
}  // namespace graphport::mge::opt
