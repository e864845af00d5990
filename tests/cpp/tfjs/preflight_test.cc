// The pre-flight's op lists and reports: TF.js 4.22's runtime and TensorFlow's registry
// (generated from the corpus ops.pbtxt), checked over a graph and its function bodies.
#include "tfjs/preflight.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tf/registry_ops.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

TEST(TensorflowRegistry, HoldsEveryOpOfOpsPbtxtAndNoGrapplerOnlyOp) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  std::string text = testing::ReadCorpus("tf/ops.pbtxt");
  // Each top-level "op {" block's name, on the line after it (the first block at the file's
  // first byte included).
  std::istringstream lines(text);
  std::string line;
  bool in_op = false;
  size_t count = 0;
  const std::string name_prefix = "  name: \"";
  while (std::getline(lines, line)) {
    if (in_op && line.rfind(name_prefix, 0) == 0) {
      std::string name = line.substr(name_prefix.size(), line.size() - name_prefix.size() - 1);
      ++count;
      EXPECT_TRUE(tf::InTensorflowRegistry(name)) << name;
    }
    in_op = line == "op {";
  }
  EXPECT_EQ(count, 1256u);
  EXPECT_EQ(tf::TensorflowRegistrySize(), count);
  for (const char* op : {"Abort", "Conv2D", "FusedBatchNormV3", "StatefulPartitionedCall",
                         "VarHandleOp", "ZerosLike"}) {
    EXPECT_TRUE(tf::InTensorflowRegistry(op)) << op;
  }
  for (const char* op : {"_FusedConv2D", "_FusedMatMul", "FusedDepthwiseConv2dNative", "Prelu",
                         "Conv1D", "Ones", "conv2d", ""}) {
    EXPECT_FALSE(tf::InTensorflowRegistry(op)) << op;
  }
}

tensorflow::NodeDef* AddNode(tensorflow::GraphDef* graph, const std::string& name,
                             const std::string& op) {
  tensorflow::NodeDef* node = graph->add_node();
  node->set_name(name);
  node->set_op(op);
  return node;
}

// Seven VarHandleOps, a Prelu, a call of the library's function f, and in f's body a Relu
// and an Assert.
tensorflow::GraphDef GraphWithFunction() {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  for (int i = 0; i < 7; ++i) AddNode(&graph, "v" + std::to_string(i), "VarHandleOp");
  AddNode(&graph, "p", "Prelu");
  AddNode(&graph, "call", "f");
  tensorflow::FunctionDef* f = graph.mutable_library()->add_function();
  f->mutable_signature()->set_name("f");
  f->add_node_def()->set_op("Relu");
  f->mutable_node_def(0)->set_name("r");
  f->add_node_def()->set_op("Assert");
  f->mutable_node_def(1)->set_name("a");
  return graph;
}

TEST(Preflight, TfjsListsEachOpWithItsCountFirstNodesAndFix) {
  tensorflow::GraphDef graph = GraphWithFunction();
  tf::ParsedGraphNodes nodes(graph);
  OpCheck check = CheckOps(&nodes, OpTarget::kTfjs);
  EXPECT_EQ(check.nodes, 12u);
  EXPECT_EQ(check.ops, 6u);  // Placeholder, VarHandleOp, Prelu, f, Relu, Assert
  ASSERT_EQ(check.unsupported.size(), 3u);
  EXPECT_EQ(check.unsupported["VarHandleOp"].count, 7u);
  EXPECT_EQ(check.unsupported["VarHandleOp"].nodes,
            std::vector<std::string>({"v0", "v1", "v2", "v3", "v4"}));
  EXPECT_EQ(check.unsupported["f"].nodes, std::vector<std::string>({"call"}));
  EXPECT_EQ(check.unsupported["Assert"].nodes, std::vector<std::string>({"f/a"}));
  EXPECT_EQ(FindUnsupportedOps(&nodes).size(), 3u);

  EXPECT_EQ(UnsupportedOpsList(check.unsupported, OpTarget::kTfjs),
            "Assert x1 (f/a): a debug op: TF.js runs it only stripped; VarHandleOp x7 (v0, v1, "
            "v2, v3, v4, ...): freeze fixes this; f x1 (call)");
  json listed = UnsupportedOpsJson(check.unsupported, OpTarget::kTfjs);
  EXPECT_EQ(listed[1], json::parse(R"({"op":"VarHandleOp","count":7,
      "nodes":["v0","v1","v2","v3","v4"],"hint":"freeze fixes this"})"));
  EXPECT_TRUE(listed[2]["hint"].is_null());
  EXPECT_EQ(UnsupportedOpsMessage(check.unsupported, OpTarget::kTfjs)
                .rfind("the TF.js runtime cannot run this model's ops Assert x1", 0),
            0u);
}

// A table filled from a text file is one the freeze fills from Consts (the file read then).
TEST(Preflight, TextFileTableInitializersAreFrozenAway) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "init", "InitializeTableFromTextFileV2");
  AddNode(&graph, "init_v1", "InitializeTableFromTextFile");
  tf::ParsedGraphNodes nodes(graph);
  json listed = UnsupportedOpsJson(CheckOps(&nodes, OpTarget::kTfjs).unsupported, OpTarget::kTfjs);
  ASSERT_EQ(listed.size(), 2u);
  for (const json& op : listed) EXPECT_EQ(op["hint"], "freeze fixes this") << op.dump();
}

TEST(Preflight, TensorflowRunsFunctionCallsAndVariablesButNotTfjsOnlyOps) {
  tensorflow::GraphDef graph = GraphWithFunction();
  tf::ParsedGraphNodes nodes(graph);
  OpCheck check = CheckOps(&nodes, OpTarget::kTensorflow);
  EXPECT_EQ(check.nodes, 12u);
  ASSERT_EQ(check.unsupported.size(), 1u)
      << UnsupportedOpsList(check.unsupported, OpTarget::kTensorflow);
  EXPECT_EQ(check.unsupported["Prelu"].count, 1u);
  EXPECT_EQ(UnsupportedOpHint(OpTarget::kTensorflow, "Prelu"), "unfuseOps fixes this");
  EXPECT_EQ(UnsupportedOpHint(OpTarget::kTensorflow, "Conv1D"), "");
  EXPECT_EQ(UnsupportedOpsMessage(check.unsupported, OpTarget::kTensorflow),
            "TensorFlow's op registry lacks this graph's ops Prelu x1 (p): unfuseOps fixes "
            "this, so TensorFlow cannot import it. Export with allowUnsupportedOps to write it "
            "anyway (a TensorFlow with these ops registered as custom ops)");
  EXPECT_EQ(OpTargetTitle(OpTarget::kTensorflow), "TensorFlow's op registry");
  EXPECT_EQ(OpTargetTitle(OpTarget::kTfjs), "TF.js 4.22");
}

}  // namespace
}  // namespace graphport::tfjs
