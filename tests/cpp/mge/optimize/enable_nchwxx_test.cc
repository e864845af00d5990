// EnableNchwxx (enable_nchw44 and enable_nchw88) on the graph of MegEngine's
// ConvertFormatNCHW44 / ConvertFormatNCHW88 tests (research megengine_optimize.md §5.3, §4.7):
// the format of each convolution and pooling after the whole optimize_for_inference
// pipeline, which convolutions stay NCHW, the weights folded into packed constants and the
// relayouts at the edges; the numerics of the packed graph against the loaded one within
// 1e-5 relative; a packed model converted again is refused as MegEngine refuses it.
#include "mge/optimize/enable_nchwxx/enable_nchwxx.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "mge/optimize/eval/layout_eval.h"
#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/optimize_for_inference.h"
#include "mge/optimize/schema_numbers.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::TestGraph;
namespace param = testing::param;

constexpr uint32_t kNchw = param::ConvolutionFormat_NCHW;
constexpr uint32_t kNchw44 = param::ConvolutionFormat_NCHW44;
constexpr uint32_t kNchw88 = param::ConvolutionFormat_NCHW88;

HostValue Weights(const Shape& shape, uint32_t salt) {
  std::vector<float> v(ElementCount(shape));
  for (size_t k = 0; k < v.size(); ++k) {
    v[k] = static_cast<float>(static_cast<int>((k * 7 + salt) % 23) - 11) / 16;
  }
  return HostValue::Floats(shape, v);
}

// MegEngine's ConvertFormatNCHW44 graph, cut to its kinds of convolution:
//   conv1: 3x3 stride 2 on the 3-channel input, + bias, relu (the hybrid first conv);
//   conv2: channel-wise group conv (8 groups of 1);
//   conv3: group conv of 2 groups, 4 in and 4 out channels each;
//   pool:  2x2 max pooling;
//   conv4: dense 1x1, 8 -> 8, + bias, read by conv5 and by z = a4 + relu(a4);
//   conv5: dense 3x3, 8 -> 6 (6 output channels: PaddingChannel pads them to a multiple of
//          the pack size, and slices the output back);
//   conv6: 1x1 on the input (3 -> 8).
struct Model {
  TestGraph t;
  Model() {
    VarRef x = t.Input("x", {2, 3, 16, 16});
    VarRef c1 = t.ConvolutionStrided(x, t.Shared("w1", Weights({8, 3, 3, 3}, 1)), 1, 2, false);
    VarRef b1 = t.Shared("b1", Weights({1, 8, 1, 1}, 2));
    VarRef r1 = t.Elemwise(kRelu, {t.Elemwise(kAdd, {c1, b1})});
    VarRef c2 = t.ConvolutionStrided(r1, t.Shared("w2", Weights({8, 1, 1, 3, 3}, 3)), 1, 1, true);
    VarRef c3 = t.ConvolutionStrided(c2, t.Shared("w3", Weights({2, 4, 4, 3, 3}, 4)), 1, 1, true);
    VarRef pool = t.Pooling(t.Elemwise(kRelu, {c3}), param::PoolingV0Mode_MAX_, 2, 2);
    VarRef c4 = t.ConvolutionStrided(pool, t.Shared("w4", Weights({8, 8, 1, 1}, 5)), 0, 1, false);
    VarRef a4 = t.Elemwise(kAdd, {c4, t.Shared("b4", Weights({1, 8, 1, 1}, 6))});
    VarRef c5 = t.ConvolutionStrided(a4, t.Shared("w5", Weights({6, 8, 3, 3}, 7)), 1, 1, false);
    VarRef c6 = t.ConvolutionStrided(x, t.Shared("w6", Weights({8, 3, 1, 1}, 8)), 0, 1, false);
    t.Output(t.Elemwise(kRelu, {c5}, "y"));
    t.Output(t.Elemwise(kAdd, {a4, t.Elemwise(kRelu, {a4})}, "z"));
    t.Output(t.Unary("Identity", c6, "w"));
  }
};

struct Optimized {
  const Graph* before = nullptr;
  RewrittenGraph out;
  OptimizeResult result;
};

std::unique_ptr<Optimized> Optimize(TestGraph* t, Layout layout) {
  auto o = std::make_unique<Optimized>();
  o->before = &t->Emit();
  OptimizeOptions options;
  options.layout = layout;
  o->result = OptimizeForInference(*o->before, options, &o->out);
  return o;
}

// "Convolution:7" / "ConvBiasForward:0" / "Pooling:6" for each convolution and pooling in
// the dumper's order, with its format.
std::vector<std::string> Formats(const Graph& graph) {
  std::vector<std::string> formats;
  for (const Operator& op : graph.oprs) {
    const std::string key = op.cls ? op.cls->key : "?";
    uint32_t format = 99;
    if (key == "Convolution") {
      format = reinterpret_cast<const param::Convolution*>(op.params.at(0).table)->format();
    } else if (key == kConvBiasKey) {
      format = reinterpret_cast<const param::ConvBias*>(op.params.at(0).table)->format();
    } else if (key == "Pooling") {
      format = reinterpret_cast<const param::Pooling*>(op.params.at(0).table)->format();
    } else {
      continue;
    }
    formats.push_back(key + ":" + std::to_string(format));
  }
  return formats;
}

std::map<std::string, int> Counts(const Graph& graph) {
  std::map<std::string, int> counts;
  for (const Operator& op : graph.oprs) ++counts[op.cls ? op.cls->key : "?"];
  return counts;
}

// The weight of each packed convolution is one constant (the relayout folded by ParamFuse),
// of the packed rank.
void ExpectFoldedWeights(const Graph& graph, const std::vector<size_t>& ranks) {
  std::vector<size_t> seen;
  for (const Operator& op : graph.oprs) {
    const std::string key = op.cls ? op.cls->key : "";
    if (key != "Convolution" && key != kConvBiasKey) continue;
    const Var& w = graph.vars.at(op.inputs->at(1));
    const Operator& maker = graph.oprs.at(w.opr);
    const std::string maker_key = maker.cls ? maker.cls->key : "";
    EXPECT_TRUE(maker_key == "ImmutableTensor" || maker_key == "SharedDeviceTensor" ||
                maker_key == "MultipleDeviceTensorHolder")
        << maker_key;
    if (maker.tensors.size() > w.index && maker.tensors[w.index].shape) {
      seen.push_back(maker.tensors[w.index].shape->size());
    }
  }
  EXPECT_EQ(seen, ranks);
}

TEST(EnableNchwxx, ConvertFormatNchw44) {
  Model m;
  auto o = Optimize(&m.t, Layout::kNchw44);
  const Graph& g = *o->result.graph;
  // FuseConvBiasNonlin runs first: conv1 + bias + relu, relu(conv3), conv4 + bias and
  // relu(conv5) are ConvBias. conv1 hybrid, conv2 channel-wise, conv3 group, the pooling,
  // conv4 and conv5 (padded from 6 to 8 output channels) dense packed; conv6 (1x1 hybrid: not
  // a 2/3/5/7 kernel) stays NCHW.
  EXPECT_EQ(Formats(g), (std::vector<std::string>{
                            "ConvBiasForward:7", "Convolution:7", "ConvBiasForward:7", "Pooling:7",
                            "ConvBiasForward:7", "ConvBiasForward:7", "Convolution:0"}))
      << ::testing::PrintToString(Counts(g));
  // Weights: KRSCk4 (5-d), C11RSc4 (6-d), GKCRSc4k4 (7-d), KCRSc4k4 (6-d) twice, NCHW.
  ExpectFoldedWeights(g, {5, 6, 7, 6, 6, 4});
  // The relayouts at the edges, each a Dimshuffle and a Reshape: y (conv5's 8 channels) and
  // z back to NCHW; relu(a4) and z run packed, x is read by the hybrid conv1 as it is. y's
  // padded channels are sliced off by a Subtensor.
  EXPECT_EQ(Counts(g)["Dimshuffle"], 2);
  EXPECT_EQ(Counts(g)["Reshape"], 2);
  std::vector<std::string> passes;
  for (const PassReport& p : o->result.passes) {
    if (p.changed) passes.push_back(p.pass + ": " + p.summary);
  }
  EXPECT_NE(std::find(passes.begin(), passes.end(),
                      "EnableNchwxx(nchw44): 8 operators to NCHW44 (5 convolutions, 1 of them "
                      "hybrid, 1 poolings), 1 convolutions kept in NCHW, 4 feature relayouts"),
            passes.end())
      << ::testing::PrintToString(passes);
  testing::ExpectSameOutputs(*o->before, g, 1e-5);
}

TEST(EnableNchwxx, ConvertFormatNchw88) {
  Model m;
  auto o = Optimize(&m.t, Layout::kNchw88);
  const Graph& g = *o->result.graph;
  // Pack 8: conv1 hybrid (IC 3 < 8, OC 8; no kernel condition), conv2 channel-wise (8
  // groups), conv3 (4 channels a group) stays NCHW and so reads conv2 relaid back, the
  // pooling on an NCHW input stays NCHW, conv4 (8 -> 8) packed again, conv5 (padded to 8
  // output channels) packed, conv6 (1x1, 3 -> 8) hybrid.
  EXPECT_EQ(Formats(g), (std::vector<std::string>{
                            "ConvBiasForward:6", "Convolution:6", "ConvBiasForward:0", "Pooling:0",
                            "ConvBiasForward:6", "ConvBiasForward:6", "Convolution:6"}))
      << ::testing::PrintToString(Counts(g));
  // Weights: KRSCk8, C11RSc8, the NCHW group weight, KCRSc8k8 twice, KRSCk8.
  ExpectFoldedWeights(g, {5, 6, 5, 6, 6, 5});
  // Relayouts: conv2 back for conv3, the pooling into conv4, conv4 back for conv5, z and
  // conv6 back at the outputs.
  EXPECT_EQ(Counts(g)["Dimshuffle"], 5);
  testing::ExpectSameOutputs(*o->before, g, 1e-5);
}

// MegEngine's NCHW44 Reshape / GlobalPooling tests: a Reshape reading a packed var gets it
// relaid back; an Elemwise reading a packed var and a (1, C, 1, 1) constant runs packed, one
// reading an unpackable var runs in NCHW.
TEST(EnableNchwxx, ElemwiseRunsPackedOrRelaysBack) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 8, 6, 6});
  VarRef c = t.ConvolutionStrided(x, t.Shared("w", Weights({8, 8, 3, 3}, 1)), 1, 1, false);
  VarRef scaled = t.Elemwise(param::ElemwiseMode_MUL,
                             {c, t.Imm(HostValue::Floats({1, 8, 1, 1}, {1, 2, 3, 4, 5, 6, 7, 8}))});
  VarRef odd = t.Input("odd", {1, 1, 6, 6});  // a channel count 4 does not divide
  t.Output(t.Elemwise(kAdd, {scaled, odd}, "sum"));
  auto o = Optimize(&t, Layout::kNchw44);
  const Graph& g = *o->result.graph;
  EXPECT_EQ(Formats(g), (std::vector<std::string>{"Convolution:7"}));
  // x packed on the way in, the product relaid back before the ADD.
  EXPECT_EQ(Counts(g)["Dimshuffle"], 2);
  testing::ExpectSameOutputs(*o->before, g, 1e-5);
}

// MegEngine's NCHW44 MultiInput test: two inputs, a dense conv on each, their sum. The sum
// of two convolutions is a full-shape bias, which FuseConvBiasNonlin fuses (one ConvBias
// reading the other conv), packed with its packed bias; one relayout back at the output.
// Each relayout's shape arithmetic has one Elemwise (C / 4 on the way in, C * p back).
TEST(EnableNchwxx, MultiInputSumRunsPacked) {
  for (Layout layout : {Layout::kNchw44, Layout::kNchw88}) {
    TestGraph t;
    VarRef x1 = t.Input("x1", {1, 4, 5, 5});
    VarRef x2 = t.Input("x2", {1, 8, 5, 5});
    VarRef c1 = t.ConvolutionStrided(x1, t.Shared("w1", Weights({8, 4, 3, 3}, 1)), 1, 1, false);
    VarRef c2 = t.ConvolutionStrided(x2, t.Shared("w2", Weights({8, 8, 3, 3}, 2)), 1, 1, false);
    t.Output(t.Elemwise(kAdd, {c1, c2}, "sum"));
    auto o = Optimize(&t, layout);
    const Graph& out = *o->result.graph;
    std::map<std::string, int> counts = Counts(out);
    if (layout == Layout::kNchw44) {
      // Both inputs packed on the way in.
      EXPECT_EQ(Formats(out), (std::vector<std::string>{"Convolution:7", "ConvBiasForward:7"}));
      EXPECT_EQ(counts["Dimshuffle"], 3) << ::testing::PrintToString(counts);
      EXPECT_EQ(counts["Elemwise"], 3);
    } else {
      // x2's conv packed; the ConvBias on x1 (4 channels) would be hybrid, but its bias (the
      // other conv) has the output's full shape, which the hybrid kernels do not take: NCHW,
      // reading the packed conv relaid back.
      EXPECT_EQ(Formats(out), (std::vector<std::string>{"Convolution:6", "ConvBiasForward:0"}));
      EXPECT_EQ(counts["Dimshuffle"], 2) << ::testing::PrintToString(counts);
      EXPECT_EQ(counts["Elemwise"], 2);
    }
    testing::ExpectSameOutputs(*o->before, out, 1e-5);
  }
}

// MegEngine's NCHW44 GlobalPooling test: an AdaptivePooling reading a packed conv switches
// to NCHW44 with its target shape unchanged; a Reduce over H (axis 2) and a Concat along the
// channels of two packed vars run packed as well; one relayout back at each output.
TEST(EnableNchwxx, GlobalPoolingReduceAndConcatRunPacked) {
  TestGraph t;
  OptGraph& g = t.g();
  VarRef x = t.Input("x", {1, 8, 6, 6});
  VarRef c1 = t.ConvolutionStrided(x, t.Shared("w1", Weights({8, 8, 3, 3}, 1)), 1, 1, false);
  VarRef c2 = t.ConvolutionStrided(x, t.Shared("w2", Weights({4, 8, 1, 1}, 2)), 0, 1, false);
  OptNode pool;
  pool.set_op(g.NewOperator("AdaptivePooling"));
  flatbuffers::FlatBufferBuilder fbb(64);
  pool.mutable_op().params.push_back(
      g.OwnParam(kAdaptivePoolingParam, &fbb,
                 param::CreateAdaptivePooling(fbb, param::PoolingV0Mode_MAX_).Union()));
  pool.mutable_op().items = {{DumpItem::kParam, 0}};
  pool.inputs = {c1, t.Imm(HostValue::Ints({2}, {1, 1}))};
  pool.outputs.resize(1);
  const VarRef pooled{g.Add(std::move(pool)), 0};
  t.Output(t.Elemwise(kRelu, {pooled}, "pooled"));
  t.Output(t.Reduce(c1, param::ReduceMode_MAX, 2));
  t.Output(t.Concat({c1, c2}, 1));
  auto o = Optimize(&t, Layout::kNchw44);
  const Graph& out = *o->result.graph;
  std::map<std::string, int> counts = Counts(out);
  EXPECT_EQ(Formats(out), (std::vector<std::string>{"Convolution:7", "Convolution:7"}))
      << ::testing::PrintToString(counts);
  int packed_pooling = 0;
  for (const Operator& op : out.oprs) {
    if (op.cls == nullptr || op.cls->key != "AdaptivePooling") continue;
    packed_pooling +=
        reinterpret_cast<const param::AdaptivePooling*>(op.params.at(0).table)->format() == kNchw44;
  }
  EXPECT_EQ(packed_pooling, 1);
  // The Reduce and the Concat read the packed convolutions themselves.
  for (const Operator& op : out.oprs) {
    if (op.cls == nullptr || (op.cls->key != "Reduce" && op.cls->key != "Concat")) continue;
    if (op.cls->key == "Concat" && op.inputs->size() != 2) continue;  // a shape's Concat
    for (uint32_t v : *op.inputs) {
      const Operator& maker = out.oprs.at(out.vars.at(v).opr);
      EXPECT_EQ(maker.cls ? maker.cls->key : "?", "Convolution") << op.cls->key;
    }
  }
  // x into both convs once, and the three outputs back.
  EXPECT_EQ(counts["Dimshuffle"], 4) << ::testing::PrintToString(counts);
  testing::ExpectSameOutputs(*o->before, out, 1e-5);
}

// A model converted before has packed convolutions: MegEngine's pass throws ("only support
// converting NCHW to NCHWXX"), graphport refuses it as UNSUPPORTED naming the kwarg.
TEST(EnableNchwxx, AConvertedModelIsNotConvertedAgain) {
  Model m;
  auto o = Optimize(&m.t, Layout::kNchw44);
  for (Layout layout : {Layout::kNchw44, Layout::kNchw88}) {
    RewrittenGraph again;
    OptimizeOptions options;
    options.layout = layout;
    try {
      OptimizeForInference(*o->result.graph, options, &again);
      FAIL() << "converted twice";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
      EXPECT_EQ(e.where().option, layout == Layout::kNchw44 ? "enableNchw44" : "enableNchw88");
      EXPECT_NE(std::string(e.what()).find("only support converting NCHW to NCHWXX"),
                std::string::npos)
          << e.what();
    }
  }
  // Without the kwarg a packed model optimizes (the evaluator runs it as it is).
  RewrittenGraph plain;
  OptimizeResult r = OptimizeForInference(*o->result.graph, OptimizeOptions{}, &plain);
  testing::ExpectSameOutputs(*o->before, *r.graph, 1e-5);
}

// The evaluator's packed operators against values worked out here: a packed feature reads
// back as NCHW, and each filter layout reads back as its NCHW filter.
TEST(EnableNchwxx, EvaluatorReadsPackedLayoutsBack) {
  std::vector<float> v(2 * 8 * 1 * 1);
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k);
  std::string why;
  // (1, 8, 1, 2) NCHW -> NCHW44 (1, 2, 1, 2, 4): element [0][c/4][0][w][c%4] = c * 2 + w.
  HostValue x = HostValue::Floats({1, 8, 1, 2}, v);
  std::optional<HostValue> packed = PackFeature(x, 4, &why);
  ASSERT_TRUE(packed) << why;
  EXPECT_EQ(packed->shape, (Shape{1, 2, 1, 2, 4}));
  EXPECT_EQ(packed->f[0 * 4 + 1], 2.0f);   // c 1, w 0
  EXPECT_EQ(packed->f[1 * 4 + 0], 1.0f);   // c 0, w 1
  EXPECT_EQ(packed->f[8 + 4 + 3], 15.0f);  // c 7, w 1
  EXPECT_EQ(UnpackFeature(*packed).f, x.f);
  // Hybrid KRSCk4: (OC/4, FH, FW, IC, 4); w[k][c][r][s] = f[k/4][r][s][c][k%4].
  std::vector<float> f(1 * 1 * 1 * 3 * 4);
  for (size_t k = 0; k < f.size(); ++k) f[k] = static_cast<float>(k);
  std::optional<HostValue> hybrid =
      UnpackFilter(HostValue::Floats({1, 1, 1, 3, 4}, f), 4, false, &why);
  ASSERT_TRUE(hybrid) << why;
  EXPECT_EQ(hybrid->shape, (Shape{4, 3, 1, 1}));
  EXPECT_EQ(hybrid->f[1 * 3 + 2], 2 * 4 + 1);  // k 1, c 2
  // Channel-wise C11RSc4: (G/4, 1, 1, FH, FW, 4); w[g][0][0][r][s] = f[g/4][0][0][r][s][g%4].
  std::optional<HostValue> chan =
      UnpackFilter(HostValue::Floats({1, 1, 1, 1, 3, 4}, f), 4, true, &why);
  ASSERT_TRUE(chan) << why;
  EXPECT_EQ(chan->shape, (Shape{4, 1, 1, 1, 3}));
  EXPECT_EQ(chan->f[2 * 3 + 1], 1 * 4 + 2);  // g 2, s 1
  // Dense KCRSc4k4: the input-channel lane outside, the output-channel lane inside.
  std::vector<float> d(16);
  for (size_t k = 0; k < d.size(); ++k) d[k] = static_cast<float>(k);
  std::optional<HostValue> dense =
      UnpackFilter(HostValue::Floats({1, 1, 1, 1, 4, 4}, d), 4, false, &why);
  ASSERT_TRUE(dense) << why;
  EXPECT_EQ(dense->f[1 * 4 + 3], 3 * 4 + 1);  // k 1, c 3
  // A filter of no packed shape is refused, not guessed.
  EXPECT_FALSE(
      UnpackFilter(HostValue::Floats({1, 1, 1, 3, 5}, std::vector<float>(15)), 4, false, &why));
}

}  // namespace
}  // namespace graphport::mge::opt
