#include "tf/optimize/optimize_for_tfjs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "core/error.h"
#include "optimize_test_graphs.h"
#include "test_util.h"
#include "tf/freeze/freeze.h"
#include "tf/freeze/freeze_test_util.h"

namespace graphport::testing {
namespace {

// Checkpoint values by key, and the object graph TF2 SavedModels keep in the Const "Const".
class ScalarStore : public tf::VariableStore {
 public:
  std::map<std::string, float> scalars;
  std::string object_graph;
  bool Has(const std::string& key) override { return scalars.count(key) != 0; }
  void Read(const std::string& key, tensorflow::TensorProto* out) override {
    out->set_dtype(tensorflow::DT_FLOAT);
    out->mutable_tensor_shape();
    float v = scalars.at(key);
    out->set_tensor_content(std::string(reinterpret_cast<const char*>(&v), sizeof v));
  }
  bool ReadObjectGraph(tensorflow::TrackableObjectGraph* out) override {
    return out->ParseFromString(object_graph);
  }
  std::string label() const override { return "test store"; }
};

// Any key holds 1.0f: the structure of a freeze does not depend on the values.
class OnesStore : public tf::VariableStore {
 public:
  std::string object_graph;
  bool Has(const std::string&) override { return true; }
  void Read(const std::string&, tensorflow::TensorProto* out) override {
    out->set_dtype(tensorflow::DT_FLOAT);
    out->mutable_tensor_shape();
    out->add_float_val(1.0f);
  }
  bool ReadObjectGraph(tensorflow::TrackableObjectGraph* out) override {
    return out->ParseFromString(object_graph);
  }
  std::string label() const override { return "ones"; }
};

// research: savedmodel_freeze.md §7, the expected TF.js output for serving_default.
TEST(OptimizeForTfjs, HalfPlusTwoKeepsOnlyTheMathAndNamesItsWeightsAsTheConverterDoes) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf2);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  ScalarStore store;
  store.scalars = {{"a/.ATTRIBUTES/VARIABLE_VALUE", 0.5f}, {"b/.ATTRIBUTES/VARIABLE_VALUE", 2.0f}};
  store.object_graph =
      NodeNamed(meta.graph_def(), "Const")->attr().at("value").tensor().string_val(0);
  tensorflow::MetaGraphDef frozen;
  tf::Freeze(meta, meta.graph_def(), &store, {}, &frozen);
  tensorflow::GraphDef graph = frozen.graph_def();
  ASSERT_GT(graph.node_size(), 10);

  std::vector<std::string> outputs = {"Identity:0"};
  nlohmann::json report = tf::OptimizeForTfjs(&graph, {"x:0"}, &outputs);
  EXPECT_EQ(outputs, std::vector<std::string>{"Identity:0"});
  EXPECT_EQ(Ops(graph),
            (std::map<std::string, int>{
                {"AddV2", 1}, {"Const", 2}, {"Identity", 1}, {"Mul", 1}, {"Placeholder", 1}}));
  const tensorflow::NodeDef* a = Named(graph, "StatefulPartitionedCall/Mul/ReadVariableOp");
  const tensorflow::NodeDef* b = Named(graph, "StatefulPartitionedCall/Add/ReadVariableOp");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->op(), "Const");
  EXPECT_EQ(FloatValues(*a), std::vector<float>{0.5f});
  EXPECT_EQ(FloatValues(*b), std::vector<float>{2.0f});
  for (const auto& node : graph.node()) {
    for (const auto& input : node.input()) EXPECT_NE(input[0], '^') << node.name();
  }
  EXPECT_EQ(report["removeIdentities"]["identitiesFoldedIntoConsts"], 4);
  EXPECT_EQ(report["nodesAfter"], 6);
}

// A conv net block as Keras exports it, after the freeze: weights behind Identity chains,
// Conv2D + FusedBatchNormV3 + Relu6, then a depthwise conv + BiasAdd + Relu, then a Dense.
TEST(OptimizeForTfjs, AConvBlockBecomesTheConvertersFusedOps) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "input", "Placeholder");
  std::vector<float> filter = {0.5f, -0.25f, 1.5f, 2.0f};  // [1,1,2,2]
  AddConst(&graph, "unknown", {1, 1, 2, 2}, filter);
  AddFloatOp(&graph, "conv/Conv2D/ReadVariableOp", "Identity", {"unknown"});
  AddConv(&graph, "conv/Conv2D", "Conv2D", "input", "conv/Conv2D/ReadVariableOp");
  std::vector<float> gamma = {1.25f, 0.5f}, beta = {0.1f, -0.2f}, mean = {0.3f, 0.7f},
                     var = {2.0f, 0.5f};
  AddConst(&graph, "bn/gamma", {2}, gamma);
  AddConst(&graph, "bn/beta", {2}, beta);
  AddConst(&graph, "bn/mean", {2}, mean);
  AddConst(&graph, "bn/var", {2}, var);
  tensorflow::NodeDef& bn = AddFloatOp(&graph, "bn/FusedBatchNormV3", "FusedBatchNormV3",
                                       {"conv/Conv2D", "bn/gamma", "bn/beta", "bn/mean", "bn/var"});
  (*bn.mutable_attr())["epsilon"].set_f(0.001f);
  AddFloatOp(&graph, "bn/Relu6", "Relu6", {"bn/FusedBatchNormV3"});
  AddConst(&graph, "dw/filter", {1, 1, 2, 1}, {1.0f, -1.0f});
  AddConv(&graph, "dw/depthwise", "DepthwiseConv2dNative", "bn/Relu6", "dw/filter");
  AddConst(&graph, "dw/bias", {2}, {0.5f, 0.25f});
  AddFloatOp(&graph, "dw/BiasAdd", "BiasAdd", {"dw/depthwise", "dw/bias"});
  AddFloatOp(&graph, "dw/Relu", "Relu", {"dw/BiasAdd"});
  AddConst(&graph, "dense/kernel", {2, 2}, {1, 0, 0, 1});
  AddFloatOp(&graph, "dense/MatMul", "MatMul", {"dw/Relu", "dense/kernel"});
  AddConst(&graph, "dense/bias", {2}, {0.0f, 1.0f});
  AddFloatOp(&graph, "dense/Add", "AddV2", {"dense/MatMul", "dense/bias"});
  AddFloatOp(&graph, "Identity", "Identity", {"dense/Add"});

  std::vector<std::string> outputs = {"Identity:0"};
  nlohmann::json report = tf::OptimizeForTfjs(&graph, {"input:0"}, &outputs);
  EXPECT_EQ(Ops(graph), (std::map<std::string, int>{{"Const", 6},
                                                    {"FusedDepthwiseConv2dNative", 1},
                                                    {"Identity", 1},
                                                    {"Placeholder", 1},
                                                    {"_FusedConv2D", 1},
                                                    {"_FusedMatMul", 1}}));
  const tensorflow::NodeDef& conv = *Named(graph, "bn/Relu6");
  EXPECT_EQ(conv.op(), "_FusedConv2D");
  EXPECT_EQ(Inputs(conv),
            (std::vector<std::string>{"input", "conv/Conv2D_weights", "conv/Conv2D_bn_offset"}));
  EXPECT_EQ(StringList(conv, "fused_ops"), (std::vector<std::string>{"BiasAdd", "Relu6"}));
  // The folded weights carry the formula's values (the batch-norm test checks each detail).
  std::vector<float> weights = FloatValues(*Named(graph, "conv/Conv2D_weights"));
  ASSERT_EQ(weights.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    double scale = 1.0 / std::sqrt(static_cast<double>(var[i % 2] + 0.001f)) * gamma[i % 2];
    EXPECT_EQ(weights[i], static_cast<float>(filter[i] * scale)) << i;
  }
  const tensorflow::NodeDef& depthwise = *Named(graph, "dw/depthwise");
  EXPECT_EQ(depthwise.op(), "FusedDepthwiseConv2dNative");
  EXPECT_EQ(Inputs(depthwise), (std::vector<std::string>{"bn/Relu6", "dw/filter", "dw/bias"}));
  const tensorflow::NodeDef& dense = *Named(graph, "dense/Add");
  EXPECT_EQ(dense.op(), "_FusedMatMul");
  EXPECT_EQ(Inputs(dense),
            (std::vector<std::string>{"dw/depthwise", "dense/kernel", "dense/bias"}));
  EXPECT_EQ(Inputs(*Named(graph, "Identity")), std::vector<std::string>{"dense/Add"});
  EXPECT_EQ(outputs, std::vector<std::string>{"Identity:0"});
  EXPECT_EQ(report["foldBatchNorms"]["folded"], 1);
  EXPECT_EQ(report["normalizeBiasAdd"]["rewritten"], 1);
  EXPECT_EQ(report["remap"]["fusedConv2D"], 1);
  EXPECT_EQ(report["remap"]["fusedMatMul"], 1);
  EXPECT_EQ(report["fuseDepthwiseConv2d"]["fused"], 1);
}

// The TF.js model tensorflowjs_converter made of korean_spacing_conv1d (../shared/savedmodels):
// the same ops and node names, but for the weight names of that old converter.
TEST(OptimizeForTfjs, KoreanSpacingHasTheReferenceConversionsOpsAndNames) {
  std::filesystem::path dir = SavedModelsDir() / "korean_spacing_conv1d";
  tensorflow::SavedModel model = ReadSavedModel(dir / "saved_model");
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  OnesStore store;
  // The object graph the SavedModel's save function writes, in its Const "Const".
  const tensorflow::NodeDef* saved_graph = NodeNamed(meta.graph_def(), "Const");
  ASSERT_NE(saved_graph, nullptr);
  store.object_graph = saved_graph->attr().at("value").tensor().string_val(0);
  tensorflow::OpList ops;
  ASSERT_TRUE(ParseTextReference(ReadCorpus("tf/ops.pbtxt"), &ops));
  tf::FreezeOptions options;
  options.op_registry = &ops;
  tensorflow::MetaGraphDef frozen;
  tf::Freeze(meta, meta.graph_def(), &store, options, &frozen);
  tensorflow::GraphDef graph = frozen.graph_def();
  const tensorflow::SignatureDef& signature = frozen.signature_def().at("serving_default");
  std::vector<std::string> outputs = {signature.outputs().begin()->second.name()};
  nlohmann::json report =
      tf::OptimizeForTfjs(&graph, {signature.inputs().begin()->second.name()}, &outputs);
  EXPECT_EQ(outputs, std::vector<std::string>{"Identity:0"});
  EXPECT_EQ(report["remap"]["fusedConv1D"], 9);

  nlohmann::json reference = nlohmann::json::parse(ReadFile(dir / "tfjs_reference/model.json"));
  std::map<std::string, int> expected;
  std::map<std::string, const nlohmann::json*> reference_nodes;
  for (const auto& node : reference["modelTopology"]["node"]) {
    ++expected[node["op"].get<std::string>()];
    reference_nodes[node["name"].get<std::string>()] = &node;
  }
  // Constant folding turns each conv's ExpandDims of its weights into a Const (9) and folds
  // the two Tensordot permutations (ConcatV2), whose identity Transposes then go.
  EXPECT_EQ(Ops(graph), expected);
  EXPECT_EQ(report["constfold"]["folded"]["ExpandDims"], 9);
  EXPECT_EQ(report["constfold"]["folded"]["ConcatV2"], 2);
  EXPECT_EQ(report["arithmetic"]["identityTransposesRemoved"], 2);

  std::map<std::string, const tensorflow::NodeDef*> ours;
  for (const auto& node : graph.node()) ours[node.name()] = &node;
  int fused = 0;
  for (const auto& [name, node] : reference_nodes) {
    std::string op = (*node)["op"];
    if (op == "Const") {
      // A folded value carries the name of the node it replaced, as the converter's does
      // (the captured weights keep the older converter's names, unknown_N).
      if (name.find("ExpandDims_1") != std::string::npos) {
        ASSERT_EQ(ours.count(name), 1u) << name;
        EXPECT_EQ(ours[name]->op(), "Const") << name;
      }
      continue;
    }
    ASSERT_EQ(ours.count(name), 1u) << name;
    EXPECT_EQ(ours[name]->op(), op) << name;
    if (op != "_FusedConv2D") continue;
    ++fused;
    std::set<std::string> attrs, reference_attrs;
    for (const auto& [key, value] : ours[name]->attr()) attrs.insert(key);
    for (const auto& [key, value] : (*node)["attr"].items()) reference_attrs.insert(key);
    EXPECT_EQ(attrs, reference_attrs) << name;
    EXPECT_EQ(ours[name]->input_size(), 3) << name;
    EXPECT_EQ(ours[name]->device(), (*node)["device"]) << name;
  }
  EXPECT_EQ(fused, 9);
}

TEST(OptimizeForTfjs, AGraphWithNothingToOptimizeIsUnchanged) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {2}, {1.0f, 2.0f});
  AddFloatOp(&graph, "y", "Mul", {"x", "w"});
  AddFloatOp(&graph, "z", "Tanh", {"y"});
  tensorflow::GraphDef before = graph;
  std::vector<std::string> outputs = {"z:0"};
  tf::OptimizeForTfjs(&graph, {"x:0"}, &outputs);
  EXPECT_EQ(Bytes(graph), Bytes(before));
  EXPECT_EQ(outputs, std::vector<std::string>{"z:0"});
}

// Seeded random graphs of the ops the passes look at, with control edges, later and missing
// inputs, cycles and Consts of any shape or none: the passes end with a graphport Error or a
// graph whose inputs and outputs exist and whose edges name only nodes it has (or names that
// were already missing).
TEST(OptimizeForTfjs, RandomGraphsKeepTheirInputsOutputsAndEdges) {
  const std::vector<std::string> ops = {"Identity",
                                        "IdentityN",
                                        "Snapshot",
                                        "StopGradient",
                                        "NoOp",
                                        "Conv2D",
                                        "DepthwiseConv2dNative",
                                        "MatMul",
                                        "BiasAdd",
                                        "Add",
                                        "AddV2",
                                        "Relu",
                                        "Relu6",
                                        "LeakyRelu",
                                        "Mul",
                                        "Neg",
                                        "FusedBatchNormV3",
                                        "FusedBatchNorm",
                                        "Squeeze",
                                        "Prelu",
                                        "_FusedConv2D",
                                        "RandomUniform",
                                        "Switch",
                                        "Merge",
                                        "Const",
                                        "Const",
                                        "Const"};
  std::mt19937 random(20261206);
  auto pick = [&](size_t n) { return static_cast<int>(random() % n); };
  int errors = 0;
  for (int round = 0; round < 1000; ++round) {
    tensorflow::GraphDef graph;
    AddNode(&graph, "in", "Placeholder");
    std::vector<std::string> consts;
    int count = 4 + pick(16);
    for (int i = 1; i < count; ++i) {
      std::string name = "n" + std::to_string(i);
      const std::string& op = ops[pick(static_cast<int>(ops.size()))];
      if (op == "Const") {
        int channels = 1 + pick(3);
        std::vector<int64_t> shape = pick(2) == 0 ? std::vector<int64_t>{channels}
                                                  : std::vector<int64_t>{1, 1, channels, channels};
        std::vector<float> values(shape.size() == 1 ? channels : channels * channels, 0.5f);
        tensorflow::NodeDef& node = AddConst(&graph, name, shape, values);
        if (pick(8) == 0) node.mutable_attr()->erase("dtype");
        if (pick(16) == 0) node.mutable_attr()->erase("value");
        consts.push_back(name);
        continue;
      }
      tensorflow::NodeDef& node = AddFloatOp(&graph, name, op, {});
      int inputs = op == "FusedBatchNormV3" || op == "FusedBatchNorm" ? 5 : 1 + pick(2);
      for (int k = 0; k < inputs; ++k) {
        int from = pick(i + 2);  // sometimes a later node, or itself
        std::string input = from > count - 1 ? "missing"
                            : from == 0      ? "in"
                                             : "n" + std::to_string(from);
        // Mostly a chain whose other operands are Consts: the shapes the passes fuse.
        if (k == 0 && pick(3) != 0) input = i == 1 ? "in" : "n" + std::to_string(i - 1);
        if (k > 0 && !consts.empty() && pick(3) != 0) input = consts[pick(consts.size())];
        if (pick(6) == 0) input += ":1";
        node.add_input(input);
      }
      if (pick(4) == 0) node.add_input("^n" + std::to_string(1 + pick(i)));
      if (pick(2) == 0) node.set_device("/device:CPU:0");
      if (op == "Conv2D" || op == "_FusedConv2D") SetInts(&node, "strides", {1, 1, 1, 1});
      if (op == "_FusedConv2D") {
        (*node.mutable_attr())["fused_ops"].mutable_list()->add_s("BiasAdd");
        (*node.mutable_attr())["num_args"].set_i(1);
      }
    }
    std::set<std::string> names, missing_before;
    for (const auto& node : graph.node()) names.insert(node.name());
    for (const auto& node : graph.node()) {
      for (const auto& input : node.input()) {
        std::string name = input.substr(input[0] == '^' ? 1 : 0);
        name = name.substr(0, name.find(':'));
        if (names.count(name) == 0) missing_before.insert(name);
      }
    }
    std::string last = graph.node(graph.node_size() - 1).name();
    std::vector<std::string> outputs = {last + ":0", "n1"};
    try {
      tf::OptimizeForTfjs(&graph, {"in:0"}, &outputs);
    } catch (const Error&) {
      ++errors;
      continue;
    }
    std::set<std::string> after;
    for (const auto& node : graph.node()) {
      EXPECT_TRUE(after.insert(node.name()).second) << "round " << round << ": " << node.name();
    }
    EXPECT_EQ(after.count("in"), 1u) << "round " << round;
    for (const auto& output : outputs) {
      EXPECT_EQ(after.count(output.substr(0, output.find(':'))), 1u)
          << "round " << round << ": " << output;
    }
    for (const auto& node : graph.node()) {
      for (const auto& input : node.input()) {
        std::string name = input.substr(input[0] == '^' ? 1 : 0);
        name = name.substr(0, name.find(':'));
        EXPECT_TRUE(after.count(name) != 0 || missing_before.count(name) != 0)
            << "round " << round << ": " << node.name() << " reads " << input;
      }
    }
  }
  // Identity cycles are refused; most graphs are not cyclic through Identities only.
  EXPECT_LT(errors, 100);
}

}  // namespace
}  // namespace graphport::testing
