// RemoveRedundantTypeCvt on MegEngine's own test graphs (src/gopt/test/misc.cpp,
// RemoveRedundantTypeCvtPass.Basic; research megengine_optimize.md §5.5).
#include "mge/optimize/remove_redundant_typecvt/remove_redundant_typecvt.h"

#include <gtest/gtest.h>

#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::Expr;
using testing::TestGraph;

// f32 -> f16 -> f32 -> f16 is f32 -> f16: the first conversion itself, no new operator;
// the f32 -> f16 -> f32 below it must stay (half loses what float keeps).
TEST(RemoveRedundantTypeCvt, FloatRoundTrip) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 3});
  VarRef half = t.TypeCvt(x, kF16);
  VarRef back = t.TypeCvt(half, kF32);
  t.Output(t.TypeCvt(back, kF16));
  t.Output(back);
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, RemoveRedundantTypeCvt, &report);
  EXPECT_EQ(out[0], "TypeCvt9(x)");
  EXPECT_EQ(out[1], "TypeCvt0(TypeCvt9(x))");
  EXPECT_EQ(report.summary, "1 TypeCvt folded into the next");
}

// f32 -> i32 -> i16 -> i8 is f32 -> i8. (No numerics check: the evaluator does not emulate
// MegEngine's float to integer rounding.)
TEST(RemoveRedundantTypeCvt, NarrowingIntegers) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 3});
  t.Output(t.TypeCvt(t.TypeCvt(t.TypeCvt(x, kI32), kI16), kI8));
  const Graph& before = t.Emit();
  RewrittenGraph storage;
  OptGraph g(before, &storage);
  EXPECT_TRUE(RemoveRedundantTypeCvt(&g).changed);
  EXPECT_EQ(Expr(g, g.endpoints()[0]), "TypeCvt2(x)");
}

// f32 -> f16 -> f32 -> f32: the f32 over the f16 stays, the second f32 is made again on the
// half value (an f32 over an f32 loses nothing).
TEST(RemoveRedundantTypeCvt, FoldsARepeatedConversion) {
  TestGraph t;
  VarRef x = t.Input("x", {4});
  t.Output(t.TypeCvt(t.TypeCvt(t.TypeCvt(x, kF16), kF32), kF32));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, RemoveRedundantTypeCvt, &report);
  EXPECT_EQ(out[0], "TypeCvt0(TypeCvt9(x))");
  EXPECT_TRUE(report.changed);
}

}  // namespace
}  // namespace graphport::mge::opt
