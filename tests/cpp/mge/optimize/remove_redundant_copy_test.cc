// RemoveRedundantCopy on MegEngine's own test graphs (src/gopt/test/misc.cpp,
// RemoveRedundantCopyPass.Basic; research megengine_optimize.md §5.5).
#include "mge/optimize/remove_redundant_copy/remove_redundant_copy.h"

#include <gtest/gtest.h>

#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::TestGraph;

// cpu0 -> cpu1 -> cpu0 is x itself (the input lives on cpu0:0).
TEST(RemoveRedundantCopy, BackToTheSameCompNode) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3});
  t.Output(t.Copy(t.Copy(x, "cpu1:0"), "cpu0:0"));
  PassReport report;
  EXPECT_EQ(ApplyPass(&t, RemoveRedundantCopy, &report)[0], "x");
  EXPECT_EQ(report.summary, "1 Copy of a Copy removed");
}

// A chain of copies is one Copy to the last comp node.
TEST(RemoveRedundantCopy, ChainsBecomeOneCopy) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3});
  t.Output(t.Copy(t.Copy(t.Copy(x, "cpu1:0"), "cpu2:0"), "gpu0:0"));
  const Graph& before = t.Emit();
  RewrittenGraph storage;
  OptGraph g(before, &storage);
  EXPECT_TRUE(RemoveRedundantCopy(&g).changed);
  const VarRef top = g.endpoints()[0];
  EXPECT_EQ(testing::Expr(g, top), "Copy(x)");
  EXPECT_EQ(g.LocatorOf(top), "gpu0:0");
  testing::ExpectSameOutputs(before, g.Emit());
}

// Two GPUs do not share memory: a value computed on gpu0, copied to gpu1 then gpu2, keeps
// both copies (a value on the CPU would go to gpu2 directly).
TEST(RemoveRedundantCopy, KeepsCopiesBetweenGpus) {
  TestGraph t;
  VarRef x = t.Input("x", {2});
  VarRef on_gpu0 = t.Elemwise(kRelu, {t.Copy(x, "gpu0:0")});
  t.Output(t.Copy(t.Copy(on_gpu0, "gpu1:0"), "gpu2:0"));
  PassReport report;
  EXPECT_EQ(ApplyPass(&t, RemoveRedundantCopy, &report)[0], "Copy(Copy(RELU(Copy(x))))");
  EXPECT_FALSE(report.changed);
}

}  // namespace
}  // namespace graphport::mge::opt
