// Constant folding and identity-transpose removal on small graphs built in code.
#include "tf/optimize/fold_constants.h"

#include <gtest/gtest.h>

#include "optimize_test_graphs.h"
#include "tf/optimize/remove_identity_transposes.h"

namespace graphport::tf {
namespace {

using testing::AddConst;
using testing::AddFloatOp;
using testing::AddNode;
using testing::FloatValues;
using testing::Named;
using testing::Ops;

tensorflow::NodeDef& AddInts(tensorflow::GraphDef* graph, const std::string& name,
                             const std::vector<int32_t>& values, bool scalar = false) {
  tensorflow::NodeDef& node = AddNode(graph, name, "Const");
  (*node.mutable_attr())["dtype"].set_type(tensorflow::DT_INT32);
  auto* tensor = (*node.mutable_attr())["value"].mutable_tensor();
  tensor->set_dtype(tensorflow::DT_INT32);
  if (!scalar) tensor->mutable_tensor_shape()->add_dim()->set_size(values.size());
  for (int32_t v : values) tensor->add_int_val(v);
  return node;
}

// conv1d as Keras writes it: the filter read through ExpandDims(w, 0); the ExpandDims becomes
// the Const under its own name, its device and control input kept.
TEST(FoldConstants, AConstChainFoldsInPlaceOntoItsLastNode) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddNode(&graph, "init", "NoOp");
  AddConst(&graph, "w", {2, 2}, {1, 2, 3, 4});
  AddInts(&graph, "dim", {0}, true);
  tensorflow::NodeDef& expand =
      AddFloatOp(&graph, "conv/ExpandDims_1", "ExpandDims", {"w", "dim", "^init"});
  expand.set_device("/device:CPU:0");
  AddInts(&graph, "perm", {1, 0, 2});
  AddFloatOp(&graph, "conv/transposed", "Transpose", {"conv/ExpandDims_1", "perm"});
  AddFloatOp(&graph, "y", "Conv2D", {"x", "conv/transposed"});

  ConstantFolding folding = FoldConstants(&graph, {"x", "y"});
  EXPECT_EQ(folding.folded, (std::map<std::string, int>{{"ExpandDims", 1}, {"Transpose", 1}}));
  const tensorflow::NodeDef* expanded = Named(graph, "conv/ExpandDims_1");
  ASSERT_NE(expanded, nullptr);
  EXPECT_EQ(expanded->op(), "Const");
  EXPECT_EQ(expanded->device(), "/device:CPU:0");
  EXPECT_EQ(testing::Inputs(*expanded), std::vector<std::string>{"^init"});
  const tensorflow::NodeDef* transposed = Named(graph, "conv/transposed");
  ASSERT_EQ(transposed->op(), "Const");
  const auto& shape = transposed->attr().at("value").tensor().tensor_shape();
  ASSERT_EQ(shape.dim_size(), 3);
  EXPECT_EQ(shape.dim(0).size(), 2);
  EXPECT_EQ(shape.dim(1).size(), 1);
  EXPECT_EQ(FloatValues(*transposed), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(transposed->attr().at("dtype").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(transposed->attr().size(), 2u);
  // Nothing is removed here: the Consts no longer read go with the next pruning.
  EXPECT_EQ(graph.node_size(), 8);
}

TEST(FoldConstants, InputsOutputsAndNodesOfNonConstsStay) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddInts(&graph, "dim", {0}, true);
  AddFloatOp(&graph, "of_x", "ExpandDims", {"x", "dim"});
  AddConst(&graph, "w", {2}, {1, 2});
  AddFloatOp(&graph, "y", "ExpandDims", {"w", "dim"});  // an output
  AddFloatOp(&graph, "z", "Mul", {"w", "w"});           // not an op it evaluates
  std::string before = testing::Bytes(graph);
  ConstantFolding folding = FoldConstants(&graph, {"x", "y", "z", "of_x"});
  EXPECT_TRUE(folding.folded.empty());
  EXPECT_EQ(testing::Bytes(graph), before);
}

TEST(FoldConstants, AValueThatWouldGrowPast100KiBIsNotMade) {
  tensorflow::GraphDef graph;
  AddConst(&graph, "w", {1}, {1.5f});
  AddInts(&graph, "shape", {1});
  // Pack of 30,000 reads of one float: 120,000 bytes made of 4 + 4 read.
  tensorflow::NodeDef& pack = AddNode(&graph, "big", "Pack");
  for (int i = 0; i < 30000; ++i) pack.add_input("w");
  AddFloatOp(&graph, "y", "Relu", {"big"});
  ConstantFolding folding = FoldConstants(&graph, {"y"});
  EXPECT_TRUE(folding.folded.empty());
  EXPECT_EQ(folding.too_large, 1);
  EXPECT_EQ(Named(graph, "big")->op(), "Pack");
}

// Keras's Dense on a 3-D input: Transpose(x, ConcatV2(free, axes, axis)) is the identity once
// the permutation folds, and goes; a real permutation stays.
TEST(RemoveIdentityTransposes, AFoldedIdentityPermutationGoes) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddNode(&graph, "ready", "NoOp");
  AddInts(&graph, "free", {0, 1});
  AddInts(&graph, "axes", {2});
  AddInts(&graph, "axis", {0}, true);
  AddNode(&graph, "concat", "ConcatV2", {"free", "axes", "axis"});
  AddFloatOp(&graph, "transpose", "Transpose", {"x", "concat", "^ready"});
  AddInts(&graph, "swap", {1, 0, 2});
  AddFloatOp(&graph, "swapped", "Transpose", {"transpose", "swap"});
  AddFloatOp(&graph, "y", "Relu", {"swapped"});
  FoldConstants(&graph, {"x", "y"});
  EXPECT_EQ(RemoveIdentityTransposes(&graph, {"x", "y"}), 1);
  EXPECT_EQ(Named(graph, "transpose"), nullptr);
  EXPECT_EQ(testing::Inputs(*Named(graph, "swapped")),
            (std::vector<std::string>{"x", "swap", "^ready"}));
  EXPECT_EQ(Ops(graph)["Transpose"], 1);
}

TEST(RemoveIdentityTransposes, AnOutputTransposeStays) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddInts(&graph, "perm", {0, 1});
  AddFloatOp(&graph, "y", "Transpose", {"x", "perm"});
  EXPECT_EQ(RemoveIdentityTransposes(&graph, {"x", "y"}), 0);
  EXPECT_EQ(graph.node_size(), 3);
}

}  // namespace
}  // namespace graphport::tf
