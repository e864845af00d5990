// strip_default_attrs (TensorFlow's strip_graph_default_valued_attrs, tensorflow.md §1.7) with
// TensorFlow's op registry from the corpus; the TF cases are meta_graph_test.py
// testDefaultAttrStripping*.
#include "tf/meta_graph/strip_default_attrs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/output_set.h"
#include "meta_graph_test_util.h"
#include "node_pass_test_util.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf_test_graphs.h"

namespace graphport::tf {
namespace {

using mgtest::MessagesEqual;
using mgtest::Text;

OpRegistry TfRegistry() {
  OpRegistry registry;
  registry.AddLayer(&mgtest::TfOps(), "ops.pbtxt", true);
  return registry;
}

tensorflow::GraphDef ComplexGraph(const char* input_type, const char* output_type) {
  tensorflow::GraphDef graph;
  for (const char* name : {"real", "imag"}) {
    tensorflow::NodeDef* v = mgtest::AddNode(&graph, name, "VariableV2");
    mgtest::SetAttr(v, "dtype", std::string("type: ") + input_type);
    mgtest::SetAttr(v, "shape", "shape {}");
  }
  tensorflow::NodeDef* c =
      mgtest::AddNode(&graph, "complex", "Complex", {"real/read", "imag/read"});
  mgtest::SetAttr(c, "T", std::string("type: ") + input_type);
  mgtest::SetAttr(c, "Tout", std::string("type: ") + output_type);
  return graph;
}

// testDefaultAttrStripping: Complex(float32, float32) loses T and Tout.
TEST(StripDefaultAttrsTest, ComplexWithFloat32InputsLosesTAndTout) {
  tensorflow::GraphDef graph = ComplexGraph("DT_FLOAT", "DT_COMPLEX64");
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, TfRegistry(), &result);
  const tensorflow::NodeDef* complex = mgtest::FindNode(graph, "complex");
  ASSERT_NE(complex, nullptr);
  EXPECT_EQ(complex->attr().count("T"), 0u);
  EXPECT_EQ(complex->attr().count("Tout"), 0u);
  // VariableV2's container and shared_name were never set; dtype and shape have no default.
  EXPECT_EQ(mgtest::FindNode(graph, "real")->attr_size(), 2);
  EXPECT_EQ(result.removed, 2);
  EXPECT_TRUE(result.unknown_ops.empty());
}

// ... and with float64 inputs T=float64 and Tout=complex128 are kept.
TEST(StripDefaultAttrsTest, ComplexWithFloat64InputsKeepsTAndTout) {
  tensorflow::GraphDef graph = ComplexGraph("DT_DOUBLE", "DT_COMPLEX128");
  tensorflow::GraphDef before = graph;
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, TfRegistry(), &result);
  EXPECT_TRUE(MessagesEqual(before, graph));
  EXPECT_EQ(result.removed, 0);
}

// testDefaultAttrStrippingNestedFunctions: f1 calls f0, whose Complex node is stripped.
TEST(StripDefaultAttrsTest, ComplexInsideADoublyNestedFunctionIsStripped) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node {
      name: "Const"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "Const_1"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node { name: "f1" op: "f1" input: "Const" input: "Const_1" }
    library {
      function {
        signature {
          name: "f0"
          input_arg { name: "i" type: DT_FLOAT }
          input_arg { name: "j" type: DT_FLOAT }
        }
        node_def {
          name: "double_nested_complex"
          op: "Complex"
          input: "i"
          input: "j"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
          attr {
            key: "Tout"
            value { type: DT_COMPLEX64 }
          }
        }
      }
      function {
        signature {
          name: "f1"
          input_arg { name: "i" type: DT_FLOAT }
          input_arg { name: "j" type: DT_FLOAT }
        }
        node_def {
          name: "f0"
          op: "f0"
          input: "i"
          input: "j"
          attr {
            key: "T"
            value { type: DT_FLOAT }
          }
        }
      }
    }
  )pb");
  const tensorflow::NodeDef& complex = graph.library().function(0).node_def(0);
  ASSERT_EQ(complex.attr_size(), 2);
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, TfRegistry(), &result);
  EXPECT_EQ(complex.attr().count("T"), 0u);
  EXPECT_EQ(complex.attr().count("Tout"), 0u);
  // Calls of library functions are never stripped: functions have no OpDef defaults.
  EXPECT_EQ(graph.library().function(1).node_def(0).attr().count("T"), 1u);
  EXPECT_TRUE(result.unknown_ops.empty()) << "function calls are not unknown ops";
  EXPECT_EQ(result.removed, 2);
}

// A library function shadowing a registered op's name is still a function call.
TEST(StripDefaultAttrsTest, NodesCallingAFunctionAreSkippedEvenIfAnOpHasTheName) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node {
      name: "c"
      op: "Cast"
      attr {
        key: "Truncate"
        value { b: false }
      }
    }
    library { function { signature { name: "Cast" } } }
  )pb");
  tensorflow::GraphDef before = graph;
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, TfRegistry(), &result);
  EXPECT_TRUE(MessagesEqual(before, graph));
}

// testDefaultAttrStrippingUnregisteredOps: the unknown op keeps attr_1=1 and is reported.
TEST(StripDefaultAttrsTest, UnregisteredOpsKeepTheirAttrsAndAreReported) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node {
      name: "node_with_unreg_op"
      op: "unreg_op"
      attr {
        key: "attr_1"
        value { i: 1 }
      }
    }
    library {
      function {
        signature { name: "fn" }
        node_def { name: "x" op: "other_unreg_op" }
      }
    }
  )pb");
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, TfRegistry(), &result);
  EXPECT_EQ(graph.node(0).attr().at("attr_1").i(), 1);
  EXPECT_EQ(result.unknown_ops, (std::set<std::string>{"other_unreg_op", "unreg_op"}));
  EXPECT_EQ(result.removed, 0);
}

// Attrs whose name starts with "_" are never in a registered OpDef (ops.pbtxt has none), so
// TensorFlow never strips them. That holds whatever registry the caller supplies.
TEST(StripDefaultAttrsTest, UnderscoreAttrsAreNeverStripped) {
  for (const auto& op : mgtest::TfOps().op()) {
    for (const auto& attr : op.attr())
      EXPECT_NE(attr.name()[0], '_') << op.name() << "." << attr.name();
  }
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node {
      name: "m"
      op: "MatMul"
      attr {
        key: "transpose_a"
        value { b: false }
      }
      attr {
        key: "_class"
        value { list {} }
      }
      attr {
        key: "_output_shapes"
        value { list {} }
      }
      attr {
        key: "_user_specified_name"
        value { s: "" }
      }
    }
  )pb");
  // A caller's registry that (wrongly) declares defaults for "_" attrs.
  tensorflow::OpList odd = Text<tensorflow::OpList>(R"pb(
    op {
      name: "MatMul"
      attr {
        name: "transpose_a"
        type: "bool"
        default_value { b: false }
      }
      attr {
        name: "_class"
        type: "list(string)"
        default_value { list {} }
      }
      attr {
        name: "_output_shapes"
        type: "list(shape)"
        default_value { list {} }
      }
      attr {
        name: "_user_specified_name"
        type: "string"
        default_value { s: "" }
      }
    }
  )pb");
  for (const tensorflow::OpList* ops :
       std::vector<const tensorflow::OpList*>{&mgtest::TfOps(), &odd}) {
    OpRegistry registry;
    registry.AddLayer(ops, "registry", true);
    tensorflow::GraphDef stripped = graph;
    StripDefaultAttrsResult result;
    StripGraphDefaultAttrs(&stripped, registry, &result);
    const auto& attrs = stripped.node(0).attr();
    EXPECT_EQ(attrs.count("transpose_a"), 0u);
    EXPECT_EQ(attrs.count("_class"), 1u);
    EXPECT_EQ(attrs.count("_output_shapes"), 1u);
    EXPECT_EQ(attrs.count("_user_specified_name"), 1u);
    EXPECT_EQ(result.removed, 1);
  }
}

TEST(StripDefaultAttrsTest, OnlyValuesEqualToTheDefaultAreRemoved) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node {
      name: "conv"
      op: "Conv2D"
      attr {
        key: "T"
        value { type: DT_FLOAT }
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
        key: "use_cudnn_on_gpu"
        value { b: true }
      }
      attr {
        key: "data_format"
        value { s: "NCHW" }
      }
      attr {
        key: "dilations"
        value { list { i: 1 i: 1 i: 1 i: 1 } }
      }
      attr {
        key: "explicit_paddings"
        value { list {} }
      }
    }
    node {
      name: "p"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "shape"
        value { shape { unknown_rank: true } }
      }
    }
    node {
      name: "p2"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "shape"
        value { shape { dim { size: -1 } } }
      }
    }
  )pb");
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, TfRegistry(), &result);
  std::vector<std::string> kept;
  for (const auto& [key, value] : graph.node(0).attr()) kept.push_back(key);
  std::sort(kept.begin(), kept.end());
  // T has no default in Conv2D's OpDef; strides and padding none either; data_format is not NHWC.
  EXPECT_EQ(kept, (std::vector<std::string>{"T", "data_format", "padding", "strides"}));
  EXPECT_EQ(graph.node(1).attr().count("shape"), 0u);
  EXPECT_EQ(graph.node(2).attr().count("shape"), 1u);
  EXPECT_EQ(result.removed, 4);
}

// The registry's first layer that knows an op decides: TF 0.12's Placeholder default
// (shape {}) differs from later TensorFlow's (unknown_rank).
TEST(StripDefaultAttrsTest, TheFirstRegistryLayerKnowingTheOpDecides) {
  tensorflow::OpList producer = Text<tensorflow::OpList>(R"pb(
    op {
      name: "Placeholder"
      attr { name: "dtype" type: "type" }
      attr {
        name: "shape"
        type: "shape"
        default_value { shape {} }
      }
    }
  )pb");
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node {
      name: "x"
      op: "Placeholder"
      attr {
        key: "shape"
        value { shape {} }
      }
    }
  )pb");
  {
    OpRegistry registry;
    registry.AddLayer(&producer, "stripped_op_list", true);
    registry.AddLayer(&mgtest::TfOps(), "ops.pbtxt", true);
    tensorflow::GraphDef g = graph;
    StripDefaultAttrsResult result;
    StripGraphDefaultAttrs(&g, registry, &result);
    EXPECT_EQ(g.node(0).attr_size(), 0);
  }
  {
    OpRegistry registry;
    registry.AddLayer(&mgtest::TfOps(), "ops.pbtxt", true);
    registry.AddLayer(&producer, "stripped_op_list", true);
    tensorflow::GraphDef g = graph;
    StripDefaultAttrsResult result;
    StripGraphDefaultAttrs(&g, registry, &result);
    EXPECT_EQ(g.node(0).attr_size(), 1);
  }
}

// With no registry but the built-in table, a GraphDef's common ops still lose their defaults.
TEST(StripDefaultAttrsTest, BuiltinDefaultsWorkWithoutARegistry) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node {
      name: "m"
      op: "MatMul"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
      attr {
        key: "transpose_a"
        value { b: false }
      }
      attr {
        key: "transpose_b"
        value { b: true }
      }
    }
    node {
      name: "u"
      op: "Unlisted"
      attr {
        key: "x"
        value { i: 0 }
      }
    }
  )pb");
  OpRegistry registry;
  registry.AddLayer(&BuiltinDefaultsOpList(), "built-in defaults", false);
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, registry, &result);
  EXPECT_EQ(graph.node(0).attr().count("transpose_a"), 0u);
  EXPECT_EQ(graph.node(0).attr().count("transpose_b"), 1u);
  EXPECT_EQ(graph.node(0).attr().count("T"), 1u);
  EXPECT_EQ(result.unknown_ops, (std::set<std::string>{"Unlisted"}));
}

// Tensor-valued defaults compare by value (AreAttrValuesEqual).
TEST(StripDefaultAttrsTest, TensorDefaultsCompareByValue) {
  tensorflow::OpList ops = Text<tensorflow::OpList>(R"pb(
    op {
      name: "WithTensorDefault"
      attr {
        name: "t"
        type: "tensor"
        default_value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape { dim { size: 2 } }
            float_val: 0.5
          }
        }
      }
    }
  )pb");
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node {
      name: "a"
      op: "WithTensorDefault"
      attr {
        key: "t"
        value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape { dim { size: 2 } }
            tensor_content: "\000\000\000?\000\000\000?"
          }
        }
      }
    }
    node {
      name: "b"
      op: "WithTensorDefault"
      attr {
        key: "t"
        value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape { dim { size: 2 } }
            tensor_content: "\000\000\000?\000\000\200?"
          }
        }
      }
    }
  )pb");
  OpRegistry registry;
  registry.AddLayer(&ops, "test", true);
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, registry, &result);
  EXPECT_EQ(graph.node(0).attr_size(), 0);
  EXPECT_EQ(graph.node(1).attr_size(), 1);
}

// The pass over both forms of a node (node_view.h): a graph giving it each case, an attr
// equal to its default, one that differs, an op with no default set, an op no registry knows,
// a call of a library function.
constexpr char kMixedGraph[] = R"pb(
  node {
    name: "p"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { unknown_rank: true } }
    }
  }
  node {
    name: "p2"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: -1 } } }
    }
  }
  node {
    name: "conv"
    op: "Conv2D"
    input: "p"
    input: "p2"
    device: "/device:GPU:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "data_format"
      value { s: "NCHW" }
    }
    attr {
      key: "dilations"
      value { list { i: 1 i: 1 i: 1 i: 1 } }
    }
    attr {
      key: "explicit_paddings"
      value { list {} }
    }
    attr {
      key: "padding"
      value { s: "SAME" }
    }
    attr {
      key: "strides"
      value { list { i: 1 i: 1 i: 1 i: 1 } }
    }
    attr {
      key: "use_cudnn_on_gpu"
      value { b: true }
    }
  }
  node {
    name: "m"
    op: "MatMul"
    input: "conv"
    input: "p2"
    attr {
      key: "transpose_a"
      value { b: false }
    }
    attr {
      key: "transpose_b"
      value { b: true }
    }
  }
  node {
    name: "u"
    op: "unreg_op"
    attr {
      key: "transpose_a"
      value { b: false }
    }
  }
  node {
    name: "call"
    op: "fn"
    input: "m"
    attr {
      key: "transpose_a"
      value { b: false }
    }
  }
  library {
    function {
      signature { name: "fn" }
      node_def {
        name: "inner"
        op: "Conv2D"
        attr {
          key: "use_cudnn_on_gpu"
          value { b: true }
        }
      }
    }
  }
)pb";

std::shared_ptr<StripDefaultAttrs> StripFor(const tensorflow::GraphDef& graph) {
  return std::make_shared<StripDefaultAttrs>(TfRegistry(), LibraryFunctionNames(graph));
}

std::vector<std::string> AttrKeys(const tensorflow::NodeDef& node) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : node.attr()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

TEST(StripDefaultAttrsTest, BothFormsWriteTheSameNodes) {
  const auto graph = Text<tensorflow::GraphDef>(kMixedGraph);
  auto parsed_pass = StripFor(graph), wire_pass = StripFor(graph);
  const std::string parsed = mgtest::ParsedNodeRecords(graph, {parsed_pass});
  const std::string wire = mgtest::WireNodeRecords(graph, {wire_pass});
  EXPECT_TRUE(parsed == wire);
  EXPECT_FALSE(parsed == mgtest::ParsedNodeRecords(graph, {}));
  const std::set<std::string> unknown = {"unreg_op"};
  EXPECT_EQ(parsed_pass->unknown_ops(), unknown);
  EXPECT_EQ(wire_pass->unknown_ops(), unknown);

  tensorflow::GraphDef stripped;
  ASSERT_TRUE(stripped.ParseFromString(parsed));
  ASSERT_EQ(stripped.node_size(), graph.node_size());
  EXPECT_EQ(AttrKeys(stripped.node(0)), std::vector<std::string>{"dtype"});
  EXPECT_EQ(AttrKeys(stripped.node(1)), (std::vector<std::string>{"dtype", "shape"}));
  EXPECT_EQ(AttrKeys(stripped.node(2)),
            (std::vector<std::string>{"T", "data_format", "padding", "strides"}));
  EXPECT_EQ(stripped.node(2).device(), "/device:GPU:0");  // only attrs change
  EXPECT_EQ(AttrKeys(stripped.node(3)), std::vector<std::string>{"transpose_b"});
  // The unknown op and the call of the library's function keep theirs.
  EXPECT_TRUE(mgtest::MessagesEqual(stripped.node(4), graph.node(4)));
  EXPECT_TRUE(mgtest::MessagesEqual(stripped.node(5), graph.node(5)));
}

// A node written otherwise than libprotobuf writes it: its attr "T" comes twice, and a parse
// keeps the second (DT_FLOAT, Complex's default), so a read of the bytes must keep it too.
TEST(StripDefaultAttrsTest, ANodeWrittenOtherwiseIsReadAsItsParseIs) {
  tensorflow::GraphDef graph = ComplexGraph("DT_DOUBLE", "DT_COMPLEX64");
  tensorflow::NodeDef later_t;
  mgtest::SetAttr(&later_t, "T", "type: DT_FLOAT");
  std::string bytes;
  for (int i = 0; i < graph.node_size(); ++i) {
    std::string node = mgtest::Deterministic(graph.node(i));
    if (graph.node(i).name() == "complex") node += mgtest::Deterministic(later_t);
    bytes += '\x0a';  // GraphDef.node, length-delimited; each node is under 128 bytes
    ASSERT_LT(node.size(), 128u);
    bytes += static_cast<char>(node.size());
    bytes += node;
  }
  tensorflow::GraphDef as_parsed;
  ASSERT_TRUE(as_parsed.ParseFromString(bytes));
  ASSERT_EQ(mgtest::FindNode(as_parsed, "complex")->attr().at("T").type(), tensorflow::DT_FLOAT);

  const std::string parsed = mgtest::ParsedNodeRecords(as_parsed, {StripFor(as_parsed)});
  EXPECT_TRUE(parsed == mgtest::WireNodeRecordsOf(bytes, {StripFor(as_parsed)}));
  tensorflow::GraphDef stripped;
  ASSERT_TRUE(stripped.ParseFromString(parsed));
  EXPECT_EQ(mgtest::FindNode(stripped, "complex")->attr_size(), 0);
}

TEST(StripDefaultAttrsTest, ExportsOfBothModelFormsAreTheSameBytesAndCounts) {
  const auto graph = Text<tensorflow::GraphDef>(kMixedGraph);
  mgtest::BothModels models = mgtest::LoadBothWays(mgtest::Deterministic(graph));
  TfExportOptions options;
  options.to = TfKind::kGraphDef;
  options.strip_default_attrs = true;
  options.op_registry = &mgtest::TfOps();
  for (bool clear_devices : {false, true}) {
    SCOPED_TRACE(clear_devices ? "with clearDevices" : "alone");
    options.clear_devices = clear_devices;
    MemoryOutputSet wire_out, parsed_out;
    const nlohmann::json wire_info = Export(models.wire.get(), options, &wire_out);
    const nlohmann::json parsed_info = Export(models.parsed.get(), options, &parsed_out);
    ASSERT_EQ(wire_out.files().size(), 1u);
    ASSERT_EQ(parsed_out.files().size(), 1u);
    EXPECT_TRUE(wire_out.files()[0].bytes == parsed_out.files()[0].bytes);
    // p's shape, conv's dilations, explicit_paddings and use_cudnn_on_gpu, m's transpose_a,
    // and the library's inner use_cudnn_on_gpu.
    EXPECT_EQ(wire_info["strippedDefaultAttrs"], 6);
    EXPECT_EQ(parsed_info["strippedDefaultAttrs"], 6);
    EXPECT_EQ(wire_info["unknownDefaultOps"], nlohmann::json::array({"unreg_op"}));
    EXPECT_EQ(parsed_info["unknownDefaultOps"], nlohmann::json::array({"unreg_op"}));
  }
  EXPECT_NE(models.wire->wire_graph(), nullptr);  // written from its bytes, never parsed
}

}  // namespace
}  // namespace graphport::tf
