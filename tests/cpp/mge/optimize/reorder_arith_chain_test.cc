// ReorderArithChain on MegEngine's own test graphs (src/gopt/test/basic_arith.cpp,
// ReorderArithChainPass 0; research megengine_optimize.md §5.1): inputs named w<shape>v<k>
// (Host2DeviceCopy) and w<shape>c<k> (SharedDeviceTensor, a constant to the pass), the
// structure of MegEngine's expected sums up to the order of commutative operands (which
// MegEngine's test compares by building the expected sum in the same graph; here operands
// are printed sorted), the same outputs, and a second run that changes nothing.
#include "mge/optimize/reorder_arith_chain/reorder_arith_chain.h"

#include <gtest/gtest.h>

#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::Expr;
using testing::TestGraph;

// The variables of MegEngine's test, made in its order (so with its id order).
struct Vars {
  explicit Vars(TestGraph* t)
      : w1v0(t->Input("w1v0", {1})),
        w1v1(t->Input("w1v1", {1})),
        w5v0(t->Input("w5v0", {5})),
        w5v1(t->Input("w5v1", {5})),
        w5v2(t->Input("w5v2", {5})),
        w1c0(t->Shared("w1c0", HostValue::Floats({1}, {0.5f}))),
        w5c0(t->Shared("w5c0", HostValue::Floats({5}, {1, 2, 3, 4, 5}))),
        w5c1(t->Shared("w5c1", HostValue::Floats({5}, {-1, 0.25f, 2, -3, 1}))),
        w151v0(t->Input("w151v0", {1, 5, 1})),
        w155v0(t->Input("w155v0", {1, 5, 5})),
        w511v0(t->Input("w511v0", {5, 1, 1})) {}
  VarRef w1v0, w1v1, w5v0, w5v1, w5v2, w1c0, w5c0, w5c1, w151v0, w155v0, w511v0;
};

std::string Reordered(TestGraph* t, PassReport* report = nullptr) {
  std::vector<std::string> out = ApplyPass(t, ReorderArithChain, report, /*canonical=*/true);
  return out.empty() ? "" : out[0];
}

// Mixed modes with matching shapes: the ADD chain under the product is regrouped (the two
// constants summed apart, the (1)-shaped terms together), then the MUL chain over it.
TEST(ReorderArithChain, MixedModesGroupByShape) {
  TestGraph t;
  Vars v(&t);
  VarRef sq = t.Elemwise(kPow, {v.w1v1, t.Imm(HostValue::Floats({1}, {2}))});
  VarRef inner = t.Elemwise(kAdd, {t.Elemwise(kAdd, {v.w1v1, v.w5v1}), sq});
  VarRef sum = t.Elemwise(kAdd, {t.Elemwise(kAdd, {v.w5c0, inner}), v.w5c1});
  t.Output(t.Elemwise(kMul, {sum, t.Elemwise(kMul, {v.w1v0, v.w5v0})}, "out"));
  PassReport report;
  EXPECT_EQ(Reordered(&t, &report),
            "MUL(MUL(ADD(ADD(ADD(w5c0,w5c1),w5v1),ADD(POW(w1v1,imm(2)),w1v1)),w5v0),w1v0)");
  EXPECT_EQ(report.summary, "2 arithmetic chains reordered");
}

// Constants are summed first: w5v0 + w5c0 + w5c1 -> w5v0 + (w5c0 + w5c1).
TEST(ReorderArithChain, ConstantsSummedApart) {
  TestGraph t;
  Vars v(&t);
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kAdd, {v.w5v0, v.w5c0}), v.w5c1}));
  EXPECT_EQ(Reordered(&t), "ADD(ADD(w5c0,w5c1),w5v0)");
}

// Constants of shapes that broadcast into one another merge: w5c0 + w1v0 + w1c0 ->
// (w1c0 + w5c0) + w1v0.
TEST(ReorderArithChain, ConstantsOfCompatibleShapesMerge) {
  TestGraph t;
  Vars v(&t);
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kAdd, {v.w5c0, v.w1v0}), v.w1c0}));
  EXPECT_EQ(Reordered(&t), "ADD(ADD(w1c0,w5c0),w1v0)");
}

// Shape compatibility: (1,5,1) goes into (1,5,5), which (5,1,1) could only join by growing
// both; the smaller is added first.
TEST(ReorderArithChain, CompatibleShapesFirst) {
  TestGraph t;
  Vars v(&t);
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kAdd, {v.w151v0, v.w511v0}), v.w155v0}));
  EXPECT_EQ(Reordered(&t), "ADD(ADD(w151v0,w155v0),w511v0)");
}

// A constant merges into the smallest term it broadcasts to: w1c0 + (w151v0 + w155v0) ->
// (w1c0 + w151v0) + w155v0.
TEST(ReorderArithChain, ConstantJoinsTheSmallestTerm) {
  TestGraph t;
  Vars v(&t);
  t.Output(t.Elemwise(kAdd, {v.w1c0, t.Elemwise(kAdd, {v.w151v0, v.w155v0})}));
  EXPECT_EQ(Reordered(&t), "ADD(ADD(w151v0,w1c0),w155v0)");
}

// The same terms in two orders give the same var, and the pass is a fixed point.
TEST(ReorderArithChain, OrderOfTermsDoesNotMatterAndRerunChangesNothing) {
  TestGraph t;
  Vars v(&t);
  auto add = [&](std::vector<VarRef> terms) {
    VarRef sum = terms[0];
    for (size_t k = 1; k < terms.size(); ++k) sum = t.Elemwise(kAdd, {sum, terms[k]});
    return sum;
  };
  t.Output(add({v.w5v0, v.w5v1, v.w5c0, v.w5v2, v.w1c0}));
  t.Output(add({v.w5c0, v.w5v1, v.w5v2, v.w1c0, v.w5v0}));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  EXPECT_TRUE(ReorderArithChain(&g).changed);
  ASSERT_EQ(g.endpoints().size(), 2u);
  EXPECT_EQ(g.endpoints()[0], g.endpoints()[1]);
  EXPECT_EQ(Expr(g, g.endpoints()[0], true), "ADD(ADD(ADD(w5v0,w5v1),w5v2),ADD(w1c0,w5c0))");
  PassReport again = ReorderArithChain(&g);
  EXPECT_FALSE(again.changed) << again.summary;
  testing::ExpectSameOutputs(before, g.Emit());
}

// A chain whose endpoint is constant is ParamFuse's, and a chain of one shape in id order
// is already what the pass would build.
TEST(ReorderArithChain, LeavesConstantAndOrderedChains) {
  TestGraph t;
  Vars v(&t);
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kAdd, {v.w5c0, v.w5c1}), v.w1c0}));
  t.Output(t.Elemwise(kMul, {t.Elemwise(kMul, {v.w5v0, v.w5v1}), v.w5v2}));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, ReorderArithChain, &report, true);
  EXPECT_EQ(out[0], "ADD(ADD(w5c0,w5c1),w1c0)");
  EXPECT_EQ(out[1], "MUL(MUL(w5v0,w5v1),w5v2)");
  EXPECT_FALSE(report.changed);
}

}  // namespace
}  // namespace graphport::mge::opt
