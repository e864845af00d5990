#include "tf/optimize/fuse_depthwise_conv2d.h"

#include <gtest/gtest.h>

#include "optimize_test_graphs.h"

namespace graphport::testing {
namespace {

tensorflow::GraphDef Depthwise(bool bias, const std::string& activation) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {1, 1, 2, 1}, {1, 2});
  AddConst(&graph, "b", {2}, {0.5f, -0.5f});
  AddConv(&graph, "dw", "DepthwiseConv2dNative", "x", "w");
  std::string last = "dw";
  if (bias) {
    AddFloatOp(&graph, "bias", "BiasAdd", {"dw", "b"});
    last = "bias";
  }
  if (!activation.empty()) {
    AddFloatOp(&graph, "act", activation, {last});
    last = "act";
  }
  AddFloatOp(&graph, "out", "Neg", {last});
  return graph;
}

TEST(FuseDepthwiseConv2d, BiasAndActivationJoinTheDepthwiseNode) {
  tensorflow::GraphDef graph = Depthwise(true, "Relu6");
  std::vector<std::string> outputs = {"out:0", "act:0"};
  EXPECT_EQ(tf::FuseDepthwiseConv2d(&graph, {"x:0"}, &outputs), 1);
  EXPECT_EQ(NodeNames(graph), (std::vector<std::string>{"x", "w", "b", "dw", "out"}));
  const tensorflow::NodeDef& fused = *Named(graph, "dw");
  EXPECT_EQ(fused.op(), "FusedDepthwiseConv2dNative");
  EXPECT_EQ(Inputs(fused), (std::vector<std::string>{"x", "w", "b"}));
  EXPECT_EQ(StringList(fused, "fused_ops"), (std::vector<std::string>{"BiasAdd", "Relu6"}));
  EXPECT_EQ(fused.attr().at("num_args").i(), 1);
  EXPECT_EQ(fused.attr().at("padding").s(), "SAME");
  EXPECT_EQ(fused.attr().count("epsilon"), 0u);
  EXPECT_EQ(Inputs(*Named(graph, "out")), std::vector<std::string>{"dw"});
  // The absorbed activation was an output: the output now names the fused node.
  EXPECT_EQ(outputs, (std::vector<std::string>{"out:0", "dw:0"}));
}

TEST(FuseDepthwiseConv2d, AnActivationWithoutBiasFusesWithNoOp) {
  tensorflow::GraphDef graph = Depthwise(false, "Relu");
  std::vector<std::string> outputs = {"out:0"};
  EXPECT_EQ(tf::FuseDepthwiseConv2d(&graph, {"x:0"}, &outputs), 1);
  const tensorflow::NodeDef& fused = *Named(graph, "dw");
  EXPECT_EQ(StringList(fused, "fused_ops"), (std::vector<std::string>{"NoOp", "Relu"}));
  EXPECT_EQ(fused.attr().at("num_args").i(), 0);
  EXPECT_EQ(Inputs(fused), (std::vector<std::string>{"x", "w"}));
  EXPECT_EQ(Named(graph, "act"), nullptr);
}

TEST(FuseDepthwiseConv2d, ADepthwiseReadElsewhereOrAloneIsUnchanged) {
  for (int variant = 0; variant < 3; ++variant) {
    tensorflow::GraphDef graph = Depthwise(variant != 2, variant == 2 ? "Tanh" : "Relu");
    if (variant == 0) AddFloatOp(&graph, "other", "Neg", {"dw"});
    std::vector<std::string> outputs = {"out:0"};
    if (variant == 1) outputs.push_back("dw:0");
    tensorflow::GraphDef before = graph;
    EXPECT_EQ(tf::FuseDepthwiseConv2d(&graph, {"x:0"}, &outputs), 0) << variant;
    EXPECT_EQ(Bytes(graph), Bytes(before)) << variant;
  }
}

}  // namespace
}  // namespace graphport::testing
