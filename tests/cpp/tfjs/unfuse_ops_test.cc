// Unfusing TF.js-only and Grappler-only ops into stock TensorFlow ops.
#include "tfjs/unfuse_ops.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tensorflow/op_def.pb.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;
using testing::OwnedInputSet;

std::map<std::string, const tensorflow::NodeDef*> ByName(const tensorflow::GraphDef& graph) {
  std::map<std::string, const tensorflow::NodeDef*> out;
  for (const auto& node : graph.node()) out[node.name()] = &node;
  return out;
}

const tensorflow::OpList& TensorFlowOps() {
  static const tensorflow::OpList* ops = [] {
    auto* list = new tensorflow::OpList;
    EXPECT_TRUE(testing::ParseTextReference(testing::ReadCorpus("tf/ops.pbtxt"), list));
    return list;
  }();
  return *ops;
}

// Every node's op is one TensorFlow's registry defines, and its non-private attrs are attrs
// of that op (TensorFlow refuses others on import).
void ExpectStockTensorFlow(const tensorflow::GraphDef& graph) {
  std::map<std::string, const tensorflow::OpDef*> ops;
  for (const auto& op : TensorFlowOps().op()) ops[op.name()] = &op;
  for (const auto& node : graph.node()) {
    auto op = ops.find(node.op());
    ASSERT_NE(op, ops.end()) << node.name() << " has op " << node.op();
    std::set<std::string> attrs;
    for (const auto& a : op->second->attr()) attrs.insert(a.name());
    for (const auto& [name, value] : node.attr()) {
      if (name[0] == '_') continue;
      EXPECT_EQ(attrs.count(name), 1u) << node.name() << " (" << node.op() << ") attr " << name;
    }
  }
}

// The parity pair: after unfusing, our graph is TensorFlow's frozen graph, node for node. The
// only difference is the node order (TensorFlow lists the placeholder first; the converter's
// topology lists the weights first), which GraphDef semantics ignore.
TEST(UnfuseOpsTest, SimpleCorpusEqualsFrozenGraphNodeByNode) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  OwnedInputSet inputs;
  inputs.AddFolder(testing::CorpusDir() / "tfjs/tfjs-to-tf/simple");
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(&inputs, &meta);
  tensorflow::GraphDef ours = meta.graph_def();
  std::vector<UnfuseRewrite> rewrites = UnfuseOps(&ours);
  ASSERT_EQ(rewrites.size(), 1u);
  EXPECT_EQ(rewrites[0].node, "simple_5x/output/BiasAdd");
  EXPECT_EQ(rewrites[0].into.size(), 2u);

  tensorflow::GraphDef frozen;
  ASSERT_TRUE(frozen.ParseFromString(testing::ReadCorpus(testing::kFrozenGraph)));
  auto theirs_by_name = ByName(frozen);
  auto ours_by_name = ByName(ours);
  ASSERT_EQ(ours_by_name.size(), theirs_by_name.size());
  for (const auto& [name, theirs] : theirs_by_name) {
    ASSERT_EQ(ours_by_name.count(name), 1u) << name;
    EXPECT_TRUE(testing::MessagesEqual(*theirs, *ours_by_name[name])) << name;
  }
  EXPECT_TRUE(testing::MessagesEqual(frozen.versions(), ours.versions()));
  ExpectStockTensorFlow(ours);
}

TEST(UnfuseOpsTest, PreluCorpusBecomesStockTensorFlow) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  OwnedInputSet inputs;
  inputs.AddFolder(testing::CorpusDir() / "tfjs/tfjs-to-tf/prelu");
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(&inputs, &meta);
  tensorflow::GraphDef graph = meta.graph_def();
  std::vector<UnfuseRewrite> rewrites = UnfuseOps(&graph);
  ASSERT_EQ(rewrites.size(), 2u);
  // _FusedMatMul [BiasAdd, Prelu]: MatMul, BiasAdd, then the Prelu's five nodes.
  EXPECT_EQ(rewrites[0].fused_ops, (std::vector<std::string>{"BiasAdd", "Prelu"}));
  ASSERT_EQ(rewrites[0].into.size(), 7u);
  EXPECT_EQ(rewrites[0].into.back(),
            std::make_pair(std::string("StatefulPartitionedCall/point_in_sphere/Dense/BiasAdd"),
                           std::string("Sub")));
  ExpectStockTensorFlow(graph);
  // Consumers are untouched and still find their producers.
  auto nodes = ByName(graph);
  for (const auto& node : graph.node()) {
    for (std::string input : node.input()) {
      if (input[0] == '^') input = input.substr(1);
      input = input.substr(0, input.find(':'));
      EXPECT_EQ(nodes.count(input), 1u) << node.name() << " <- " << input;
    }
  }
  json info = RewritesToJson(rewrites);
  EXPECT_EQ(info[0]["op"], "_FusedMatMul");
  EXPECT_EQ(info[0]["into"][0]["op"], "MatMul");
}

tensorflow::NodeDef Parse(const std::string& text) {
  tensorflow::NodeDef node;
  EXPECT_TRUE(testing::ParseTextReference(text, &node)) << text;
  return node;
}

TEST(UnfuseOpsTest, EveryFusionTfjsWrites) {
  tensorflow::GraphDef graph;
  *graph.add_node() = Parse(R"pb(name: "x"
                                 op: "Placeholder"
                                 attr {
                                   key: "dtype"
                                   value { type: DT_FLOAT }
                                 })pb");
  for (const char* c : {"w", "b", "alpha", "scale", "offset", "mean", "var"}) {
    *graph.add_node() = Parse(std::string("name: '") + c +
                              "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }");
  }
  *graph.add_node() = Parse(R"pb(
    name: "dw/depthwise"
    op: "FusedDepthwiseConv2dNative"
    input: "x"
    input: "w"
    input: "^b"
    device: "/device:CPU:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "num_args"
      value { i: 0 }
    }
    attr {
      key: "fused_ops"
      value { list { s: "NoOp" s: "Relu6" } }
    }
    attr {
      key: "strides"
      value { list { i: 1 i: 1 i: 1 i: 1 } }
    }
    attr {
      key: "padding"
      value { s: "SAME" }
    }
    attr {
      key: "data_format"
      value { s: "NHWC" }
    }
    attr {
      key: "dilations"
      value { list { i: 1 i: 1 i: 1 i: 1 } }
    })pb");
  *graph.add_node() = Parse(R"pb(
    name: "conv/bn"
    op: "_FusedConv2D"
    input: "dw/depthwise"
    input: "w"
    input: "scale"
    input: "offset"
    input: "mean"
    input: "var"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "num_args"
      value { i: 4 }
    }
    attr {
      key: "epsilon"
      value { f: 0.001 }
    }
    attr {
      key: "leakyrelu_alpha"
      value { f: 0.3 }
    }
    attr {
      key: "fused_ops"
      value { list { s: "FusedBatchNorm" s: "LeakyRelu" } }
    }
    attr {
      key: "strides"
      value { list { i: 1 i: 1 i: 1 i: 1 } }
    }
    attr {
      key: "padding"
      value { s: "VALID" }
    }
    attr {
      key: "data_format"
      value { s: "NCHW" }
    }
    attr {
      key: "use_cudnn_on_gpu"
      value { b: true }
    })pb");
  *graph.add_node() = Parse(R"pb(
    name: "fc/Relu"
    op: "_FusedMatMul"
    input: "conv/bn"
    input: "w"
    input: "b"
    input: "alpha"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "num_args"
      value { i: 2 }
    }
    attr {
      key: "fused_ops"
      value { list { s: "BiasAdd" s: "Prelu" } }
    }
    attr {
      key: "transpose_b"
      value { b: true }
    })pb");
  *graph.add_node() = Parse(R"pb(name: "p/Relu" op: "Prelu" input: "fc/Relu" input: "alpha")pb");
  *graph.add_node() = Parse(R"pb(name: "d" op: "DepthwiseConv2d" input: "p/Relu" input: "w")pb");
  std::vector<UnfuseRewrite> rewrites = UnfuseOps(&graph);
  EXPECT_EQ(rewrites.size(), 5u);
  ExpectStockTensorFlow(graph);
  auto nodes = ByName(graph);

  // Depthwise + Relu6 without bias: the control input stays on the contraction, the device
  // the converter set is gone.
  const auto* dw = nodes.at("dw/DepthwiseConv2dNative");
  EXPECT_EQ(dw->op(), "DepthwiseConv2dNative");
  EXPECT_EQ(dw->input(2), "^b");
  EXPECT_EQ(dw->device(), "");
  EXPECT_EQ(nodes.at("dw/depthwise")->op(), "Relu6");
  EXPECT_EQ(nodes.at("dw/depthwise")->input(0), "dw/DepthwiseConv2dNative");

  const auto* bn = nodes.at("conv/bn/FusedBatchNormV3");
  EXPECT_EQ(bn->input_size(), 5);
  EXPECT_EQ(bn->attr().at("is_training").b(), false);
  EXPECT_FLOAT_EQ(bn->attr().at("epsilon").f(), 0.001f);
  EXPECT_EQ(bn->attr().at("data_format").s(), "NCHW");
  EXPECT_EQ(nodes.at("conv/bn")->op(), "LeakyRelu");
  EXPECT_FLOAT_EQ(nodes.at("conv/bn")->attr().at("alpha").f(), 0.3f);
  EXPECT_EQ(nodes.at("conv/Conv2D")->attr().count("use_cudnn_on_gpu"), 1u);

  EXPECT_EQ(nodes.at("fc/MatMul")->attr().at("transpose_b").b(), true);
  EXPECT_EQ(nodes.at("fc/Relu/BiasAdd")->input(1), "b");
  EXPECT_EQ(nodes.at("fc/Relu")->op(), "Sub");
  EXPECT_EQ(nodes.at("fc/Relu/Mul")->input(0), "alpha");
  EXPECT_EQ(nodes.at("fc/Relu/Relu")->input(0), "fc/Relu/BiasAdd");

  EXPECT_EQ(nodes.at("p/Relu")->op(), "Sub");
  EXPECT_EQ(nodes.at("p/Relu")->attr().at("T").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(nodes.at("d")->op(), "DepthwiseConv2dNative");
}

TEST(UnfuseOpsTest, FusionsThatDoNotAddUpAreRefused) {
  tensorflow::GraphDef graph;
  *graph.add_node() = Parse(R"pb(
    name: "f"
    op: "_FusedMatMul"
    input: "a"
    input: "b"
    input: "c"
    input: "d"
    attr {
      key: "num_args"
      value { i: 2 }
    }
    attr {
      key: "fused_ops"
      value { list { s: "BiasAdd" } }
    })pb");
  try {
    UnfuseOps(&graph);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(e.where().node, "f");
    EXPECT_NE(std::string(e.what()).find("fused arguments"), std::string::npos) << e.what();
  }
  // A refused graph is left as it was.
  ASSERT_EQ(graph.node_size(), 1);
  EXPECT_EQ(graph.node(0).op(), "_FusedMatMul");
  graph.mutable_node(0)->mutable_attr()->at("fused_ops").mutable_list()->set_s(0, "Gelu");
  try {
    UnfuseOps(&graph);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("fuses 'Gelu'"), std::string::npos) << e.what();
  }
}

// Inside a function body, a node's output is "<node>:<output arg>:<index>": the new nodes
// read each other so, and references to a rewritten node (from its body and the function's
// ret) follow the output arg of the op that took its name.
TEST(UnfuseOpsTest, FunctionBodiesAreRewrittenToo) {
  tensorflow::GraphDef graph;
  tensorflow::FunctionDef* f = graph.mutable_library()->add_function();
  f->mutable_signature()->set_name("body_fn");
  f->mutable_signature()->add_input_arg()->set_name("x");
  f->mutable_signature()->add_output_arg()->set_name("y");
  f->mutable_signature()->add_output_arg()->set_name("z");
  for (const char* c : {"w", "b", "alpha"}) {
    *f->add_node_def() = Parse(std::string("name: '") + c +
                               "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }");
  }
  *f->add_node_def() = Parse(R"pb(
    name: "conv"
    op: "_FusedConv2D"
    input: "x"
    input: "w:output:0"
    input: "b:output:0"
    device: "/device:CPU:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "num_args"
      value { i: 1 }
    }
    attr {
      key: "fused_ops"
      value { list { s: "BiasAdd" s: "Relu" } }
    }
    attr {
      key: "strides"
      value { list { i: 1 i: 1 i: 1 i: 1 } }
    }
    attr {
      key: "padding"
      value { s: "SAME" }
    })pb");
  *f->add_node_def() =
      Parse(R"pb(name: "p" op: "Prelu" input: "conv:output:0" input: "alpha:output:0")pb");
  *f->add_node_def() = Parse(R"pb(name: "id" op: "Identity" input: "conv:output:0" input: "^p")pb");
  (*f->mutable_ret())["y"] = "p:output:0";
  (*f->mutable_ret())["z"] = "id:output:0";

  json info = RewritesToJson(UnfuseOps(&graph));
  ASSERT_EQ(info.size(), 2u);
  EXPECT_EQ(info[0]["function"], "body_fn");
  EXPECT_EQ(info[0]["node"], "conv");
  EXPECT_EQ(info[0]["into"], json({{{"name", "Conv2D"}, {"op", "Conv2D"}},
                                   {{"name", "conv/BiasAdd"}, {"op", "BiasAdd"}},
                                   {{"name", "conv"}, {"op", "Relu"}}}));
  EXPECT_EQ(info[1]["function"], "body_fn");
  EXPECT_EQ(info[1]["node"], "p");

  const tensorflow::FunctionDef& body = graph.library().function(0);
  tensorflow::GraphDef nodes;
  *nodes.mutable_node() = body.node_def();
  ExpectStockTensorFlow(nodes);
  auto by_name = ByName(nodes);
  auto inputs = [&](const std::string& name) {
    const auto& in = by_name.at(name)->input();
    return std::vector<std::string>(in.begin(), in.end());
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(inputs("Conv2D"), Names({"x", "w:output:0"}));
  EXPECT_EQ(inputs("conv/BiasAdd"), Names({"Conv2D:output:0", "b:output:0"}));
  EXPECT_EQ(inputs("conv"), Names({"conv/BiasAdd:output:0"}));
  EXPECT_EQ(inputs("p/Relu"), Names({"conv:activations:0"}));
  EXPECT_EQ(inputs("p/Mul"), Names({"alpha:output:0", "p/Relu_1:activations:0"}));
  EXPECT_EQ(inputs("p"), Names({"p/Relu:activations:0", "p/Mul:z:0"}));
  EXPECT_EQ(inputs("id"), Names({"conv:activations:0", "^p"}));
  EXPECT_EQ(body.ret().at("y"), "p:z:0");
  EXPECT_EQ(body.ret().at("z"), "id:output:0");
}

TEST(UnfuseOpsTest, ARefusedFusionInAFunctionNamesItAndLeavesTheGraphAsItWas) {
  tensorflow::GraphDef graph;
  *graph.add_node() = Parse(R"pb(name: "p" op: "Prelu" input: "x" input: "a")pb");
  tensorflow::FunctionDef* f = graph.mutable_library()->add_function();
  f->mutable_signature()->set_name("body_fn");
  *f->add_node_def() = Parse(R"pb(name: "m" op: "_FusedMatMul" input: "a:output:0")pb");
  tensorflow::GraphDef before = graph;
  try {
    UnfuseOps(&graph);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(e.where().node, "m");
    EXPECT_NE(std::string(e.what()).find("function 'body_fn': node 'm'"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(testing::MessagesEqual(before, graph));
}

}  // namespace
}  // namespace graphport::tfjs
