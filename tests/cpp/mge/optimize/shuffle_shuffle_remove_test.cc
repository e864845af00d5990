// ShuffleShuffleRemove: a relayout NCHW -> NCHWc4 followed by its inverse cancels (the reader
// gets the NCHW var back); a single relayout is made again as it was, and the graph computes
// what it computed.
#include "mge/optimize/shuffle_shuffle_remove/shuffle_shuffle_remove.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mge/optimize/relayout/reformat.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::TestGraph;

TEST(ShuffleShuffleRemove, APackAndItsInverseCancel) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 8, 5, 5});
  OprMaker m(&t.g());
  const VarRef packed = EmitReformat(&m, x, Reformat::kToPacked, 4);
  const VarRef back = EmitReformat(&m, packed, Reformat::kToNchw, 4);
  t.Output(t.Elemwise(kRelu, {back}, "y"));
  PassReport report;
  EXPECT_EQ(ApplyPass(&t, ShuffleShuffleRemove, &report), (std::vector<std::string>{"RELU(x)"}));
  EXPECT_TRUE(report.changed);
}

TEST(ShuffleShuffleRemove, ASingleRelayoutStaysAsItWas) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 8, 5, 5});
  OprMaker m(&t.g());
  t.Output(t.Elemwise(kRelu, {EmitReformat(&m, x, Reformat::kToPacked, 4)}, "y"));
  const Graph& before = t.Emit();
  const size_t operators = before.oprs.size();
  RewrittenGraph out;
  OptGraph g(before, &out);
  EXPECT_FALSE(ShuffleShuffleRemove(&g).changed);
  const Graph& after = g.Emit();
  EXPECT_EQ(after.oprs.size(), operators);
  testing::ExpectSameOutputs(before, after);
}

}  // namespace
}  // namespace graphport::mge::opt
