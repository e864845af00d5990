#include "tf/optimize/fuse_prelu.h"

#include <gtest/gtest.h>

#include "optimize_test_graphs.h"

namespace graphport::testing {
namespace {

// Keras's PReLU: Relu(x) + (-alpha) * Relu(-x).
tensorflow::GraphDef KerasPrelu() {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddFloatOp(&graph, "p_re_lu/Relu", "Relu", {"x"});
  AddConst(&graph, "p_re_lu/Neg", {2}, {-0.25f, 0.5f});  // the negated alpha
  AddFloatOp(&graph, "p_re_lu/Neg_1", "Neg", {"x"});
  AddFloatOp(&graph, "p_re_lu/Relu_1", "Relu", {"p_re_lu/Neg_1"});
  AddFloatOp(&graph, "p_re_lu/mul", "Mul", {"p_re_lu/Neg", "p_re_lu/Relu_1"});
  AddFloatOp(&graph, "p_re_lu/add", "AddV2", {"p_re_lu/Relu", "p_re_lu/mul"});
  AddFloatOp(&graph, "out", "Neg", {"p_re_lu/add"});
  return graph;
}

TEST(FuseOpsForPrelu, KerasPreluBecomesPreluNamedAsItsFirstRelu) {
  tensorflow::GraphDef graph = KerasPrelu();
  std::vector<std::string> outputs = {"out:0", "p_re_lu/add:0"};
  EXPECT_EQ(tf::FuseOpsForPrelu(&graph, {"x:0"}, &outputs), 1);
  EXPECT_EQ(NodeNames(graph),
            (std::vector<std::string>{"x", "p_re_lu/Relu", "p_re_lu/Neg", "out"}));
  const tensorflow::NodeDef& prelu = *Named(graph, "p_re_lu/Relu");
  EXPECT_EQ(prelu.op(), "Prelu");
  EXPECT_EQ(prelu.attr().size(), 0u);
  EXPECT_EQ(Inputs(prelu), (std::vector<std::string>{"x", "p_re_lu/Neg"}));
  // The Const now holds +alpha.
  EXPECT_EQ(FloatValues(*Named(graph, "p_re_lu/Neg")), (std::vector<float>{0.25f, -0.5f}));
  EXPECT_EQ(Inputs(*Named(graph, "out")), std::vector<std::string>{"p_re_lu/Relu"});
  EXPECT_EQ(outputs, (std::vector<std::string>{"out:0", "p_re_lu/Relu:0"}));
}

TEST(FuseOpsForPrelu, OtherSumsOfRelusAreUnchanged) {
  for (int variant = 0; variant < 3; ++variant) {
    tensorflow::GraphDef graph = KerasPrelu();
    if (variant == 0) graph.mutable_node(3)->set_input(0, "p_re_lu/Relu");  // Neg of other
    if (variant == 1) AddFloatOp(&graph, "also", "Neg", {"p_re_lu/Neg"});   // alpha shared
    if (variant == 2) graph.mutable_node(6)->set_op("Sub");
    std::vector<std::string> outputs = {"out:0"};
    tensorflow::GraphDef before = graph;
    EXPECT_EQ(tf::FuseOpsForPrelu(&graph, {"x:0"}, &outputs), 0) << variant;
    EXPECT_EQ(Bytes(graph), Bytes(before)) << variant;
  }
}

TEST(FusePreluIntoContraction, APreluAfterAFusedConvJoinsItsFusedOps) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {1, 1, 2, 2}, {1, 2, 3, 4});
  AddConst(&graph, "b", {2}, {0.5f, -0.5f});
  AddConst(&graph, "alpha", {2}, {0.1f, 0.2f});
  tensorflow::NodeDef& fused = AddConv(&graph, "conv", "_FusedConv2D", "x", "w");
  fused.add_input("b");
  (*fused.mutable_attr())["fused_ops"].mutable_list()->add_s("BiasAdd");
  (*fused.mutable_attr())["num_args"].set_i(1);
  AddNode(&graph, "prelu", "Prelu", {"conv", "alpha"});
  std::vector<std::string> outputs = {"prelu:0"};
  EXPECT_EQ(tf::FusePreluIntoContraction(&graph, {"x:0"}, &outputs), 1);
  EXPECT_EQ(Named(graph, "prelu"), nullptr);
  const tensorflow::NodeDef& conv = *Named(graph, "conv");
  EXPECT_EQ(Inputs(conv), (std::vector<std::string>{"x", "w", "b", "alpha"}));
  EXPECT_EQ(StringList(conv, "fused_ops"), (std::vector<std::string>{"BiasAdd", "Prelu"}));
  EXPECT_EQ(conv.attr().at("num_args").i(), 2);
  EXPECT_EQ(outputs, std::vector<std::string>{"conv:0"});

  // A second Prelu cannot join: the fused node already has its activation.
  AddNode(&graph, "prelu2", "Prelu", {"conv", "alpha"});
  tensorflow::GraphDef before = graph;
  EXPECT_EQ(tf::FusePreluIntoContraction(&graph, {"x:0"}, &outputs), 0);
  EXPECT_EQ(Bytes(graph), Bytes(before));
}

}  // namespace
}  // namespace graphport::testing
