// How the pass graph holds its nodes (opt_graph.h, var_list.h, var_shape.h): inputs and the
// first output in the node, more on the heap, a var's shape shared with the graph's one copy
// of it, and the vars numbered in node order as nodes are added.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "mge/optimize/schema_numbers.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::TestGraph;

TEST(VarList, HoldsThreeInPlaceAndMoreOnTheHeap) {
  const std::vector<VarRef> five = {{1, 0}, {2, 0}, {3, 1}, {4, 0}, {5, 2}};
  VarList in = {five[0], five[1], five[2]};
  EXPECT_EQ(in.size(), 3u);
  in.push_back(five[3]);  // grows onto the heap, keeping the three
  in.push_back(five[4]);
  EXPECT_EQ(in, VarList(five));
  EXPECT_EQ(in.ToVector(), five);
  EXPECT_EQ(std::vector<VarRef>(in.rbegin(), in.rend()),
            (std::vector<VarRef>{five[4], five[3], five[2], five[1], five[0]}));

  VarList copy = in;
  VarList moved = std::move(in);
  EXPECT_EQ(moved, copy);
  EXPECT_TRUE(in.empty());  // NOLINT: a moved-from list is empty and usable
  in = {five[2]};
  EXPECT_EQ(in, (VarList{five[2]}));

  VarList small = {five[0], five[1]};
  VarList taken = std::move(small);  // in place: the values are copied over
  EXPECT_EQ(taken, (VarList{five[0], five[1]}));
  EXPECT_NE(taken, copy);
}

TEST(OutputList, KeepsVarsAsItGrowsAndAMovedFromListIsEmpty) {
  OutputList outputs;
  outputs.resize(1);
  outputs[0].dtype = kF16;
  for (int k = 1; k < 4; ++k) {
    OptVar v;
    v.dtype = kI32;
    outputs.push_back(std::move(v));
  }
  ASSERT_EQ(outputs.size(), 4u);
  EXPECT_EQ(outputs[0].dtype, kF16);
  EXPECT_EQ(outputs.back().dtype, kI32);

  OutputList one;
  one.resize(1);
  one[0].dtype = kF16;
  OutputList taken = std::move(one);
  EXPECT_EQ(taken[0].dtype, kF16);
  EXPECT_TRUE(one.empty());  // NOLINT: moved from
  one.resize(1);             // a fresh var, not the moved one's leftovers
  EXPECT_FALSE(one[0].dtype.has_value());
}

TEST(OptGraph, SharesEachDistinctShapeOnce) {
  TestGraph t;
  VarRef a = t.Input("a", {2, 3});
  VarRef b = t.Input("b", {2, 3});
  VarRef row = t.Input("row", {1, 3});
  const OptGraph& g = t.g();
  // Inputs of one shape: the sum's shape is theirs, the same copy.
  VarRef sum = t.Elemwise(kAdd, {a, b});
  EXPECT_EQ(&*g.var(sum).shape, &*g.var(a).shape);
  EXPECT_EQ(&*g.var(a).shape, &*g.var(b).shape);
  // Broadcast to a shape the graph has: its copy again, not a new one.
  VarRef wide = t.Elemwise(kMul, {row, a});
  EXPECT_EQ(*g.var(wide).shape, (Shape{2, 3}));
  EXPECT_EQ(&*g.var(wide).shape, &*g.var(a).shape);
  EXPECT_NE(g.var(row).shape, g.var(a).shape);
  // A shape that cannot be told compares equal to nullopt.
  EXPECT_EQ(VarShape(), std::optional<Shape>());
  EXPECT_FALSE(VarShape());
}

TEST(OptGraph, NumbersVarsInNodeOrder) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 4});
  VarRef bn = t.BatchNorm(
      {x, t.Input("p", {1, 4}), t.Input("q", {1, 4}), t.Input("m", {1, 4}), t.Input("v", {1, 4})},
      1e-5, true);
  VarRef after = t.Elemwise(kRelu, {bn});
  const OptGraph& g = t.g();
  uint32_t expected = 0;
  for (uint32_t node = 0; node < g.size(); ++node) {
    for (uint32_t k = 0; k < g.node(node).outputs.size(); ++k) {
      EXPECT_EQ(g.VarIndex({node, k}), expected++);
    }
  }
  EXPECT_EQ(g.var_count(), expected);
  EXPECT_GT(g.node(bn.node).outputs.size(), 1u);  // a node with several outputs among them
  EXPECT_EQ(g.VarIndex(after) + 1, g.var_count());
}

}  // namespace
}  // namespace graphport::mge::opt
