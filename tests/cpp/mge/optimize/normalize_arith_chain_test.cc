// NormalizeArithChain on MegEngine's own test graphs (src/gopt/test/basic_arith.cpp,
// NormalizeArithChain 0, EndpointInDep, Collapse, MulMerge, PowCExpand0 and SubDiv; research
// megengine_optimize.md §5.1): the structure of MegEngine's expected graph, commutative
// inputs in var id order, coefficients in float32, and the same outputs.
#include "mge/optimize/normalize_arith_chain/normalize_arith_chain.h"

#include <gtest/gtest.h>

#include "mge/optimize/eval/opr_eval.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::TestGraph;

VarRef Scalar(TestGraph* t, float v) { return t->Imm(HostValue::Floats({1}, {v})); }

std::string Normalized(TestGraph* t, PassReport* report = nullptr) {
  std::vector<std::string> out = ApplyPass(t, NormalizeArithChain, report);
  return out.empty() ? "" : out[0];
}

// x - y + z - (y - x) -> z + y * (-2) + x * 2: leaves in the order met breadth first.
TEST(NormalizeArithChain, SumsWithCoefficients) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3}), y = t.Input("y", {2, 3}), z = t.Input("z", {2, 3});
  VarRef lhs = t.Elemwise(kAdd, {t.Elemwise(kSub, {x, y}), z});
  t.Output(t.Elemwise(kSub, {lhs, t.Elemwise(kSub, {y, x})}, "out"));
  PassReport report;
  EXPECT_EQ(Normalized(&t, &report), "ADD(ADD(z,MUL(y,imm(-2))),MUL(x,imm(2)))");
  EXPECT_EQ(report.summary, "1 arithmetic chains normalized");
}

// NormalizeArithChain.EndpointInDep: outputs x - y and (x - y) / z -> x + (-y) and
// (x + (-y)) * pow(z, -1); the shared x - y is one term of the product.
TEST(NormalizeArithChain, EndpointInsideAnotherChain) {
  TestGraph t;
  VarRef x = t.Input("x", {3}), y = t.Input("y", {3}), z = t.Input("z", {3});
  VarRef d = t.Elemwise(kSub, {x, y});
  t.Output(d);
  t.Output(t.Elemwise(kTrueDiv, {d, z}));
  std::vector<std::string> out = ApplyPass(&t, NormalizeArithChain);
  EXPECT_EQ(out[0], "ADD(x,NEGATE(y))");
  EXPECT_EQ(out[1], "MUL(ADD(x,NEGATE(y)),POW(z,imm(-1)))");
}

// NormalizeArithChain.Collapse: a + a + a -> a * 3; a + a + a - a - a -> a * 3 + a * (-2)
// is one term, a * 1 -> a.
TEST(NormalizeArithChain, CollapsesRepeatedLeaves) {
  TestGraph t;
  VarRef a = t.Input("a", {2});
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kAdd, {a, a}), a}, "out"));
  EXPECT_EQ(Normalized(&t), "MUL(a,imm(3))");

  TestGraph t2;
  VarRef b = t2.Input("b", {2});
  VarRef three = t2.Elemwise(kAdd, {t2.Elemwise(kAdd, {b, b}), b});
  t2.Output(t2.Elemwise(kSub, {t2.Elemwise(kSub, {three, b}), b}));
  EXPECT_EQ(Normalized(&t2), "b");  // 3 - 1 - 1 = 1: the leaf itself
}

// MulMerge: 1 + (a * 1.2) * 0.3 + a -> 1 + a * (1.2 * 0.3 + 1), the coefficient in float32.
TEST(NormalizeArithChain, MergesCoefficientsInFloat32) {
  TestGraph t;
  VarRef one = Scalar(&t, 1);
  VarRef a = t.Input("a", {4});
  VarRef scaled = t.Elemwise(kMul, {t.Elemwise(kMul, {a, Scalar(&t, 1.2f)}), Scalar(&t, 0.3f)});
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kAdd, {one, scaled}), a}, "out"));
  const Graph& before = t.Emit();
  RewrittenGraph storage;
  OptGraph g(before, &storage);
  EXPECT_TRUE(NormalizeArithChain(&g).changed);
  const VarRef top = g.endpoints()[0];
  EXPECT_EQ(testing::Expr(g, top), "ADD(imm(1),MUL(a,imm(1.360000)))");
  const VarRef coeff = g.node(g.node(top.node).inputs[1].node).inputs[1];
  volatile float product = 0.3f;
  product = product * 1.2f;
  const float expected = 1.0f + product;
  EXPECT_EQ(StoredValue(g.node(coeff.node).op(), 0)->f[0], expected);
  testing::ExpectSameOutputs(before, g.Emit());
}

// SubDiv: x - y / 2 -> x + y * (-0.5): the divisor's reciprocal folds into the coefficient.
TEST(NormalizeArithChain, DivisionByAConstantIsACoefficient) {
  TestGraph t;
  VarRef x = t.Input("x", {3}), y = t.Input("y", {3});
  t.Output(t.Elemwise(kSub, {x, t.Elemwise(kTrueDiv, {y, Scalar(&t, 2)})}));
  EXPECT_EQ(Normalized(&t), "ADD(x,MUL(y,imm(-0.500000)))");
}

// PowCExpand0: PowC(a, 2.3) -> pow(a, 2.3); x / y -> x * pow(y, -1). (The base is |a|
// here: PowC takes a fractional power of |x| where POW gives NaN for x < 0, a difference
// MegEngine's rewrite has and the numerics check would see.)
TEST(NormalizeArithChain, PowersAndQuotients) {
  TestGraph t;
  t.Output(t.PowC(t.Elemwise(kAbs, {t.Input("a", {3})}), 2.3f));
  EXPECT_EQ(Normalized(&t), "POW(Elemwise1(a),imm(2.300000))");

  TestGraph t2;
  VarRef x = t2.Input("x", {3}), y = t2.Input("y", {3});
  t2.Output(t2.Elemwise(kTrueDiv, {x, y}));
  EXPECT_EQ(Normalized(&t2), "MUL(x,POW(y,imm(-1)))");
}

// Chains with nothing to normalize stay: x + y, a single coefficient, -x.
TEST(NormalizeArithChain, LeavesPlainChainsAlone) {
  TestGraph t;
  VarRef x = t.Input("x", {3}), y = t.Input("y", {3});
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kMul, {x, Scalar(&t, 2)}), y}));
  t.Output(t.Elemwise(kNegate, {x}));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, NormalizeArithChain, &report);
  EXPECT_FALSE(report.changed);
  EXPECT_EQ(out[0], "ADD(MUL(x,imm(2)),y)");
  EXPECT_EQ(out[1], "NEGATE(x)");
}

}  // namespace
}  // namespace graphport::mge::opt
