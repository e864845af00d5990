// export_scope's node pass (tf/meta_graph/export_scope.h, TensorFlow's _node_def) over both
// forms of a node: every case is run on parsed messages and on wire bytes, which must write
// the same nodes and list the same unbound inputs.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "meta_graph_test_util.h"
#include "node_pass_test_util.h"
#include "tf/meta_graph/clear_devices.h"
#include "tf/meta_graph/export_scope.h"
#include "tf/meta_graph/wire_nodes.h"

namespace graphport::tf {
namespace {

using mgtest::MessagesEqual;
using mgtest::Text;
using mgtest::ToVector;

NodePasses ScopePasses(const std::string& scope) {
  return {std::make_shared<ExportScope>(Scope(scope))};
}

// `graph`'s nodes after `passes`, from both forms: equal bytes, and equal unbound inputs (the
// plan's, and those of the parsed nodes written).
struct Exported {
  tensorflow::GraphDef nodes;
  std::vector<std::string> unbound;
};

Exported ScopeBothForms(const tensorflow::GraphDef& graph, const NodePasses& passes) {
  const std::string parsed = mgtest::ParsedNodeRecords(graph, passes);
  WireNodeFacts facts;
  const std::string wire = mgtest::WireNodeRecordsOf(mgtest::Deterministic(graph), passes, &facts);
  EXPECT_TRUE(parsed == wire) << "the two forms of the nodes differ";
  Exported out;
  EXPECT_TRUE(out.nodes.ParseFromString(parsed));
  for (const auto& node : out.nodes.node()) AddUnboundInputs(node, &out.unbound);
  EXPECT_EQ(out.unbound, facts.unbound);
  EXPECT_EQ(facts.exported, static_cast<size_t>(out.nodes.node_size()));
  return out;
}

// One node through the pass of `scope`, in both forms.
struct Scoped {
  explicit Scoped(const tensorflow::NodeDef& node) : in(node) {}
  void Run(const std::string& scope) {
    tensorflow::GraphDef graph;
    *graph.add_node() = in;
    Exported exported = ScopeBothForms(graph, ScopePasses(scope));
    ASSERT_EQ(exported.nodes.node_size(), 1);
    out = exported.nodes.node(0);
    unbound = exported.unbound;
  }
  tensorflow::NodeDef in, out;
  std::vector<std::string> unbound;
};

TEST(ExportScopeTest, NamesAndInputsAreStrippedAndOutsideInputsBecomeUnbound) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
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
  r.Run("s");
  EXPECT_EQ(r.out.name(), "a");
  EXPECT_EQ(r.out.op(), "AddN");
  EXPECT_EQ(r.out.device(), "/device:CPU:0");
  EXPECT_EQ(
      ToVector(r.out.input()),
      (std::vector<std::string>{"b", "c:1", "^d", "$unbound_inputs_t/x", "$unbound_inputs_t/y:2",
                                "^$unbound_inputs_t/z", "$unbound_inputs_sa/w", "e"}));
  // Every use, in input order, control form included: the caller decides what to list.
  EXPECT_EQ(r.unbound, (std::vector<std::string>{"$unbound_inputs_t/x", "$unbound_inputs_t/y:2",
                                                 "^$unbound_inputs_t/z", "$unbound_inputs_sa/w"}));
  // Other attrs are copied unchanged.
  EXPECT_TRUE(MessagesEqual(r.in.attr().at("N"), r.out.attr().at("N")));
  EXPECT_TRUE(MessagesEqual(r.in.attr().at("T"), r.out.attr().at("T")));
  EXPECT_EQ(r.out.attr_size(), 2);
}

TEST(ExportScopeTest, UnboundInputsAreListedAcrossNodesInNodeOrder) {
  const auto graph = Text<tensorflow::GraphDef>(R"pb(
    node { name: "images" op: "Placeholder" }
    node { name: "s/m" op: "MatMul" input: "images" input: "images" }
    node { name: "s/n" op: "Identity" input: "s/m" input: "^t/x" }
  )pb");
  Exported out = ScopeBothForms(graph, ScopePasses("s"));
  EXPECT_EQ(mgtest::NodeNames(out.nodes), (std::vector<std::string>{"m", "n"}));
  // Every use, in input order, control form included: the export decides what to list.
  EXPECT_EQ(out.unbound,
            (std::vector<std::string>{"$unbound_inputs_images", "$unbound_inputs_images",
                                      "^$unbound_inputs_t/x"}));
}

TEST(ExportScopeTest, WithoutAScopeTheNodeIsCopiedWhole) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
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
  r.Run("");
  EXPECT_TRUE(MessagesEqual(r.in, r.out));
  EXPECT_TRUE(r.unbound.empty());
}

TEST(ExportScopeTest, ScopeKeepsTheDeviceAndDebugInfoAsTheyAre) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/v"
    op: "Identity"
    device: "/device:GPU:0"
    input: "s/x"
    experimental_debug_info { original_node_names: "s/orig" }
  )pb"));
  r.Run("s");
  EXPECT_EQ(r.out.device(), "/device:GPU:0");
  // TensorFlow does not touch experimental_debug_info.
  EXPECT_TRUE(MessagesEqual(r.in.experimental_debug_info(), r.out.experimental_debug_info()));
}

TEST(ExportScopeTest, ColocationEntriesAreFilteredAndStripped) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/a"
    op: "Identity"
    input: "s/v"
    attr {
      key: "_class"
      value { list { s: "loc:@s/v" s: "loc:@t/w" s: "loc:@s/u/x" s: "loc:@sv/y" } }
    }
  )pb"));
  r.Run("s");
  const tensorflow::AttrValue& cls = r.out.attr().at("_class");
  ASSERT_EQ(cls.value_case(), tensorflow::AttrValue::kList);
  EXPECT_EQ(ToVector(cls.list().s()), (std::vector<std::string>{"loc:@v", "loc:@u/x"}));
  // Dropped entries are not unbound inputs.
  EXPECT_TRUE(r.unbound.empty());
}

TEST(ExportScopeTest, ColocationAttrStaysAsAnEmptyListWhenEveryEntryIsDropped) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
    name: "hidden1/weights"
    op: "VariableV2"
    attr {
      key: "_class"
      value { list { s: "loc:@constraint" } }
    }
  )pb"));
  r.Run("hidden1");
  ASSERT_EQ(r.out.attr().count("_class"), 1u);
  const tensorflow::AttrValue& cls = r.out.attr().at("_class");
  EXPECT_EQ(cls.value_case(), tensorflow::AttrValue::kList);
  EXPECT_EQ(cls.list().s_size(), 0);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::AttrValue>("list {}"), cls));
}

// TensorFlow rewrites _class as a fresh list of strings: other list fields are lost.
TEST(ExportScopeTest, ColocationAttrIsRewrittenAsAStringList) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/a"
    op: "NoOp"
    attr {
      key: "_class"
      value { list { s: "loc:@s/v" i: 7 } }
    }
  )pb"));
  r.Run("s");
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::AttrValue>(R"pb(list { s: "loc:@v" })pb"),
                            r.out.attr().at("_class")));
}

TEST(ExportScopeTest, ColocationAttrIsUntouchedWithoutAScope) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/a"
    op: "NoOp"
    device: "/cpu:0"
    attr {
      key: "_class"
      value { list { s: "loc:@t/w" i: 7 } }
    }
  )pb"));
  r.Run("");
  EXPECT_TRUE(MessagesEqual(r.in.attr().at("_class"), r.out.attr().at("_class")));
}

TEST(ExportScopeTest, EnterFrameNameIsStrippedInsideTheScope) {
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
    Scoped r(node);
    r.Run("hidden2");
    EXPECT_EQ(r.out.name(), "while/Enter");
    EXPECT_EQ(r.out.attr().at("frame_name").s(), "while/while_context");
    EXPECT_EQ(r.out.attr().at("parallel_iterations").i(), 10);
    EXPECT_FALSE(r.out.attr().at("is_constant").b());
  }
}

// TensorFlow fails on an unset variable here; graphport keeps the name (README).
TEST(ExportScopeTest, EnterFrameNameOutsideTheScopeIsKept) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/Enter"
    op: "Enter"
    input: "s/x"
    attr {
      key: "frame_name"
      value { s: "outer/while/while_context" }
    }
  )pb"));
  r.Run("s");
  EXPECT_EQ(r.out.attr().at("frame_name").s(), "outer/while/while_context");
}

TEST(ExportScopeTest, FrameNameOfOtherOpsIsNotTouched) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/Exit"
    op: "Exit"
    input: "s/x"
    attr {
      key: "frame_name"
      value { s: "s/while/while_context" }
    }
  )pb"));
  r.Run("s");
  EXPECT_EQ(r.out.attr().at("frame_name").s(), "s/while/while_context");
}

TEST(ExportScopeTest, EnterFrameNameIsUntouchedWithoutAScope) {
  Scoped r(Text<tensorflow::NodeDef>(R"pb(
    name: "s/Enter"
    op: "Enter"
    device: "/cpu:0"
    attr {
      key: "frame_name"
      value { s: "s/while/while_context" }
    }
  )pb"));
  r.Run("");
  EXPECT_EQ(r.out.attr().at("frame_name").s(), "s/while/while_context");
}

TEST(ExportScopeTest, UnknownFieldsSurvive) {
  tensorflow::NodeDef node = Text<tensorflow::NodeDef>(R"pb(name: "s/a" op: "NoOp")pb");
  graphport::testing::AddUnknownVarint(&node, 99, 7);
  Scoped r(node);
  r.Run("s");
  auto reference = graphport::testing::ReferenceCopy(r.out);
  const auto& unknown = reference->GetReflection()->GetUnknownFields(*reference);
  ASSERT_EQ(unknown.field_count(), 1);
  EXPECT_EQ(unknown.field(0).number(), 99);
  EXPECT_EQ(unknown.field(0).varint(), 7u);
}

TEST(ExportScopeTest, NodeInExport) {
  Scope s("s");
  EXPECT_TRUE(NodeInExport("s", s));
  EXPECT_TRUE(NodeInExport("s/a", s));
  EXPECT_TRUE(NodeInExport("s/a/b", s));
  // TensorFlow keeps unbound-input placeholders of an earlier scoped export.
  EXPECT_TRUE(NodeInExport("$unbound_inputs_x", s));
  EXPECT_FALSE(NodeInExport("t/a", s));
  EXPECT_FALSE(NodeInExport("sa/b", s));
  EXPECT_TRUE(NodeInExport("anything", Scope("")));
}

TEST(ExportScopeTest, BothFormsKeepTheNodesInTheScope) {
  const auto graph = Text<tensorflow::GraphDef>(R"pb(
    node { name: "s" op: "NoOp" }
    node { name: "s/a" op: "NoOp" }
    node { name: "t/a" op: "NoOp" }
    node { name: "s/a/b" op: "NoOp" }
    node { name: "$unbound_inputs_x" op: "Placeholder" }
    node { name: "sa/b" op: "NoOp" }
  )pb");
  Exported out = ScopeBothForms(graph, ScopePasses("s"));
  EXPECT_EQ(mgtest::NodeNames(out.nodes),
            (std::vector<std::string>{"s", "a", "a/b", "$unbound_inputs_x"}));
}

// A node written otherwise than libprotobuf writes it (a device record after its attrs) is
// renamed from its parse, to the same bytes as a parsed node; a canonical one beside it from
// its bytes; clear_devices after the scope, as the export orders them.
TEST(ExportScopeTest, ANodeWrittenOtherwiseIsScopedAlike) {
  const auto canonical = Text<tensorflow::NodeDef>(R"pb(
    name: "s/a"
    op: "Identity"
    input: "s/x"
    input: "t/y"
    device: "/cpu:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  )pb");
  tensorflow::NodeDef tail;
  tail.set_device("/device:GPU:0");
  // GraphDef.node is field 1: a record of the node's bytes, then its device once more.
  const std::string node_bytes = mgtest::Deterministic(canonical) + mgtest::Deterministic(tail);
  std::string graph_bytes = mgtest::Deterministic(Text<tensorflow::GraphDef>(R"pb(
    node { name: "s/x" op: "Placeholder" device: "/cpu:0" }
  )pb"));
  graph_bytes += '\x0a';
  graph_bytes += static_cast<char>(node_bytes.size());
  graph_bytes += node_bytes;
  tensorflow::GraphDef graph;
  ASSERT_TRUE(graph.ParseFromString(graph_bytes));
  for (bool clear : {false, true}) {
    SCOPED_TRACE(clear ? "with clear_devices" : "scope alone");
    NodePasses passes = ScopePasses("s");
    if (clear) passes.push_back(std::make_shared<ClearDevices>());
    const std::string parsed = mgtest::ParsedNodeRecords(graph, passes);
    WireNodeFacts facts;
    const std::string wire = mgtest::WireNodeRecordsOf(graph_bytes, passes, &facts);
    EXPECT_TRUE(parsed == wire);
    tensorflow::GraphDef out;
    ASSERT_TRUE(out.ParseFromString(wire));
    ASSERT_EQ(out.node_size(), 2);
    EXPECT_EQ(out.node(1).name(), "a");
    EXPECT_EQ(ToVector(out.node(1).input()),
              (std::vector<std::string>{"x", "$unbound_inputs_t/y"}));
    EXPECT_EQ(out.node(1).device(), clear ? "" : "/device:GPU:0");
    EXPECT_EQ(out.node(0).device(), clear ? "" : "/cpu:0");
    EXPECT_EQ(facts.unbound, (std::vector<std::string>{"$unbound_inputs_t/y"}));
  }
}

}  // namespace
}  // namespace graphport::tf
