// ExpandFusedArith on MegEngine's own test graphs (src/gopt/test/basic_arith.cpp,
// ExpandFusedArith FMA and ADD; research megengine_optimize.md §5.1): the structure of
// MegEngine's expected graph (commutative inputs by var id), and the same outputs.
#include "mge/optimize/expand_fused_arith/expand_fused_arith.h"

#include <gtest/gtest.h>

#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::TestGraph;

// fma3(fma3(w, x, y), fma4(w, x + y, y - z, z - w), z) ->
// (w * x + y) * (w * (x + y) + (y - z) * (z - w)) + z.
TEST(ExpandFusedArith, MulAdd) {
  TestGraph t;
  VarRef w = t.Input("w", {2, 3}), x = t.Input("x", {2, 3});
  VarRef y = t.Input("y", {2, 3}), z = t.Input("z", {2, 3});
  VarRef inner = t.Elemwise(kFuseMulAdd3, {w, x, y});
  VarRef fma4 = t.Elemwise(kFuseMulAdd4, {w, t.Elemwise(kAdd, {x, y}), t.Elemwise(kSub, {y, z}),
                                          t.Elemwise(kSub, {z, w})});
  t.Output(t.Elemwise(kFuseMulAdd3, {inner, fma4, z}, "out"));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, ExpandFusedArith, &report);
  // Each new ADD reads the older var first: z and y are loaded, the products are new.
  EXPECT_EQ(out[0], "ADD(z,MUL(ADD(y,MUL(w,x)),ADD(MUL(w,ADD(x,y)),MUL(SUB(y,z),SUB(z,w)))))");
  EXPECT_EQ(report.summary, "3 fused Elemwise expanded");
}

// FUSE_ADD_{SIGMOID,TANH,RELU,H_SWISH}(a, b) -> mode(a + b); the fused var's name moves on.
TEST(ExpandFusedArith, AddActivations) {
  const std::vector<std::pair<uint32_t, std::string>> cases = {
      {38, "SIGMOID"}, {39, "TANH"}, {37, "RELU"}, {51, "H_SWISH"}};
  for (const auto& [fused, mode] : cases) {
    TestGraph t;
    VarRef a = t.Input("a", {3, 4}), b = t.Input("b", {1, 4});
    t.Output(t.Elemwise(fused, {a, b}, "act"));
    const Graph& before = t.Emit();
    RewrittenGraph storage;
    OptGraph g(before, &storage);
    EXPECT_TRUE(ExpandFusedArith(&g).changed);
    const VarRef top = g.endpoints()[0];
    EXPECT_EQ(testing::Expr(g, top), mode + "(ADD(a,b))");
    EXPECT_EQ(g.var(top).middle().name, "act");
    testing::ExpectSameOutputs(before, g.Emit());
  }
}

// Nothing fused: nothing made.
TEST(ExpandFusedArith, LeavesOtherModesAlone) {
  TestGraph t;
  VarRef a = t.Input("a", {3});
  t.Output(t.Elemwise(kAdd, {a, t.Elemwise(kRelu, {a})}));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, ExpandFusedArith, &report);
  EXPECT_FALSE(report.changed);
  EXPECT_EQ(out[0], "ADD(a,RELU(a))");
}

}  // namespace
}  // namespace graphport::mge::opt
