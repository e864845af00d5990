#include "tf/optimize/normalize_bias_add.h"

#include <gtest/gtest.h>

#include "optimize_test_graphs.h"

namespace graphport::testing {
namespace {

TEST(NormalizeBiasAdd, AnAddOfA1DConstAfterAContractionBecomesBiasAdd) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {1, 1, 2, 2}, {1, 2, 3, 4});
  AddConv(&graph, "conv", "Conv2D", "x", "w");
  AddConst(&graph, "b", {2}, {0.5f, -0.5f});
  AddFloatOp(&graph, "add", "Add", {"conv", "b"});
  AddConst(&graph, "m", {2, 2}, {1, 0, 0, 1});
  AddFloatOp(&graph, "matmul", "MatMul", {"x", "m"});
  AddFloatOp(&graph, "add_v2", "AddV2", {"matmul", "b"});
  EXPECT_EQ(tf::NormalizeBiasAdd(&graph), 2);
  for (const char* name : {"add", "add_v2"}) {
    const tensorflow::NodeDef& node = *Named(graph, name);
    EXPECT_EQ(node.op(), "BiasAdd") << name;
    EXPECT_EQ(node.attr().at("data_format").s(), "NHWC") << name;
    EXPECT_EQ(node.attr().at("T").type(), tensorflow::DT_FLOAT) << name;
  }
  EXPECT_EQ(Inputs(*Named(graph, "add")), (std::vector<std::string>{"conv", "b"}));
}

TEST(NormalizeBiasAdd, OtherAddsAreLeftUnchanged) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {1, 1, 2, 2}, {1, 2, 3, 4});
  AddConv(&graph, "shared", "Conv2D", "x", "w");
  AddConst(&graph, "b", {2}, {0.5f, -0.5f});
  AddFloatOp(&graph, "add_shared", "Add", {"shared", "b"});  // the conv has two consumers
  AddFloatOp(&graph, "relu", "Relu", {"shared"});
  AddConv(&graph, "conv", "Conv2D", "x", "w");
  AddConst(&graph, "b4", {1, 1, 1, 2}, {0.5f, -0.5f});
  AddFloatOp(&graph, "add_4d", "AddV2", {"conv", "b4"});  // not a 1-D operand
  AddConv(&graph, "nchw", "Conv2D", "x", "w");
  (*graph.mutable_node(graph.node_size() - 1)->mutable_attr())["data_format"].set_s("NCHW");
  AddFloatOp(&graph, "add_nchw", "AddV2", {"nchw", "b"});
  AddFloatOp(&graph, "add_first", "AddV2", {"b", "relu"});  // input 0 is no contraction
  tensorflow::GraphDef before = graph;
  EXPECT_EQ(tf::NormalizeBiasAdd(&graph), 0);
  EXPECT_EQ(Bytes(graph), Bytes(before));
}

}  // namespace
}  // namespace graphport::testing
