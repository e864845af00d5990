// The per-node rewrite of export_meta_graph (TensorFlow's _node_def, tensorflow.md §1.4).
#include "tf/meta_graph/node_rewrite.h"

#include <google/protobuf/arena.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "meta_graph_test_util.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;
using mgtest::MessagesEqual;
using mgtest::Text;
using mgtest::ToVector;

// The input node outlives the arena that holds the rewritten one (RewriteNode's contract).
struct Rewritten {
  explicit Rewritten(const tensorflow::NodeDef& in_node) : in(in_node) {}
  tensorflow::NodeDef in;
  Arena arena;
  tensorflow::NodeDef* out = Arena::CreateMessage<tensorflow::NodeDef>(&arena);
  std::vector<std::string> unbound;
};

TEST(NodeRewriteTest, NamesAndInputsAreStrippedAndOutsideInputsBecomeUnbound) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/a"
    op: "AddN"
    device: "/device:CPU:0"
    input: "s/b"
    input: "s/c:1"
    input: "^s/d"
    input: "t/x"
    input: "t/y:2"
    input: "^t/z"
    input: "sa/w"
    input: "s///e"
    attr {
      key: "N"
      value { i: 6 }
    }
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  )pb"));
  RewriteNode(r.in, Scope("s"), r.out, &r.unbound);
  EXPECT_EQ(r.out->name(), "a");
  EXPECT_EQ(r.out->op(), "AddN");
  EXPECT_EQ(r.out->device(), "/device:CPU:0");
  EXPECT_EQ(
      ToVector(r.out->input()),
      (std::vector<std::string>{"b", "c:1", "^d", "$unbound_inputs_t/x", "$unbound_inputs_t/y:2",
                                "^$unbound_inputs_t/z", "$unbound_inputs_sa/w", "e"}));
  // Every use, in input order, control form included: the caller decides what to list.
  EXPECT_EQ(r.unbound, (std::vector<std::string>{"$unbound_inputs_t/x", "$unbound_inputs_t/y:2",
                                                 "^$unbound_inputs_t/z", "$unbound_inputs_sa/w"}));
  // Other attrs are copied unchanged.
  EXPECT_TRUE(MessagesEqual(r.in.attr().at("N"), r.out->attr().at("N")));
  EXPECT_TRUE(MessagesEqual(r.in.attr().at("T"), r.out->attr().at("T")));
  EXPECT_EQ(r.out->attr_size(), 2);
}

TEST(NodeRewriteTest, UnboundListAccumulatesAcrossNodes) {
  Rewritten r(
      Text<tensorflow::NodeDef>(R"pb(name: "s/m" op: "MatMul" input: "images" input: "images")pb"));
  r.unbound.push_back("$unbound_inputs_earlier");
  RewriteNode(r.in, Scope("s"), r.out, &r.unbound);
  EXPECT_EQ(r.unbound,
            (std::vector<std::string>{"$unbound_inputs_earlier", "$unbound_inputs_images",
                                      "$unbound_inputs_images"}));
}

TEST(NodeRewriteTest, WithoutAScopeTheNodeIsCopiedWhole) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/v"
    op: "VariableV2"
    device: "/job:ps/replica:0/task:0/device:GPU:0"
    input: "^s/init"
    attr {
      key: "_class"
      value { list { s: "loc:@s/v" } }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 2 } } }
    }
    experimental_debug_info { original_node_names: "s/orig" original_func_names: "f" }
  )pb"));
  // Devices are clear_devices.cc's: the rewrite keeps them.
  RewriteNode(r.in, Scope(""), r.out, &r.unbound);
  EXPECT_TRUE(MessagesEqual(r.in, *r.out));
  EXPECT_TRUE(r.unbound.empty());
}

TEST(NodeRewriteTest, ScopeKeepsTheDeviceAndDebugInfoAsTheyAre) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/v"
    op: "Identity"
    device: "/device:GPU:0"
    input: "s/x"
    experimental_debug_info { original_node_names: "s/orig" }
  )pb"));
  RewriteNode(r.in, Scope("s"), r.out, &r.unbound);
  EXPECT_EQ(r.out->device(), "/device:GPU:0");
  // TensorFlow does not touch experimental_debug_info.
  EXPECT_TRUE(MessagesEqual(r.in.experimental_debug_info(), r.out->experimental_debug_info()));
}

TEST(NodeRewriteTest, ColocationEntriesAreFilteredAndStripped) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/a"
    op: "Identity"
    input: "s/v"
    attr {
      key: "_class"
      value { list { s: "loc:@s/v" s: "loc:@t/w" s: "loc:@s/u/x" s: "loc:@sv/y" } }
    }
  )pb"));
  RewriteNode(r.in, Scope("s"), r.out, &r.unbound);
  const tensorflow::AttrValue& cls = r.out->attr().at("_class");
  ASSERT_EQ(cls.value_case(), tensorflow::AttrValue::kList);
  EXPECT_EQ(ToVector(cls.list().s()), (std::vector<std::string>{"loc:@v", "loc:@u/x"}));
  // Dropped entries are not unbound inputs.
  EXPECT_TRUE(r.unbound.empty());
}

TEST(NodeRewriteTest, ColocationAttrStaysAsAnEmptyListWhenEveryEntryIsDropped) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "hidden1/weights"
    op: "VariableV2"
    attr {
      key: "_class"
      value { list { s: "loc:@constraint" } }
    }
  )pb"));
  RewriteNode(r.in, Scope("hidden1"), r.out, &r.unbound);
  ASSERT_EQ(r.out->attr().count("_class"), 1u);
  const tensorflow::AttrValue& cls = r.out->attr().at("_class");
  EXPECT_EQ(cls.value_case(), tensorflow::AttrValue::kList);
  EXPECT_EQ(cls.list().s_size(), 0);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::AttrValue>("list {}"), cls));
}

// TensorFlow rewrites _class as a fresh list of strings: other list fields are lost.
TEST(NodeRewriteTest, ColocationAttrIsRewrittenAsAStringList) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/a"
    op: "NoOp"
    attr {
      key: "_class"
      value { list { s: "loc:@s/v" i: 7 } }
    }
  )pb"));
  RewriteNode(r.in, Scope("s"), r.out, &r.unbound);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::AttrValue>(R"pb(list { s: "loc:@v" })pb"),
                            r.out->attr().at("_class")));
}

TEST(NodeRewriteTest, ColocationAttrIsUntouchedWithoutAScope) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/a"
    op: "NoOp"
    device: "/cpu:0"
    attr {
      key: "_class"
      value { list { s: "loc:@t/w" i: 7 } }
    }
  )pb"));
  RewriteNode(r.in, Scope(""), r.out, &r.unbound);
  EXPECT_TRUE(MessagesEqual(r.in.attr().at("_class"), r.out->attr().at("_class")));
}

TEST(NodeRewriteTest, EnterFrameNameIsStrippedInsideTheScope) {
  for (const char* op : {"Enter", "RefEnter"}) {
    SCOPED_TRACE(op);
    tensorflow::NodeDef node = Text<tensorflow::NodeDef>(R"pb(
      name: "hidden2/while/Enter"
      input: "hidden2/Const"
      attr {
        key: "frame_name"
        value { s: "hidden2/while/while_context" }
      }
      attr {
        key: "is_constant"
        value { b: false }
      }
      attr {
        key: "parallel_iterations"
        value { i: 10 }
      }
    )pb");
    node.set_op(op);
    Rewritten r(node);
    RewriteNode(r.in, Scope("hidden2"), r.out, &r.unbound);
    EXPECT_EQ(r.out->name(), "while/Enter");
    EXPECT_EQ(r.out->attr().at("frame_name").s(), "while/while_context");
    EXPECT_EQ(r.out->attr().at("parallel_iterations").i(), 10);
    EXPECT_FALSE(r.out->attr().at("is_constant").b());
  }
}

// TensorFlow fails on an unset variable here; graphport keeps the name (README).
TEST(NodeRewriteTest, EnterFrameNameOutsideTheScopeIsKept) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/Enter"
    op: "Enter"
    input: "s/x"
    attr {
      key: "frame_name"
      value { s: "outer/while/while_context" }
    }
  )pb"));
  RewriteNode(r.in, Scope("s"), r.out, &r.unbound);
  EXPECT_EQ(r.out->attr().at("frame_name").s(), "outer/while/while_context");
}

TEST(NodeRewriteTest, FrameNameOfOtherOpsIsNotTouched) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/Exit"
    op: "Exit"
    input: "s/x"
    attr {
      key: "frame_name"
      value { s: "s/while/while_context" }
    }
  )pb"));
  RewriteNode(r.in, Scope("s"), r.out, &r.unbound);
  EXPECT_EQ(r.out->attr().at("frame_name").s(), "s/while/while_context");
}

TEST(NodeRewriteTest, EnterFrameNameIsUntouchedWithoutAScope) {
  Rewritten r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/Enter"
    op: "Enter"
    device: "/cpu:0"
    attr {
      key: "frame_name"
      value { s: "s/while/while_context" }
    }
  )pb"));
  RewriteNode(r.in, Scope(""), r.out, &r.unbound);
  EXPECT_EQ(r.out->attr().at("frame_name").s(), "s/while/while_context");
}

constexpr char kConstNode[] = R"pb(
  name: "s/w"
  op: "Const"
  device: "/cpu:0"
  attr {
    key: "dtype"
    value { type: DT_FLOAT }
  }
  attr {
    key: "value"
    value {
      tensor {
        dtype: DT_FLOAT
        tensor_shape { dim { size: 2 } }
        tensor_content: "\000\000\200?\000\000\000@"
      }
    }
  }
)pb";

// Weights stay where they are: the rewritten node points at the input's TensorProto.
TEST(NodeRewriteTest, TensorsAreLentNotCopied) {
  for (bool scoped : {false, true}) {
    SCOPED_TRACE(scoped ? "scope s" : "no scope");
    Rewritten r(Text<tensorflow::NodeDef>(kConstNode));
    RewriteNode(r.in, Scope(scoped ? "s" : ""), r.out, &r.unbound);
    const tensorflow::AttrValue& value = r.out->attr().at("value");
    ASSERT_TRUE(value.has_tensor());
    EXPECT_EQ(&value.tensor(), &r.in.attr().at("value").tensor());
    EXPECT_TRUE(MessagesEqual(r.in.attr().at("value"), value));
    EXPECT_EQ(r.out->name(), scoped ? "w" : "s/w");
    EXPECT_EQ(r.out->device(), "/cpu:0");
  }
}

TEST(NodeRewriteTest, LendNodeCopiesEverythingAndLendsTensors) {
  Rewritten r(Text<tensorflow::NodeDef>(kConstNode));
  r.in.add_input("^s/x");
  r.in.mutable_experimental_debug_info()->add_original_node_names("orig");
  LendNode(r.in, r.out);
  EXPECT_TRUE(MessagesEqual(r.in, *r.out));
  EXPECT_EQ(&r.out->attr().at("value").tensor(), &r.in.attr().at("value").tensor());
}

TEST(NodeRewriteTest, UnknownFieldsSurvive) {
  tensorflow::NodeDef node = Text<tensorflow::NodeDef>(R"pb(name: "s/a" op: "NoOp")pb");
  graphport::testing::AddUnknownVarint(&node, 99, 7);
  Rewritten r(node);
  RewriteNode(r.in, Scope("s"), r.out, &r.unbound);
  auto reference = graphport::testing::ReferenceCopy(*r.out);
  const auto& unknown = reference->GetReflection()->GetUnknownFields(*reference);
  ASSERT_EQ(unknown.field_count(), 1);
  EXPECT_EQ(unknown.field(0).number(), 99);
  EXPECT_EQ(unknown.field(0).varint(), 7u);
}

TEST(NodeRewriteTest, NodeInExport) {
  Scope s("s");
  auto node = [](const char* name) {
    tensorflow::NodeDef n;
    n.set_name(name);
    return n;
  };
  EXPECT_TRUE(NodeInExport(node("s"), s));
  EXPECT_TRUE(NodeInExport(node("s/a"), s));
  EXPECT_TRUE(NodeInExport(node("s/a/b"), s));
  // TensorFlow keeps unbound-input placeholders of an earlier scoped export.
  EXPECT_TRUE(NodeInExport(node("$unbound_inputs_x"), s));
  EXPECT_FALSE(NodeInExport(node("t/a"), s));
  EXPECT_FALSE(NodeInExport(node("sa/b"), s));
  EXPECT_TRUE(NodeInExport(node("anything"), Scope("")));
}

}  // namespace
}  // namespace graphport::tf
