// ArithMulDistribute on MegEngine's own test graphs (src/gopt/test/basic_arith.cpp,
// ArithMulDistribute.0; research megengine_optimize.md §5.1): the structure MegEngine
// expects (commutative inputs in var id order), and the same outputs.
#include "mge/optimize/arith_mul_distribute/arith_mul_distribute.h"

#include <gtest/gtest.h>

#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::TestGraph;

struct MulVars {
  explicit MulVars(TestGraph* t)
      : a(t->Input("a", {3, 3})),
        b(t->Input("b", {3, 1})),
        c(t->Input("c", {3, 3})),
        d(t->Input("d", {3, 1})),
        e(t->Input("e", {3, 1})) {}
  VarRef a, b, c, d, e;
};

// (a * b * c + d) * e -> a * (b * e) * c + d * e: e goes to the smallest factor of each term.
TEST(ArithMulDistribute, IntoEachTermsSmallestFactor) {
  TestGraph t;
  MulVars v(&t);
  VarRef abc = t.Elemwise(kMul, {t.Elemwise(kMul, {v.a, v.b}), v.c});
  t.Output(t.Elemwise(kMul, {t.Elemwise(kAdd, {abc, v.d}), v.e}, "out"));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, ArithMulDistribute, &report);
  EXPECT_EQ(out[0], "ADD(MUL(c,MUL(a,MUL(b,e))),MUL(d,e))");
  EXPECT_EQ(report.summary, "1 products distributed over sums");
}

// (a * b + c * d) * e -> a * (b * e) + c * (d * e).
TEST(ArithMulDistribute, TwoProducts) {
  TestGraph t;
  MulVars v(&t);
  VarRef sum = t.Elemwise(kAdd, {t.Elemwise(kMul, {v.a, v.b}), t.Elemwise(kMul, {v.c, v.d})});
  t.Output(t.Elemwise(kMul, {sum, v.e}));
  EXPECT_EQ(ApplyPass(&t, ArithMulDistribute)[0], "ADD(MUL(a,MUL(b,e)),MUL(c,MUL(d,e)))");
}

// A term with no factor smaller than the sum keeps the product as it is.
TEST(ArithMulDistribute, NeedsASmallerFactorInEveryTerm) {
  TestGraph t;
  MulVars v(&t);
  t.Output(t.Elemwise(kMul, {t.Elemwise(kAdd, {v.a, v.c}), v.e}));
  PassReport report;
  EXPECT_EQ(ApplyPass(&t, ArithMulDistribute, &report)[0], "MUL(ADD(a,c),e)");
  EXPECT_FALSE(report.changed);
}

}  // namespace
}  // namespace graphport::mge::opt
