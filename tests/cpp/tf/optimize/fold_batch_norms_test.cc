#include "tf/optimize/fold_batch_norms.h"

#include <gtest/gtest.h>

#include <cmath>

#include "optimize_test_graphs.h"

namespace graphport::testing {
namespace {

// tfjs-converter's NumPy arithmetic (research: savedmodel_freeze.md §4.4), written out here on
// its own: var + eps in float32, scale in float64, offset in float64 stored as float32, each
// filter element times its channel's scale in float64, stored as float32.
struct Expected {
  std::vector<float> weights;
  std::vector<float> offset;
};

Expected Fold(const std::vector<float>& filter, int channels_last, const std::vector<float>& gamma,
              const std::vector<float>& beta, const std::vector<float>& mean,
              const std::vector<float>& var, float epsilon, const std::vector<float>& bias,
              bool use_gamma = true) {
  size_t channels = mean.size();
  std::vector<double> scale(channels);
  Expected expected;
  for (size_t c = 0; c < channels; ++c) {
    float shifted = var[c] + epsilon;
    scale[c] = 1.0 / std::sqrt(static_cast<double>(shifted));
    if (use_gamma) scale[c] = scale[c] * gamma[c];
    float centred = bias.empty() ? mean[c] : mean[c] - bias[c];
    expected.offset.push_back(
        static_cast<float>(-static_cast<double>(centred) * scale[c] + beta[c]));
  }
  for (size_t i = 0; i < filter.size(); ++i) {
    expected.weights.push_back(static_cast<float>(filter[i] * scale[i % channels_last]));
  }
  return expected;
}

tensorflow::NodeDef& AddBatchNorm(tensorflow::GraphDef* graph, const std::string& op,
                                  const std::string& x, float epsilon) {
  tensorflow::NodeDef& bn = AddFloatOp(graph, "bn", op, {x, "gamma", "beta", "mean", "var"});
  (*bn.mutable_attr())["U"].set_type(tensorflow::DT_FLOAT);
  (*bn.mutable_attr())["epsilon"].set_f(epsilon);
  (*bn.mutable_attr())["is_training"].set_b(false);
  return bn;
}

const std::vector<float> kGamma = {1.5f, 0.25f, -2.0f};
const std::vector<float> kBeta = {0.1f, -0.3f, 0.7f};
const std::vector<float> kMean = {0.2f, -1.1f, 3.3f};
const std::vector<float> kVar = {0.9f, 0.013f, 4.2f};
const std::vector<float> kFilter = {0.3f, -0.7f, 1.9f, 0.01f, -5.5f, 2.2f};  // [1,1,2,3]

void AddStatistics(tensorflow::GraphDef* graph, const std::vector<float>& gamma,
                   const std::vector<float>& beta, const std::vector<float>& mean,
                   const std::vector<float>& var) {
  int64_t c = static_cast<int64_t>(gamma.size());
  AddConst(graph, "gamma", {c}, gamma);
  AddConst(graph, "beta", {c}, beta);
  AddConst(graph, "mean", {c}, mean);
  AddConst(graph, "var", {c}, var);
}

TEST(FoldBatchNorms, Conv2DAndFusedBatchNormV3BecomeScaledWeightsAndABiasAdd) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "filter", {1, 1, 2, 3}, kFilter);
  AddConv(&graph, "conv", "Conv2D", "x", "filter");
  AddStatistics(&graph, kGamma, kBeta, kMean, kVar);
  AddBatchNorm(&graph, "FusedBatchNormV3", "conv", 0.001f);
  AddFloatOp(&graph, "relu", "Relu6", {"bn"});

  tf::BatchNormFolding folding = tf::FoldBatchNorms(&graph, {"relu:0", "x:0"});
  EXPECT_EQ(folding.folded, 1);
  EXPECT_TRUE(folding.skipped.empty());
  // The converter's four new nodes are appended; the batch norm and the old filter are gone.
  EXPECT_EQ(NodeNames(graph),
            (std::vector<std::string>{"x", "gamma", "beta", "mean", "var", "relu", "conv_weights",
                                      "conv", "conv_bn_offset", "bn"}));
  Expected expected = Fold(kFilter, 3, kGamma, kBeta, kMean, kVar, 0.001f, {});
  EXPECT_EQ(FloatValues(*Named(graph, "conv_weights")), expected.weights);
  EXPECT_EQ(FloatValues(*Named(graph, "conv_bn_offset")), expected.offset);
  EXPECT_EQ(Named(graph, "conv_weights")->attr().at("value").tensor().tensor_shape().dim_size(), 4);
  EXPECT_EQ(Inputs(*Named(graph, "conv")), (std::vector<std::string>{"x", "conv_weights"}));
  const tensorflow::NodeDef& bias_add = *Named(graph, "bn");
  EXPECT_EQ(bias_add.op(), "BiasAdd");
  EXPECT_EQ(Inputs(bias_add), (std::vector<std::string>{"conv", "conv_bn_offset"}));
  EXPECT_EQ(bias_add.attr().at("T").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(bias_add.attr().at("data_format").s(), "NHWC");
  EXPECT_EQ(bias_add.attr().size(), 2u);
}

TEST(FoldBatchNorms, DepthwiseThroughAConstBiasScalesChannelInTimesMultiplierPlusM) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  // [1,1,2,2]: 2 input channels, multiplier 2, so 4 output channels.
  std::vector<float> filter = {0.5f, -1.25f, 3.0f, 0.875f};
  AddConst(&graph, "filter", {1, 1, 2, 2}, filter);
  AddConv(&graph, "dw", "DepthwiseConv2dNative", "x", "filter");
  std::vector<float> bias = {0.3f, 0.6f, -0.9f, 1.2f};
  AddConst(&graph, "bias", {4}, bias);
  AddFloatOp(&graph, "add", "AddV2", {"bias", "dw"});  // the bias on the other side
  std::vector<float> gamma = {1.1f, 0.9f, -0.5f, 2.0f}, beta = {0.0f, 0.5f, -0.5f, 1.0f},
                     mean = {0.7f, -0.2f, 0.05f, 9.0f}, var = {1.0f, 2.0f, 0.5f, 0.001f};
  AddStatistics(&graph, gamma, beta, mean, var);
  AddBatchNorm(&graph, "FusedBatchNorm", "add", 0.0001f);

  tf::BatchNormFolding folding = tf::FoldBatchNorms(&graph, {"bn:0"});
  ASSERT_EQ(folding.folded, 1);
  EXPECT_EQ(Named(graph, "add"), nullptr);
  EXPECT_NE(Named(graph, "bias"), nullptr);  // the converter leaves it to the pruning
  Expected expected = Fold(filter, 4, gamma, beta, mean, var, 0.0001f, bias);
  EXPECT_EQ(FloatValues(*Named(graph, "dw_weights")), expected.weights);
  EXPECT_EQ(FloatValues(*Named(graph, "dw_bn_offset")), expected.offset);
  EXPECT_EQ(Named(graph, "dw")->op(), "DepthwiseConv2dNative");
}

TEST(FoldBatchNorms, GlobalNormalizationWithoutScaleAfterNormalizationIgnoresGamma) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "filter", {1, 1, 2, 3}, kFilter);
  AddConv(&graph, "conv", "Conv2D", "x", "filter");
  AddStatistics(&graph, kGamma, kBeta, kMean, kVar);
  tensorflow::NodeDef& bn = AddFloatOp(&graph, "bn", "BatchNormWithGlobalNormalization",
                                       {"conv", "mean", "var", "beta", "gamma"});
  (*bn.mutable_attr())["variance_epsilon"].set_f(0.01f);
  (*bn.mutable_attr())["scale_after_normalization"].set_b(false);

  ASSERT_EQ(tf::FoldBatchNorms(&graph, {"bn:0"}).folded, 1);
  Expected expected = Fold(kFilter, 3, kGamma, kBeta, kMean, kVar, 0.01f, {}, false);
  EXPECT_EQ(FloatValues(*Named(graph, "conv_weights")), expected.weights);
  EXPECT_EQ(FloatValues(*Named(graph, "conv_bn_offset")), expected.offset);
}

TEST(FoldBatchNorms, AStrippedEpsilonIsTheOpDefDefault) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "filter", {1, 1, 2, 3}, kFilter);
  AddConv(&graph, "conv", "Conv2D", "x", "filter");
  AddStatistics(&graph, kGamma, kBeta, kMean, kVar);
  AddBatchNorm(&graph, "FusedBatchNormV3", "conv", 0.5f).mutable_attr()->erase("epsilon");
  ASSERT_EQ(tf::FoldBatchNorms(&graph, {"bn:0"}).folded, 1);
  Expected expected = Fold(kFilter, 3, kGamma, kBeta, kMean, kVar, 0.0001f, {});
  EXPECT_EQ(FloatValues(*Named(graph, "conv_weights")), expected.weights);
  EXPECT_EQ(FloatValues(*Named(graph, "conv_bn_offset")), expected.offset);
}

TEST(FoldBatchNorms, WhatCannotFoldIsLeftUnchanged) {
  for (const char* name : {"filter_input", "v2", "shared_conv", "bad_shape"}) {
    std::string variant = name;
    tensorflow::GraphDef graph;
    AddNode(&graph, "x", "Placeholder");
    if (variant == "filter_input") {
      AddNode(&graph, "filter", "Placeholder");
    } else {
      AddConst(&graph, "filter", {1, 1, 2, 3}, kFilter);
    }
    AddConv(&graph, "conv", "Conv2D", "x", "filter");
    if (variant == "shared_conv") AddFloatOp(&graph, "other", "Relu", {"conv"});
    if (variant == "bad_shape") {
      AddStatistics(&graph, {1.0f, 2.0f}, {1.0f, 2.0f}, {1.0f, 2.0f}, {1.0f, 2.0f});
    } else {
      AddStatistics(&graph, kGamma, kBeta, kMean, kVar);
    }
    AddBatchNorm(&graph, variant == "v2" ? "FusedBatchNormV2" : "FusedBatchNormV3", "conv", 0.001f);
    tensorflow::GraphDef before = graph;
    tf::BatchNormFolding folding = tf::FoldBatchNorms(&graph, {"bn:0"});
    EXPECT_EQ(folding.folded, 0) << variant;
    EXPECT_EQ(Bytes(graph), Bytes(before)) << variant;
    // FusedBatchNormV2 is not a batch norm the converter folds: nothing to say about it.
    EXPECT_EQ(folding.skipped.size(), variant == "v2" ? 0u : 1u) << variant;
    if (!folding.skipped.empty()) {
      EXPECT_EQ(folding.skipped[0].rfind("bn: ", 0), 0u);
    }
  }
}

}  // namespace
}  // namespace graphport::testing
