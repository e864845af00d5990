// The registry defaults a TensorFlow graph gets when written as TF.js (src/tfjs/default_attrs).
#include "tfjs/default_attrs.h"

#include <gtest/gtest.h>

#include "tensorflow/op_def.pb.h"
#include "tfjs/tfjs_ops.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using testing::DeterministicBytes;

tensorflow::NodeDef Conv2D(bool with_dilations) {
  tensorflow::NodeDef node;
  node.set_name("conv");
  node.set_op("Conv2D");
  node.add_input("x");
  node.add_input("w");
  (*node.mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  (*node.mutable_attr())["padding"].set_s("SAME");
  auto* strides = (*node.mutable_attr())["strides"].mutable_list();
  for (int i = 0; i < 4; ++i) strides->add_i(1);
  if (with_dilations) {
    auto* dilations = (*node.mutable_attr())["dilations"].mutable_list();
    for (int i : {1, 2, 2, 1}) dilations->add_i(i);
  }
  return node;
}

// Every default of every op TF.js runs, in TensorFlow's own registry (the corpus ops.pbtxt,
// read with libprotobuf's text parser): a node of the op with no attrs gets exactly these
// values, and nothing else.
TEST(DefaultAttrs, EveryRegistryDefaultOfTheOpsTfjsRuns) {
  tensorflow::OpList registry;
  ASSERT_TRUE(testing::ParseTextReference(testing::ReadCorpus("tf/ops.pbtxt"), &registry));
  int checked = 0;
  for (const tensorflow::OpDef& op : registry.op()) {
    tensorflow::NodeDef node;
    node.set_op(op.name());
    bool added = AddDefaultAttrs(&node);
    int defaults = 0;
    for (const auto& attr : op.attr()) {
      if (!attr.has_default_value() || !IsTfjsOp(op.name())) continue;
      ++defaults;
      auto it = node.attr().find(attr.name());
      ASSERT_NE(it, node.attr().end()) << op.name() << "." << attr.name();
      EXPECT_EQ(DeterministicBytes(it->second), DeterministicBytes(attr.default_value()))
          << op.name() << "." << attr.name();
    }
    EXPECT_EQ(node.attr_size(), defaults) << op.name();
    EXPECT_EQ(added, defaults > 0) << op.name();
    checked += defaults;
  }
  // Conv2D's dilations and the like: the count of the generated table.
  EXPECT_EQ(checked, 194);
}

TEST(DefaultAttrs, AValueTheNodeHasIsKept) {
  tensorflow::NodeDef node = Conv2D(true);
  ASSERT_TRUE(AddDefaultAttrs(&node));  // data_format, explicit_paddings, use_cudnn_on_gpu
  const auto& dilations = node.attr().at("dilations").list();
  ASSERT_EQ(dilations.i_size(), 4);
  EXPECT_EQ(dilations.i(1), 2);
  EXPECT_EQ(node.attr().at("data_format").s(), "NHWC");
  EXPECT_FALSE(AddDefaultAttrs(&node));  // nothing left to add
}

TEST(DefaultAttrs, OpsTfjsDoesNotRunAreLeftAlone) {
  tensorflow::NodeDef node;
  node.set_op("ParseExampleV2");  // defaults in the registry, not run by TF.js
  EXPECT_FALSE(AddDefaultAttrs(&node));
  EXPECT_EQ(node.attr_size(), 0);
}

// Through the nodes the writer reads: a complete node keeps its serialisation; one that lacks a
// default is offered as a message only, with the default; function bodies get theirs too.
TEST(DefaultAttrs, WithDefaultAttrsCompletesNodesAndFunctionBodies) {
  tensorflow::GraphDef graph;
  *graph.add_node() = Conv2D(false);
  tensorflow::NodeDef complete = Conv2D(true);
  AddDefaultAttrs(&complete);
  complete.set_name("complete");
  *graph.add_node() = complete;
  auto* function = graph.mutable_library()->add_function();
  function->mutable_signature()->set_name("body");
  *function->add_node_def() = Conv2D(false);

  // Parsed nodes offer no bytes; the wrapper must not invent them for a complete node either.
  tf::ParsedGraphNodes parsed(graph);
  WithDefaultAttrs nodes(&parsed);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_FALSE(nodes.SerializedNode(0).has_value());
  EXPECT_EQ(nodes.Node(0).attr().at("dilations").list().i_size(), 4);
  EXPECT_EQ(graph.node(0).attr().count("dilations"), 0u);  // the source is not changed
  EXPECT_EQ(DeterministicBytes(nodes.Node(1)), DeterministicBytes(complete));
  EXPECT_EQ(nodes.library().function(0).node_def(0).attr().at("dilations").list().i_size(), 4);
  EXPECT_EQ(graph.library().function(0).node_def(0).attr().count("dilations"), 0u);
}

}  // namespace
}  // namespace graphport::tfjs
