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

// testDefaultAttrStripping: Complex(float32, float32) loses T and Tout.
TEST(StripDefaultAttrsTest, ComplexWithFloat32InputsLosesTAndTout) {
  tensorflow::GraphDef graph = mgtest::DefaultAttrComplexGraph("DT_FLOAT", "DT_COMPLEX64");
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, mgtest::TfOpsRegistry(), &result);
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
  tensorflow::GraphDef graph = mgtest::DefaultAttrComplexGraph("DT_DOUBLE", "DT_COMPLEX128");
  tensorflow::GraphDef before = graph;
  StripDefaultAttrsResult result;
  StripGraphDefaultAttrs(&graph, mgtest::TfOpsRegistry(), &result);
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
  StripGraphDefaultAttrs(&graph, mgtest::TfOpsRegistry(), &result);
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
  StripGraphDefaultAttrs(&graph, mgtest::TfOpsRegistry(), &result);
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
  StripGraphDefaultAttrs(&graph, mgtest::TfOpsRegistry(), &result);
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
  StripGraphDefaultAttrs(&graph, mgtest::TfOpsRegistry(), &result);
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

}  // namespace
}  // namespace graphport::tf
