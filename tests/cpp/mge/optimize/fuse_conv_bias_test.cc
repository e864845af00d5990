// FuseConvBiasNonlin and FuseConvBiasZ (enable_fuse_conv_bias_nonlinearity and
// enable_fuse_conv_bias_with_z) on the graphs of MegEngine's ConvBiasNonlinearityFusePass
// tests and the cases of research megengine_optimize.md §4.1-§4.2: what is fused, with which
// nonlinearity and inputs, and what is left. (The reference evaluator has no Convolution, so
// these check structure; the dump tests check the files.)
#include <gtest/gtest.h>

#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/fuse_conv_bias_nonlin/fuse_conv_bias_nonlin.h"
#include "mge/optimize/fuse_conv_bias_z/fuse_conv_bias_z.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::Expr;
using testing::TestGraph;

// Convolution(x, w) in NCHW, dense or group, with an execution policy as MegEngine dumps it.
VarRef Conv(TestGraph* t, VarRef x, VarRef w, bool group = false) {
  OptGraph& g = t->g();
  OptNode n;
  n.set_op(g.NewOperator("Convolution"));
  flatbuffers::FlatBufferBuilder fbb(64);
  n.mutable_op().params.push_back(g.OwnParam(
      3, &fbb,
      testing::param::CreateConvolution(fbb, testing::param::ConvolutionV0Mode_CROSS_CORRELATION, 1,
                                        1, 1, 1, 1, 1,
                                        group ? testing::param::ConvolutionV0Sparse_GROUP
                                              : testing::param::ConvolutionV0Sparse_DENSE)
          .Union()));
  flatbuffers::FlatBufferBuilder policy(64);
  n.mutable_op().params.push_back(
      g.OwnParam(55, &policy, testing::param::CreateExecutionPolicy(policy).Union()));
  n.mutable_op().items = {{DumpItem::kParam, 0}, {DumpItem::kParam, 1}};
  n.mutable_op().name = "conv";
  n.inputs = {x, w};
  n.outputs.resize(1);
  return {g.Add(std::move(n)), 0};
}

struct Fused {
  std::vector<std::string> exprs;
  std::vector<std::optional<ConvParams>> params;  // of each endpoint's operator
  PassReport report;
};

template <typename... Pass>
Fused Apply(TestGraph* t, Pass... passes) {
  const Graph& before = t->Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  Fused f;
  for (auto pass : {passes...}) f.report = pass(&g);
  for (const VarRef& v : g.endpoints()) {
    f.exprs.push_back(Expr(g, v));
    f.params.push_back(ConvParamsOf(g, v.node));
  }
  return f;
}

struct ConvGraph {
  TestGraph t;
  VarRef x, w, b;
  ConvGraph() {
    x = t.Input("x", {2, 3, 8, 8});
    w = t.Shared("w", HostValue::Floats({4, 3, 3, 3}, std::vector<float>(108, 0.5f)));
    b = t.Shared("b", HostValue::Floats({1, 4, 1, 1}, {1, 2, 3, 4}));
  }
};

TEST(FuseConvBiasNonlin, AddReluOfConvAndChannelBiasIsOneConvBias) {
  ConvGraph c;
  c.t.Output(c.t.Elemwise(kFuseAddRelu, {Conv(&c.t, c.x, c.w), c.b}, "y"));
  Fused f = Apply(&c.t, FuseConvBiasNonlin);
  EXPECT_EQ(f.exprs[0], "ConvBiasForward(x,w,b)");
  ASSERT_TRUE(f.params[0]);
  EXPECT_EQ(f.params[0]->nonline, kNonlineRelu);
  EXPECT_EQ(f.params[0]->pad_h, 1u);
  EXPECT_TRUE(f.report.changed);
  EXPECT_EQ(f.report.summary, "1 convolutions fused with their bias or nonlinearity into ConvBias");
}

TEST(FuseConvBiasNonlin, BiasOnEitherSideAndPlainAddIsIdentity) {
  ConvGraph c;
  c.t.Output(c.t.Elemwise(kAdd, {c.b, Conv(&c.t, c.x, c.w)}));
  Fused f = Apply(&c.t, FuseConvBiasNonlin);
  EXPECT_EQ(f.exprs[0], "ConvBiasForward(x,w,b)");
  EXPECT_EQ(f.params[0]->nonline, kIdentity);
}

// sigmoid(conv + b): the ADD becomes a ConvBias, and the SIGMOID over it takes it in; the
// RELU over that is not a combination ConvBias has, so it stays (MegEngine's test: the first
// ConvBias has three inputs and SIGMOID).
TEST(FuseConvBiasNonlin, NonlinearityOverAConvBiasJoinsItOnce) {
  ConvGraph c;
  VarRef s = c.t.Elemwise(kSigmoid, {c.t.Elemwise(kAdd, {Conv(&c.t, c.x, c.w), c.b})});
  c.t.Output(c.t.Elemwise(kRelu, {s}));
  RewrittenGraph out;
  OptGraph g(c.t.Emit(), &out);
  FuseConvBiasNonlin(&g);
  EXPECT_EQ(Expr(g, g.endpoints()[0]), "RELU(ConvBiasForward(x,w,b))");
  const VarRef inner = g.node(g.endpoints()[0].node).inputs[0];
  EXPECT_EQ(ConvParamsOf(g, inner.node)->nonline, kNonlineSigmoid);
  EXPECT_EQ(g.node(inner.node).inputs.size(), 3u);
}

TEST(FuseConvBiasNonlin, HSwishOfAConvIsATwoInputConvBias) {
  ConvGraph c;
  c.t.Output(c.t.Elemwise(kHSwishMode, {Conv(&c.t, c.x, c.w)}));
  Fused f = Apply(&c.t, FuseConvBiasNonlin);
  EXPECT_EQ(f.exprs[0], "ConvBiasForward(x,w)");
  EXPECT_EQ(f.params[0]->nonline, kHSwish);
}

// _FullBias: a full-shape constant is no bias (it is not per channel, and its shape is
// constant), but the sum of two convolutions is: the second conv is the first one's bias.
TEST(FuseConvBiasNonlin, FullShapeConstantIsNoBiasButAnotherConvIs) {
  ConvGraph c;
  VarRef full = c.t.Shared("full", HostValue::Floats({2, 4, 8, 8}, std::vector<float>(512, 1)));
  c.t.Output(c.t.Elemwise(kAdd, {Conv(&c.t, c.x, c.w), full}));
  EXPECT_EQ(Apply(&c.t, FuseConvBiasNonlin).exprs[0], "ADD(Convolution(x,w),full)");

  ConvGraph two;
  VarRef w2 = two.t.Shared("w2", HostValue::Floats({4, 3, 3, 3}, std::vector<float>(108, 1)));
  two.t.Output(two.t.Elemwise(kAdd, {Conv(&two.t, two.x, two.w), Conv(&two.t, two.x, w2)}));
  EXPECT_EQ(Apply(&two.t, FuseConvBiasNonlin).exprs[0], "ConvBiasForward(x,w,Convolution(x,w2))");
}

TEST(FuseConvBiasNonlin, ConvReadTwiceOrWrongBiasShapeStays) {
  ConvGraph c;
  VarRef conv = Conv(&c.t, c.x, c.w);
  c.t.Output(c.t.Elemwise(kAdd, {conv, c.b}));
  c.t.Output(c.t.Elemwise(kRelu, {conv}));
  Fused f = Apply(&c.t, FuseConvBiasNonlin);
  EXPECT_EQ(f.exprs[0], "ADD(Convolution(x,w),b)");
  EXPECT_EQ(f.exprs[1], "RELU(Convolution(x,w))");
  EXPECT_FALSE(f.report.changed);

  ConvGraph wrong;
  VarRef b3 = wrong.t.Shared("b3", HostValue::Floats({1, 1, 1, 4}, {1, 2, 3, 4}));
  wrong.t.Output(wrong.t.Elemwise(kAdd, {Conv(&wrong.t, wrong.x, wrong.w), b3}));
  EXPECT_EQ(Apply(&wrong.t, FuseConvBiasNonlin).exprs[0], "ADD(Convolution(x,w),b3)");
}

// A group convolution's bias has G * OCPG channels.
TEST(FuseConvBiasNonlin, GroupConvolutionBiasCountsEveryGroup) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 4, 5, 5});
  VarRef w = t.Shared("w", HostValue::Floats({2, 3, 2, 3, 3}, std::vector<float>(108, 1)));
  VarRef b = t.Shared("b", HostValue::Floats({1, 6, 1, 1}, {1, 2, 3, 4, 5, 6}));
  t.Output(t.Elemwise(kFuseAddRelu, {Conv(&t, x, w, true), b}));
  Fused f = Apply(&t, FuseConvBiasNonlin);
  EXPECT_EQ(f.exprs[0], "ConvBiasForward(x,w,b)");
  EXPECT_EQ(f.params[0]->sparse, 1u);
}

// enable_fuse_conv_bias_with_z: relu(conv + b + z) with z of the output's shape.
TEST(FuseConvBiasZ, ResidualAdditionBecomesTheFourthInput) {
  ConvGraph c;
  VarRef z = c.t.Input("z", {2, 4, 8, 8});
  VarRef biased = c.t.Elemwise(kAdd, {Conv(&c.t, c.x, c.w), c.b});
  c.t.Output(c.t.Elemwise(kFuseAddRelu, {biased, z}));
  Fused f = Apply(&c.t, FuseConvBiasNonlin, FuseConvBiasZ);
  EXPECT_EQ(f.exprs[0], "ConvBiasForward(x,w,b,z)");
  EXPECT_EQ(f.params[0]->nonline, kNonlineRelu);
  EXPECT_EQ(f.report.summary, "1 additions fused into ConvBias as z");
}

TEST(FuseConvBiasZ, ZOfAnotherShapeOrANonlinearConvBiasStays) {
  ConvGraph c;
  VarRef z = c.t.Input("z", {1, 4, 8, 8});  // broadcast along N: not the output's shape
  c.t.Output(c.t.Elemwise(kAdd, {c.t.Elemwise(kAdd, {Conv(&c.t, c.x, c.w), c.b}), z}));
  EXPECT_EQ(Apply(&c.t, FuseConvBiasNonlin, FuseConvBiasZ).exprs[0],
            "ADD(z,ConvBiasForward(x,w,b))");

  ConvGraph r;
  VarRef z2 = r.t.Input("z", {2, 4, 8, 8});
  r.t.Output(r.t.Elemwise(kAdd, {r.t.Elemwise(kFuseAddRelu, {Conv(&r.t, r.x, r.w), r.b}), z2}));
  Fused f = Apply(&r.t, FuseConvBiasNonlin, FuseConvBiasZ);
  EXPECT_EQ(f.exprs[0], "ADD(z,ConvBiasForward(x,w,b))");
  EXPECT_FALSE(f.report.changed);
}

}  // namespace
}  // namespace graphport::mge::opt
