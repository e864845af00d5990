// FinalArithTransform on MegEngine's own test graphs (src/gopt/test/basic_arith.cpp,
// FinalArithTransform.*, which run NormalizeArithChain first; research
// megengine_optimize.md §5.1): the structure MegEngine expects, and the same outputs.
#include "mge/optimize/final_arith_transform/final_arith_transform.h"

#include <gtest/gtest.h>

#include "mge/optimize/normalize_arith_chain/normalize_arith_chain.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::Expr;
using testing::TestGraph;

VarRef Scalar(TestGraph* t, float v) { return t->Imm(HostValue::Floats({1}, {v})); }

// NormalizeArithChain then FinalArithTransform, as MegEngine's tests run them: the
// expression of each endpoint, with the numerics check.
std::vector<std::string> NormalizeThenFinal(TestGraph* t, PassReport* final_report = nullptr) {
  const Graph& before = t->Emit();
  RewrittenGraph storage;
  OptGraph g(before, &storage);
  NormalizeArithChain(&g);
  PassReport report = FinalArithTransform(&g);
  if (final_report != nullptr) *final_report = report;
  std::vector<std::string> out;
  for (const VarRef& v : g.endpoints()) out.push_back(Expr(g, v));
  testing::ExpectSameOutputs(before, g.Emit(), 1e-5);
  return out;
}

// x - y and x / y come back after NormalizeArithChain made them x + (-y) and x * pow(y, -1).
TEST(FinalArithTransform, DifferencesAndQuotientsComeBack) {
  TestGraph t;
  VarRef x = t.Input("x", {3}), y = t.Input("y", {3});
  t.Output(t.Elemwise(kSub, {x, y}));
  t.Output(t.Elemwise(kTrueDiv, {x, t.Elemwise(kAdd, {y, Scalar(&t, 3)})}));
  PassReport report;
  std::vector<std::string> out = NormalizeThenFinal(&t, &report);
  EXPECT_EQ(out[0], "SUB(x,y)");
  EXPECT_EQ(out[1], "TRUE_DIV(x,ADD(y,imm(3)))");
  EXPECT_TRUE(report.changed);
}

// (-x) + (-y) -> -(x + y).
TEST(FinalArithTransform, TwoNegationsMerge) {
  TestGraph t;
  VarRef x = t.Input("x", {3}), y = t.Input("y", {3});
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kNegate, {x}), t.Elemwise(kNegate, {y})}));
  EXPECT_EQ(NormalizeThenFinal(&t)[0], "NEGATE(ADD(x,y))");
}

// (1 / x) * PowC(y, -1) -> PowC(x * y, -1): the scalar 1 drops out as the product is made
// again; with a non-scalar numerator the two divisions stay divisions.
TEST(FinalArithTransform, TwoReciprocalsMerge) {
  TestGraph t;
  VarRef x = t.Elemwise(kAbs, {t.Input("x", {3})});
  VarRef y = t.Elemwise(kAbs, {t.Input("y", {3})});
  t.Output(t.Elemwise(kMul, {t.Elemwise(kTrueDiv, {Scalar(&t, 1), x}), t.PowC(y, -1)}));
  VarRef ones = t.Imm(HostValue::Floats({3}, {1, 1, 1}));
  t.Output(t.Elemwise(kMul, {t.Elemwise(kTrueDiv, {ones, x}), t.PowC(y, -1)}));
  std::vector<std::string> out = NormalizeThenFinal(&t);
  EXPECT_EQ(out[0], "PowC-1.000000(MUL(Elemwise1(x),Elemwise1(y)))");
  EXPECT_EQ(out[1], "TRUE_DIV(TRUE_DIV(imm(1,1,1),Elemwise1(x)),Elemwise1(y))");
}

// PowC(pow(2.3, x), -1) -> pow(2.3, -x); a constant exponent alone -> PowC.
TEST(FinalArithTransform, PowersOfPowers) {
  TestGraph t;
  VarRef x = t.Input("x", {3});
  t.Output(t.PowC(t.Elemwise(kPow, {Scalar(&t, 2.3f), x}), -1));
  t.Output(t.Elemwise(kPow, {t.Elemwise(kAbs, {x}), Scalar(&t, 1.5f)}));
  std::vector<std::string> out = NormalizeThenFinal(&t);
  EXPECT_EQ(out[0], "POW(imm(2.300000),NEGATE(x))");
  EXPECT_EQ(out[1], "PowC1.500000(Elemwise1(x))");
}

}  // namespace
}  // namespace graphport::mge::opt
