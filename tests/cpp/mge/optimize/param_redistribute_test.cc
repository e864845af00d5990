// ParamRedistribute on MegEngine's own test graphs (src/gopt/test/inference.cpp,
// ParamRedistribute*, ParamFuseBiasMerge; gtrans.cpp's matrix rules; research
// megengine_optimize.md §5.2-5.3): per-channel multipliers go into the convolution weights,
// sums are distributed, each case asserting what MegEngine's test asserts, with the graph
// before and after computing the same (the evaluator's Convolution and MatrixMul sum left
// to right, which a rewrite may reorder: 1e-5 relative, MegEngine's own tolerance).
#include "mge/optimize/param_redistribute/param_redistribute.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "mge/optimize/opr_maker.h"
#include "mge/optimize/optimize_for_inference.h"
#include "mge/optimize/param_fuse/param_fuse.h"
#include "mge/optimize/reorder_arith_chain/reorder_arith_chain.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::Expr;
using testing::TestGraph;

// Values in [-2, 2) from a seed: MegEngine's tests draw theirs from a generator too.
HostValue Seeded(Shape shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> values(ElementCount(shape));
  for (float& v : values) v = dist(rng);
  return HostValue::Floats(std::move(shape), std::move(values));
}

// A per-input-channel multiplier as MegEngine's tests make it: a vector parameter
// dimshuffled to (1, C, 1, 1).
VarRef Channels(TestGraph* t, const std::string& name, uint32_t c, uint32_t seed) {
  return t->Dimshuffle(t->Shared(name, Seeded({c}, seed)), {-1, 0, -1, -1}, 1);
}

using Pass = PassReport (*)(OptGraph*);

// Runs `passes` on the built graph, with the numerics check: `g` is the graph written after
// them, as it loads back (ids in the dumper's order).
struct Optimized {
  RewrittenGraph storage, view_storage;
  std::unique_ptr<OptGraph> g;
  std::vector<PassReport> reports;
};
std::unique_ptr<Optimized> Apply(TestGraph* t, const std::vector<Pass>& passes, double rel = 1e-5) {
  auto out = std::make_unique<Optimized>();
  const Graph& before = t->Emit();
  OptGraph work(before, &out->storage);
  for (Pass p : passes) out->reports.push_back(p(&work));
  const Graph& after = work.Emit();
  if (rel >= 0) testing::ExpectSameOutputs(before, after, rel);
  out->g = std::make_unique<OptGraph>(after, &out->view_storage);
  return out;
}

VarRef Endpoint(const Optimized& o) { return o.g->endpoints()[0]; }

// ParamRedistributeConvMul: conv(x * k, w) -> conv(x, k * w).
TEST(ParamRedistribute, ConvMulMovesTheMultiplierIntoTheWeights) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 3, 5, 4});
  VarRef k = Channels(&t, "k", 3, 1);
  VarRef w = t.Shared("w", Seeded({4, 3, 3, 2}, 2));
  t.Output(t.Convolution(t.Elemwise(kMul, {x, k}), w));
  auto o = Apply(&t, {ParamRedistribute});
  EXPECT_EQ(Expr(*o->g, Endpoint(*o), true), "Convolution(x,MUL(Dimshuffle(k),w))");
  EXPECT_EQ(o->reports[0].summary, "1 vars rewritten (conv(x*k,w) 1)");
}

// ParamRedistributeConvMulUniqReader: the first convolution takes k, but y0k is read twice,
// so the second convolution still reads it and the quotient divides by that same var.
// (+ 50 where MegEngine's test adds 2: with inputs in [-2, 2) the sum can come near zero,
// where the square and the quotient magnify the rounding of the reassociated product.)
TEST(ParamRedistribute, MultiplierReadTwiceStays) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 3, 5, 4});
  VarRef k = t.Dimshuffle(
      t.Elemwise(kAdd, {t.Shared("k", Seeded({3}, 3)), t.Imm(HostValue::Floats({1}, {2}))}),
      {-1, 0, -1, -1}, 1);
  VarRef w = t.Shared("w", Seeded({3, 3, 1, 1}, 4));
  VarRef two = t.Imm(HostValue::Floats({1}, {2})), fifty = t.Imm(HostValue::Floats({1}, {50}));
  VarRef conv = t.Convolution(t.Elemwise(kMul, {x, k}), w);
  VarRef y0 = t.Elemwise(kPow, {t.Elemwise(kAdd, {conv, fifty}), two});
  VarRef y0k = t.Elemwise(kMul, {y0, k});
  t.Output(t.Elemwise(kTrueDiv, {t.Convolution(y0k, w), y0k}));
  auto o = Apply(&t, {ParamRedistribute});
  const OptGraph& g = *o->g;
  const OptNode& z = g.node(Endpoint(*o).node);
  ASSERT_EQ(z.inputs.size(), 2u);
  ASSERT_EQ(g.Key(z.inputs[0].node), "Convolution");
  EXPECT_EQ(g.node(z.inputs[0].node).inputs[0], z.inputs[1]);
  EXPECT_EQ(Expr(g, z.inputs[1], true),
            "MUL(Dimshuffle(ADD(imm(2),k)),"
            "POW(ADD(Convolution(x,MUL(Dimshuffle(ADD(imm(2),k)),w)),imm(50)),imm(2)))");
}

// ParamRedistributeMulConvMul: conv(x * k1, w) * k2 -> one Convolution of x, whose weights
// ParamFuse computes.
TEST(ParamRedistribute, BothMultipliersGoIntoOneConvolution) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 3, 5, 4});
  VarRef k1 = Channels(&t, "k1", 3, 5);
  VarRef k2 = t.Shared("k2", Seeded({1, 4, 1, 1}, 6));
  VarRef w = t.Shared("w", Seeded({4, 3, 3, 2}, 7));
  t.Output(t.Elemwise(kMul, {t.Convolution(t.Elemwise(kMul, {x, k1}), w), k2}));
  auto o = Apply(&t, {ParamRedistribute, ParamFuse});
  const VarRef y = Endpoint(*o);
  ASSERT_EQ(o->g->Key(y.node), "Convolution");
  EXPECT_EQ(Expr(*o->g, o->g->node(y.node).inputs[0]), "x");
  EXPECT_EQ(o->g->Key(o->g->node(y.node).inputs[1].node), "SharedDeviceTensor");
}

// ParamRedistributeConvAdd: conv(x + b, w) -> conv(x, w) + b', b' summed per output channel
// (MegEngine folds it; here the sum of 18 products per channel is left as it is, as the
// evaluator cannot tell the order MegEngine's reducer adds in).
TEST(ParamRedistribute, ConvAddMovesTheAddendPastTheConvolution) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 3, 5, 4});
  VarRef b = Channels(&t, "b", 3, 8);
  VarRef w = t.Shared("w", Seeded({4, 3, 3, 2}, 9));
  t.Output(t.Convolution(t.Elemwise(kAdd, {x, b}), w));
  auto o = Apply(&t, {ParamRedistribute, ParamFuse});
  EXPECT_EQ(Expr(*o->g, Endpoint(*o), true),
            "ADD(Convolution(x,w),Dimshuffle(Reduce0(Reshape(MUL(Dimshuffle(b),w),imm(4,1)),"
            "imm(4,1))))");
}

// A padded convolution sees the padding's zeros, not b: nothing moves.
TEST(ParamRedistribute, ConvAddNeedsNoPadding) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 3, 5, 4});
  VarRef b = Channels(&t, "b", 3, 10);
  t.Output(t.Convolution(t.Elemwise(kAdd, {x, b}), t.Shared("w", Seeded({4, 3, 3, 2}, 11)), 1));
  auto o = Apply(&t, {ParamRedistribute});
  EXPECT_FALSE(o->reports[0].changed);
}

// ParamRedistributeDistThenReasso: (conv(x0 * k0, w0) + conv(x1 + k1, w1) + b0 + b1) * k2
// with ReorderArithChain and ParamFuse: a sum of four terms, two of them Convolutions of an
// input by a parameter.
TEST(ParamRedistribute, DistributesThenReassociates) {
  TestGraph t;
  VarRef x0 = t.Input("x0", {4, 3, 5, 4}), x1 = t.Input("x1", {4, 6, 5, 4});
  VarRef k0 = Channels(&t, "k0", 3, 12);
  VarRef w0 = t.Shared("w0", Seeded({4, 3, 3, 2}, 13));
  VarRef k1 = t.Shared("k1", Seeded({1, 6, 1, 1}, 14));
  VarRef w1 = t.Shared("w1", Seeded({4, 6, 3, 2}, 15));
  VarRef b0 = t.Input("b0", {1, 4, 1, 1});
  VarRef b1 = t.Shared("b1", Seeded({1}, 16)), k2 = t.Shared("k2", Seeded({1}, 17));
  VarRef s = t.Elemwise(kAdd, {t.Convolution(t.Elemwise(kMul, {x0, k0}), w0),
                               t.Convolution(t.Elemwise(kAdd, {x1, k1}), w1)});
  s = t.Elemwise(kAdd, {t.Elemwise(kAdd, {s, b0}), b1});
  t.Output(t.Elemwise(kMul, {s, k2}));
  auto o = Apply(&t, {ParamRedistribute, ReorderArithChain, ParamFuse});
  const OptGraph& g = *o->g;
  // A term computed from parameters only is one leaf: MegEngine's ParamFuse folds it into
  // one value; here the per-channel sum of ConvAdd's bias is left unfolded (see ConvAdd).
  std::function<bool(VarRef)> from_params = [&](VarRef v) {
    if (g.Key(v.node) == "Host2DeviceCopy") return false;
    for (const VarRef& in : g.node(v.node).inputs) {
      if (!from_params(in)) return false;
    }
    return true;
  };
  std::vector<VarRef> leaves, stack{Endpoint(*o)};
  while (!stack.empty()) {
    VarRef v = stack.back();
    stack.pop_back();
    if (ElemwiseModeOf(g.node(v.node).op()) == kAdd && !from_params(v)) {
      for (const VarRef& in : g.node(v.node).inputs) stack.push_back(in);
    } else {
      leaves.push_back(v);
    }
  }
  size_t convs = 0;
  for (const VarRef& leaf : leaves) {
    if (g.Key(leaf.node) != "Convolution") continue;
    ++convs;
    EXPECT_EQ(g.Key(g.node(leaf.node).inputs[0].node), "Host2DeviceCopy");
    EXPECT_EQ(g.Key(g.node(leaf.node).inputs[1].node), "SharedDeviceTensor");
  }
  EXPECT_EQ(convs, 2u);
  EXPECT_EQ(leaves.size(), 4u);
}

// ParamRedistributeMultiChange: (conv(x * k0 + b0, w) + b1) * k1 -> a sum with a
// Convolution of x.
TEST(ParamRedistribute, SeveralChangesOnOneChain) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 3, 5, 4});
  VarRef k0 = t.Shared("k0", Seeded({1, 3, 1, 1}, 18)),
         b0 = t.Shared("b0", Seeded({1, 3, 1, 1}, 19));
  VarRef k1 = t.Shared("k1", Seeded({1}, 20)), b1 = t.Shared("b1", Seeded({1}, 21));
  VarRef w = t.Shared("w", Seeded({4, 3, 3, 2}, 22));
  VarRef conv = t.Convolution(t.Elemwise(kAdd, {t.Elemwise(kMul, {x, k0}), b0}), w);
  t.Output(t.Elemwise(kMul, {t.Elemwise(kAdd, {conv, b1}), k1}));
  auto o = Apply(&t, {ParamRedistribute, ParamFuse});
  const OptGraph& g = *o->g;
  const OptNode& y = g.node(Endpoint(*o).node);
  ASSERT_EQ(ElemwiseModeOf(y.op()), kAdd);
  VarRef yconv = y.inputs[0];
  if (g.Key(yconv.node) != "Convolution") yconv = y.inputs[1];
  ASSERT_EQ(g.Key(yconv.node), "Convolution");
  EXPECT_EQ(Expr(g, g.node(yconv.node).inputs[0]), "x");
}

// ParamRedistributeMultiReader: t = conv(x, w) * k read twice: the multiplier goes into the
// weights, and both products read that one Convolution of x.
TEST(ParamRedistribute, MultiplierIntoWeightsForTwoReaders) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 3, 5, 4});
  VarRef k = t.Shared("k", Seeded({1, 4, 1, 1}, 23)), w = t.Shared("w", Seeded({4, 3, 3, 2}, 24));
  VarRef prod = t.Elemwise(kMul, {t.Convolution(x, w), k});
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kMul, {prod, t.Imm(HostValue::Floats({1}, {4.2f}))}),
                             t.Elemwise(kMul, {prod, t.Imm(HostValue::Floats({1}, {2.4f}))})}));
  auto o = Apply(&t, {ParamRedistribute, ParamFuse});
  const OptGraph& g = *o->g;
  const OptNode& y = g.node(Endpoint(*o).node);
  ASSERT_EQ(ElemwiseModeOf(y.op()), kAdd);
  std::vector<VarRef> convs;
  for (const VarRef& product : y.inputs) {
    ASSERT_EQ(ElemwiseModeOf(g.node(product.node).op()), kMul);
    for (const VarRef& in : g.node(product.node).inputs) {
      if (g.Key(in.node) == "Convolution") convs.push_back(in);
    }
  }
  ASSERT_EQ(convs.size(), 2u);
  EXPECT_EQ(convs[0], convs[1]);
  EXPECT_EQ(Expr(g, g.node(convs[0].node).inputs[0]), "x");
}

// gtrans.cpp's matrix rules: matmul(x * k, w) -> matmul(x, k' * w) for k along x's rows
// ((1) or (1, 3)); a column (5, 1) only with transposeA.
TEST(ParamRedistribute, MatmulMulTakesRowVectors) {
  for (const Shape& ks : {Shape{1}, Shape{1, 3}, Shape{5, 1}}) {
    TestGraph t;
    VarRef x = t.Input("x", {5, 3});
    VarRef k = t.Shared("k", Seeded(ks, 25));
    t.Output(t.MatrixMul(t.Elemwise(kMul, {x, k}), t.Shared("w", Seeded({3, 4}, 26))));
    auto o = Apply(&t, {ParamRedistribute});
    EXPECT_EQ(o->reports[0].changed, (ks != Shape{5, 1})) << ks.size();
    if (ks != Shape{5, 1}) {
      EXPECT_EQ(Expr(*o->g, Endpoint(*o), true),
                "MatrixMul(x,MUL(Dimshuffle(Reshape(k,imm(1))),w))");
    }
  }
  TestGraph t;
  VarRef x = t.Input("x", {3, 5});  // transposed: (5, 1) scales what are x's rows then
  VarRef k = t.Shared("k", Seeded({1, 5}, 27));
  t.Output(t.MatrixMul(t.Elemwise(kMul, {x, k}), t.Shared("w", Seeded({3, 4}, 28)), true));
  EXPECT_FALSE(Apply(&t, {ParamRedistribute})->reports[0].changed);
}

// matmul(x, w) * k -> matmul(x, k' * w) for a row vector k (one per output column).
TEST(ParamRedistribute, MulMatmulTakesRowVectors) {
  TestGraph t;
  VarRef x = t.Input("x", {5, 3});
  VarRef w = t.Shared("w", Seeded({4, 3}, 29));
  VarRef k = t.Shared("k", Seeded({1, 4}, 30));
  t.Output(t.Elemwise(kMul, {t.MatrixMul(x, w, false, true), k}));
  auto o = Apply(&t, {ParamRedistribute});
  EXPECT_EQ(Expr(*o->g, Endpoint(*o), true), "MatrixMul(x,MUL(Dimshuffle(Reshape(k,imm(1))),w))");
}

// matmul(x + b, w) -> matmul(broadcast(b), w) + matmul(x, w).
TEST(ParamRedistribute, MatmulAddSplitsTheProduct) {
  TestGraph t;
  VarRef x = t.Input("x", {5, 3});
  VarRef b = t.Shared("b", Seeded({1, 3}, 31));
  VarRef w = t.Shared("w", Seeded({3, 4}, 32));
  t.Output(t.MatrixMul(t.Elemwise(kAdd, {x, b}), w));
  auto o = Apply(&t, {ParamRedistribute});
  EXPECT_EQ(Expr(*o->g, Endpoint(*o), true),
            "ADD(MatrixMul(Broadcast(b,imm(1,3)),w),MatrixMul(x,w))");
}

// ParamFuseBiasMerge: the whole pipeline on (conv(x, w1) + b1) + (conv(x, w2) + b2): a sum
// of three terms, the two convolutions and one merged bias.
TEST(ParamRedistribute, PipelineMergesTheBiases) {
  TestGraph t;
  VarRef x = t.Input("x", {6, 3, 8, 8});
  VarRef w1 = t.Shared("w1", Seeded({4, 3, 3, 3}, 33)),
         w2 = t.Shared("w2", Seeded({4, 3, 3, 3}, 34));
  VarRef b1 = t.Shared("b1", Seeded({1, 4, 1, 1}, 35)),
         b2 = t.Shared("b2", Seeded({1, 4, 1, 1}, 36));
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kAdd, {t.Convolution(x, w1), b1}),
                             t.Elemwise(kAdd, {t.Convolution(x, w2), b2})}));
  const Graph& before = t.Emit();
  RewrittenGraph storage;
  const Graph& after = *OptimizeForInference(before, {}, &storage).graph;
  testing::ExpectSameOutputs(before, after, 1e-6);
  RewrittenGraph scratch;
  OptGraph g(after, &scratch);
  // The weights and the bias sum are ParamMerge's holder outputs.
  EXPECT_EQ(Expr(g, g.endpoints()[0], true),
            "ADD(ADD(Convolution(x,MultipleDeviceTensorHolder()),"
            "Convolution(x,MultipleDeviceTensorHolder())),MultipleDeviceTensorHolder())");
}

}  // namespace
}  // namespace graphport::mge::opt
