// ExpandFusedArith takes every fused operator apart, as MegEngine does, and ArithFuse puts
// together again what it can: an optimized graph comes back with its loaded operators, and a
// round trip that changes an operator leaves the changed one.
#include <gtest/gtest.h>

#include "mge/optimize/optimize_for_inference.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::TestGraph;

std::string ExpandReport(const OptimizeResult& r) {
  for (const PassReport& p : r.passes) {
    if (p.pass == "ExpandFusedArith") return p.summary;
  }
  return "missing";
}

OptimizeResult Optimize(TestGraph* t, RewrittenGraph* out) {
  return OptimizeForInference(t->Emit(), {}, out);
}

// Two optimized blocks, FUSE_MUL_ADD3 then RELU, and FUSE_ADD_RELU: both are taken apart and
// made again as they were, deduplicated into the loaded operators.
TEST(FusedRoundTrip, OptimizedBlocksComeBackAsLoaded) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 8});
  VarRef w0 = t.Imm(testing::Ramp({1, 8}, 1, 0.25f), "w0"),
         b0 = t.Imm(testing::Ramp({1, 8}, -1, 0.25f), "b0");
  VarRef y = t.Elemwise(kRelu, {t.Elemwise(kFuseMulAdd3, {x, w0, b0}, "fma")}, "relu");
  VarRef b1 = t.Imm(testing::Ramp({1, 8}, 2, 0.25f), "b1");
  t.Output(t.Elemwise(kFuseAddRelu, {y, b1}, "out"));
  RewrittenGraph out;
  OptimizeResult r = Optimize(&t, &out);
  EXPECT_EQ(ExpandReport(r), "2 fused Elemwise expanded");
  EXPECT_FALSE(r.changed);
}

// Round trips that change the operator: a bias of neither factor's shape (ArithFuse then adds
// it after a plain MUL), two products of different shapes (no FUSE_MUL_ADD4 again). And ones
// that come back as loaded: inputs the file stores out of var id order (loading orders them as
// MegEngine's constructor does), a fused operator read by an ADD, a product under FUSE_ADD_RELU.
TEST(FusedRoundTrip, RoundTripsChangeWhatArithFuseMakesOtherwise) {
  {
    TestGraph t;
    VarRef x = t.Input("x", {4, 8});
    VarRef w = t.Imm(testing::Ramp({1, 8}, 1, 0.25f)), c = t.Imm(testing::Ramp({4, 1}, 3, 0.25f));
    t.Output(t.Elemwise(kSigmoid, {t.Elemwise(kFuseMulAdd3, {x, w, c})}));
    RewrittenGraph out;
    OptimizeResult r = Optimize(&t, &out);
    EXPECT_EQ(ExpandReport(r), "1 fused Elemwise expanded");
    EXPECT_TRUE(r.changed);
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {4, 8}), y = t.Input("y", {4, 8});
    VarRef w = t.Imm(testing::Ramp({1, 8}, 1, 0.25f)), v = t.Imm(testing::Ramp({4, 1}, 3, 0.25f));
    t.Output(t.Elemwise(kRelu, {t.Elemwise(kFuseMulAdd4, {x, w, y, v})}));
    RewrittenGraph out;
    OptimizeResult r = Optimize(&t, &out);
    EXPECT_EQ(ExpandReport(r), "1 fused Elemwise expanded");
    EXPECT_TRUE(r.changed);
  }
  {
    TestGraph t;  // x is written (and loaded) before b1, so b1 has the larger id
    VarRef x = t.Input("x", {4, 8});
    VarRef b1 = t.Imm(testing::Ramp({1, 8}, 2, 0.25f));
    t.Output(t.Elemwise(kRelu, {x}));
    t.Output(t.Elemwise(kFuseAddRelu, {b1, x}));  // loaded as FUSE_ADD_RELU(x, b1)
    RewrittenGraph out;
    OptimizeResult r = Optimize(&t, &out);
    EXPECT_EQ(ExpandReport(r), "1 fused Elemwise expanded");
    EXPECT_FALSE(r.changed);
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {4, 8}), y = t.Input("y", {4, 8});
    VarRef w = t.Imm(testing::Ramp({1, 8}, 1, 0.25f)), c = t.Imm(testing::Ramp({1, 8}, 3, 0.25f));
    VarRef f = t.Elemwise(kFuseMulAdd3, {x, w, c});
    t.Output(t.Elemwise(kAdd, {f, y}));  // ADD: the chain grows past the fused operator
    RewrittenGraph out;
    OptimizeResult r = Optimize(&t, &out);
    EXPECT_EQ(ExpandReport(r), "1 fused Elemwise expanded");
    EXPECT_FALSE(r.changed);
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {4, 8}), y = t.Input("y", {4, 8});
    VarRef p = t.Elemwise(kMul, {x, y});  // MUL
    t.Output(t.Elemwise(kFuseAddRelu, {p, t.Imm(testing::Ramp({1, 8}, 2, 0.25f))}));
    RewrittenGraph out;
    OptimizeResult r = Optimize(&t, &out);
    EXPECT_EQ(ExpandReport(r), "1 fused Elemwise expanded");
    EXPECT_FALSE(r.changed);
  }
}

}  // namespace
}  // namespace graphport::mge::opt
