#include "tf/optimize/fuse_contractions.h"

#include <gtest/gtest.h>

#include <set>

#include "optimize_test_graphs.h"

namespace graphport::testing {
namespace {

tensorflow::GraphDef ConvBiasActivation(const std::string& activation) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {1, 1, 2, 2}, {1, 2, 3, 4});
  AddConst(&graph, "b", {2}, {0.5f, -0.5f});
  AddConv(&graph, "conv", "Conv2D", "x", "w");
  AddFloatOp(&graph, "bias", "BiasAdd", {"conv", "b"});
  AddFloatOp(&graph, "act", activation, {"bias"});
  AddFloatOp(&graph, "out", "Neg", {"act"});
  return graph;
}

TEST(FuseContractions, Conv2DBiasAddReluBecomesFusedConv2DNamedAsTheRelu) {
  tensorflow::GraphDef graph = ConvBiasActivation("Relu");
  EXPECT_EQ(tf::PlaceContractionsOnCpu(&graph), 1);
  tf::ContractionFusion fusion = tf::FuseContractions(&graph, {"out:0", "x:0"});
  EXPECT_EQ(fusion.conv2d, 1);
  EXPECT_EQ(fusion.activations, 1);
  EXPECT_EQ(NodeNames(graph), (std::vector<std::string>{"x", "w", "b", "act", "out"}));
  const tensorflow::NodeDef& fused = *Named(graph, "act");
  EXPECT_EQ(fused.op(), "_FusedConv2D");
  EXPECT_EQ(fused.device(), "/device:CPU:0");
  EXPECT_EQ(Inputs(fused), (std::vector<std::string>{"x", "w", "b"}));
  EXPECT_EQ(StringList(fused, "fused_ops"), (std::vector<std::string>{"BiasAdd", "Relu"}));
  EXPECT_EQ(fused.attr().at("num_args").i(), 1);
  EXPECT_EQ(fused.attr().at("epsilon").f(), 0.0f);
  EXPECT_EQ(fused.attr().at("T").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(fused.attr().at("padding").s(), "SAME");
  EXPECT_EQ(fused.attr().at("data_format").s(), "NHWC");
  EXPECT_EQ(fused.attr().at("strides").list().i_size(), 4);
  EXPECT_EQ(fused.attr().at("dilations").list().i_size(), 4);
  EXPECT_EQ(fused.attr().count("leakyrelu_alpha"), 0u);
  // The attrs of the converter's _FusedConv2D, OpDef defaults included (explicit_paddings and
  // use_cudnn_on_gpu were absent on the conv, as in a SavedModel with stripped defaults).
  std::set<std::string> keys;
  for (const auto& [key, value] : fused.attr()) keys.insert(key);
  EXPECT_EQ(keys, (std::set<std::string>{"T", "data_format", "dilations", "epsilon",
                                         "explicit_paddings", "fused_ops", "num_args", "padding",
                                         "strides", "use_cudnn_on_gpu"}));
  EXPECT_TRUE(fused.attr().at("use_cudnn_on_gpu").b());
  EXPECT_EQ(fused.attr().at("explicit_paddings").list().i_size(), 0);
}

TEST(FuseContractions, MatMulBiasAddLeakyReluCarriesItsAlpha) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {2, 2}, {1, 2, 3, 4});
  AddConst(&graph, "b", {2}, {0.5f, -0.5f});
  tensorflow::NodeDef& matmul = AddFloatOp(&graph, "matmul", "MatMul", {"x", "w"});
  (*matmul.mutable_attr())["transpose_b"].set_b(true);
  AddFloatOp(&graph, "bias", "BiasAdd", {"matmul", "b"});
  tensorflow::NodeDef& leaky = AddFloatOp(&graph, "leaky", "LeakyRelu", {"bias"});
  (*leaky.mutable_attr())["alpha"].set_f(0.3f);
  tf::PlaceContractionsOnCpu(&graph);
  tf::ContractionFusion fusion = tf::FuseContractions(&graph, {"leaky:0"});
  EXPECT_EQ(fusion.matmul, 1);
  const tensorflow::NodeDef& fused = *Named(graph, "leaky");
  EXPECT_EQ(fused.op(), "_FusedMatMul");
  EXPECT_EQ(StringList(fused, "fused_ops"), (std::vector<std::string>{"BiasAdd", "LeakyRelu"}));
  EXPECT_EQ(fused.attr().at("leakyrelu_alpha").f(), 0.3f);
  EXPECT_TRUE(fused.attr().at("transpose_b").b());
  EXPECT_EQ(Named(graph, "matmul"), nullptr);
  EXPECT_EQ(Named(graph, "bias"), nullptr);
}

TEST(FuseContractions, Conv1DFusesConvAndBiasAroundTheSqueeze) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {1, 1, 2, 2}, {1, 2, 3, 4});
  AddConst(&graph, "b", {2}, {0.5f, -0.5f});
  AddConv(&graph, "conv1d", "Conv2D", "x", "w");
  tensorflow::NodeDef& squeeze = AddFloatOp(&graph, "squeeze", "Squeeze", {"conv1d"});
  SetInts(&squeeze, "squeeze_dims", {-3});
  AddFloatOp(&graph, "bias", "BiasAdd", {"squeeze", "b"});
  AddFloatOp(&graph, "relu", "Relu", {"bias"});
  tf::PlaceContractionsOnCpu(&graph);
  tf::ContractionFusion fusion = tf::FuseContractions(&graph, {"relu:0"});
  EXPECT_EQ(fusion.conv1d, 1);
  EXPECT_EQ(NodeNames(graph), (std::vector<std::string>{"x", "w", "b", "conv1d", "bias", "relu"}));
  const tensorflow::NodeDef& fused = *Named(graph, "conv1d");
  EXPECT_EQ(fused.op(), "_FusedConv2D");
  EXPECT_EQ(StringList(fused, "fused_ops"), std::vector<std::string>{"BiasAdd"});
  EXPECT_EQ(Inputs(fused), (std::vector<std::string>{"x", "w", "b"}));
  EXPECT_EQ(Named(graph, "bias")->op(), "Squeeze");
  EXPECT_EQ(Inputs(*Named(graph, "bias")), std::vector<std::string>{"conv1d"});
  EXPECT_EQ(Named(graph, "relu")->op(), "Relu");
}

TEST(FuseContractions, AnOutputInsideThePatternEndsIt) {
  tensorflow::GraphDef graph = ConvBiasActivation("Relu6");
  tf::PlaceContractionsOnCpu(&graph);
  tf::FuseContractions(&graph, {"bias:0", "out:0"});
  EXPECT_EQ(Named(graph, "bias")->op(), "_FusedConv2D");
  EXPECT_EQ(StringList(*Named(graph, "bias"), "fused_ops"), std::vector<std::string>{"BiasAdd"});
  EXPECT_EQ(Named(graph, "act")->op(), "Relu6");
}

TEST(FuseContractions, WhatTheRemapperWouldNotFuseIsUnchanged) {
  for (const char* name : {"no_device", "tanh_only", "conv_output", "int"}) {
    std::string variant = name;
    tensorflow::GraphDef graph = ConvBiasActivation("Tanh");
    if (variant != "no_device") tf::PlaceContractionsOnCpu(&graph);
    if (variant == "int") {
      (*graph.mutable_node(3)->mutable_attr())["T"].set_type(tensorflow::DT_INT32);
    }
    std::vector<std::string> keep = {"out:0"};
    if (variant == "conv_output") keep.push_back("conv:0");
    if (variant == "tanh_only") {
      // Conv2D + BiasAdd still fuses, named as the BiasAdd; the Tanh stays apart.
      tf::FuseContractions(&graph, keep);
      EXPECT_EQ(Named(graph, "bias")->op(), "_FusedConv2D");
      EXPECT_EQ(Named(graph, "act")->op(), "Tanh");
      continue;
    }
    tensorflow::GraphDef before = graph;
    tf::ContractionFusion fusion = tf::FuseContractions(&graph, keep);
    EXPECT_EQ(fusion.conv2d + fusion.matmul + fusion.conv1d, 0) << variant;
    EXPECT_EQ(Bytes(graph), Bytes(before)) << variant;
  }
}

}  // namespace
}  // namespace graphport::testing
