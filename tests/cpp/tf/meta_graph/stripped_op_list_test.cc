// meta_info_def.stripped_op_list (tensorflow.md §1.6 step 4; meta_graph_test.py
// testStrippedOpList*), against TensorFlow's op registry from the corpus.
#include "tf/meta_graph/stripped_op_list.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "meta_graph_test_util.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf_test_graphs.h"

namespace graphport::tf {
namespace {

using mgtest::AddNode;
using mgtest::MessagesEqual;
using mgtest::Text;
using Names = std::vector<std::string>;

Names OpNames(const tensorflow::OpList& ops) {
  Names names;
  for (const auto& op : ops.op()) names.push_back(op.name());
  return names;
}

struct Built {
  tensorflow::OpList ops;
  Names unregistered;
};

Built BuildWithTfRegistry(const tensorflow::GraphDef& graph) {
  OpRegistry registry;
  registry.AddLayer(&mgtest::TfOps(), "ops.pbtxt", true);
  Built b;
  BuildStrippedOpList(graph, registry, &b.ops, &b.unregistered);
  return b;
}

// f1 calls f0, f0 squares. meta_graph_test.py testStrippedOpListNestedFunctions.
constexpr char kNestedFunctions[] = R"pb(
  library {
    function {
      signature {
        name: "f0"
        input_arg { name: "x" type: DT_INT32 }
        output_arg { name: "y" type: DT_INT32 }
      }
      node_def {
        name: "Square"
        op: "Square"
        input: "x"
        attr {
          key: "T"
          value { type: DT_INT32 }
        }
      }
      ret { key: "y" value: "Square:y:0" }
    }
    function {
      signature {
        name: "f1"
        input_arg { name: "x" type: DT_INT32 }
        output_arg { name: "y" type: DT_INT32 }
      }
      node_def { name: "f0" op: "f0" input: "x" }
      ret { key: "y" value: "f0:y:0" }
    }
  }
)pb";

TEST(StrippedOpListTest, FunctionsDefinedButNeverCalledUseNoOps) {
  auto graph = Text<tensorflow::GraphDef>(kNestedFunctions);
  EXPECT_TRUE(OpsUsedByGraph(graph).empty());
  Built b = BuildWithTfRegistry(graph);
  EXPECT_EQ(b.ops.op_size(), 0);
  EXPECT_TRUE(b.unregistered.empty());
}

TEST(StrippedOpListTest, CallingANestedFunctionUsesItsBodyOps) {
  auto graph = Text<tensorflow::GraphDef>(kNestedFunctions);
  AddNode(&graph, "Const", "Const");
  AddNode(&graph, "f1", "f1", {"Const"});
  Built b = BuildWithTfRegistry(graph);
  EXPECT_EQ(OpNames(b.ops), (Names{"Const", "Square"}));
  EXPECT_TRUE(b.unregistered.empty()) << "function names are not ops";
  // Each entry is TensorFlow's OpDef (ops.pbtxt carries no descriptions to remove).
  EXPECT_TRUE(MessagesEqual(*mgtest::FindOp(mgtest::TfOps(), "Const"), b.ops.op(0)));
  EXPECT_TRUE(MessagesEqual(*mgtest::FindOp(mgtest::TfOps(), "Square"), b.ops.op(1)));
}

// meta_graph_test.py testStrippedOpListRecursiveFunctions: A calls B calls A and Const.
TEST(StrippedOpListTest, RecursiveFunctionsTerminate) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node { op: "A" }
    library {
      function {
        signature { name: "A" }
        node_def { op: "B" }
      }
      function {
        signature { name: "B" }
        node_def { op: "Const" }
        node_def { op: "A" }
      }
    }
  )pb");
  EXPECT_EQ(OpsUsedByGraph(graph), (Names{"Const"}));
  EXPECT_EQ(OpNames(BuildWithTfRegistry(graph).ops), (Names{"Const"}));
}

TEST(StrippedOpListTest, PartitionedCallFunctionAttrIsDescended) {
  for (const char* op : {"PartitionedCall", "StatefulPartitionedCall"}) {
    SCOPED_TRACE(op);
    auto graph = Text<tensorflow::GraphDef>(R"pb(
      node { name: "x" op: "Placeholder" }
      node {
        name: "call"
        input: "x"
        attr {
          key: "f"
          value { func { name: "g" } }
        }
      }
      library {
        function {
          signature { name: "g" }
          node_def { name: "s" op: "Sin" }
          node_def { name: "h" op: "h" }
        }
        function {
          signature { name: "h" }
          node_def { name: "e" op: "Exp" }
        }
        function {
          signature { name: "unused" }
          node_def { name: "c" op: "Cos" }
        }
      }
    )pb");
    graph.mutable_node(1)->set_op(op);
    Names expected = {"Exp", "Placeholder", op, "Sin"};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(OpsUsedByGraph(graph), expected);
    Built b = BuildWithTfRegistry(graph);
    EXPECT_EQ(OpNames(b.ops), expected);
    EXPECT_TRUE(b.unregistered.empty());
  }
}

// graphport follows every function-valued attr (README: differences from TensorFlow).
TEST(StrippedOpListTest, WhileBodyAndCondFunctionsAreDescended) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node { name: "i" op: "Const" }
    node {
      name: "while"
      op: "While"
      input: "i"
      attr {
        key: "cond"
        value { func { name: "cond_fn" } }
      }
      attr {
        key: "body"
        value { func { name: "body_fn" } }
      }
    }
    node {
      name: "case"
      op: "Case"
      input: "i"
      attr {
        key: "branches"
        value {
          list {
            func { name: "branch0" }
            func { name: "branch1" }
          }
        }
      }
    }
    node {
      name: "nested"
      op: "StatelessIf"
      input: "i"
      attr {
        key: "then_branch"
        value {
          func {
            name: "outer"
            attr {
              key: "inner"
              value { func { name: "inner_fn" } }
            }
          }
        }
      }
    }
    library {
      function {
        signature { name: "cond_fn" }
        node_def { name: "l" op: "Less" }
      }
      function {
        signature { name: "body_fn" }
        node_def { name: "a" op: "AddV2" }
      }
      function {
        signature { name: "branch0" }
        node_def { name: "n" op: "Neg" }
      }
      function {
        signature { name: "branch1" }
        node_def { name: "b" op: "Abs" }
      }
      function {
        signature { name: "outer" }
        node_def { name: "o" op: "Identity" }
      }
      function {
        signature { name: "inner_fn" }
        node_def { name: "t" op: "Tanh" }
      }
    }
  )pb");
  Names expected = {"Abs",  "AddV2", "Case",        "Const", "Identity",
                    "Less", "Neg",   "StatelessIf", "Tanh",  "While"};
  EXPECT_EQ(OpsUsedByGraph(graph), expected);
  EXPECT_EQ(OpNames(BuildWithTfRegistry(graph).ops), expected);
}

TEST(StrippedOpListTest, SortedByCodePoint) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node { op: "b" }
    node { op: "_x" }
    node { op: "B" }
    node { op: "A" }
    node { op: "a" }
    node { op: "B" }
  )pb");
  // Python's sort: uppercase < "_" < lowercase.
  EXPECT_EQ(OpsUsedByGraph(graph), (Names{"A", "B", "_x", "a", "b"}));
}

TEST(StrippedOpListTest, DescriptionsAreRemoved) {
  tensorflow::OpList registry_ops = Text<tensorflow::OpList>(R"pb(
    op {
      name: "Documented"
      input_arg { name: "x" description: "the input" type: DT_FLOAT }
      output_arg { name: "y" description: "the output" type: DT_FLOAT }
      attr {
        name: "k"
        type: "int"
        default_value { i: 1 }
        description: "an attr"
      }
      summary: "A summary."
      description: "A description."
      is_stateful: true
    }
  )pb");
  OpRegistry registry;
  registry.AddLayer(&registry_ops, "test", true);
  tensorflow::OpList out;
  Names unregistered;
  BuildStrippedOpList(Text<tensorflow::GraphDef>(R"pb(node { op: "Documented" })pb"), registry,
                      &out, &unregistered);
  ASSERT_EQ(out.op_size(), 1);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::OpDef>(R"pb(
                              name: "Documented"
                              input_arg { name: "x" type: DT_FLOAT }
                              output_arg { name: "y" type: DT_FLOAT }
                              attr {
                                name: "k"
                                type: "int"
                                default_value { i: 1 }
                              }
                              is_stateful: true
                            )pb"),
                            out.op(0)));
}

TEST(StrippedOpListTest, UnregisteredOpsAreLeftOutAndReported) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node { op: "Const" }
    node { op: "MyCustomOp" }
    node { op: "MyCustomOp" }
    node { op: "call" }
    library {
      function {
        signature { name: "call" }
        node_def { op: "AnotherCustomOp" }
        node_def { op: "Add" }
      }
    }
  )pb");
  Built b = BuildWithTfRegistry(graph);
  EXPECT_EQ(OpNames(b.ops), (Names{"Add", "Const"}));
  EXPECT_EQ(b.unregistered, (Names{"AnotherCustomOp", "MyCustomOp"}));
}

// _Arg, _Retval, _ListToArray, _ArrayToList exist only in lowered function bodies; TensorFlow
// exempts them.
TEST(StrippedOpListTest, InternalFunctionOpsAreNeitherListedNorReported) {
  auto graph = Text<tensorflow::GraphDef>(R"pb(
    node { op: "fn" }
    node { op: "_Arg" }
    library {
      function {
        signature { name: "fn" }
        node_def { op: "_Arg" }
        node_def { op: "_Retval" }
        node_def { op: "_ListToArray" }
        node_def { op: "_ArrayToList" }
        node_def { op: "Relu" }
      }
    }
  )pb");
  Built b = BuildWithTfRegistry(graph);
  EXPECT_EQ(OpNames(b.ops), (Names{"Relu"}));
  EXPECT_TRUE(b.unregistered.empty());
}

// The built-in defaults table holds partial OpDefs, which must never reach a stripped_op_list.
TEST(StrippedOpListTest, OnlyCompleteRegistryLayersFeedTheList) {
  OpRegistry registry;
  registry.AddLayer(&BuiltinDefaultsOpList(), "built-in", false);
  tensorflow::OpList out;
  Names unregistered;
  BuildStrippedOpList(Text<tensorflow::GraphDef>(R"pb(node { op: "MatMul" })pb"), registry, &out,
                      &unregistered);
  EXPECT_EQ(out.op_size(), 0);
  EXPECT_EQ(unregistered, (Names{"MatMul"}));
}

TEST(StrippedOpListTest, TheFirstCompleteLayerThatKnowsAnOpWins) {
  tensorflow::OpList first =
      Text<tensorflow::OpList>(R"pb(op { name: "Relu" is_stateful: true })pb");
  OpRegistry registry;
  registry.AddLayer(&first, "first", true);
  registry.AddLayer(&mgtest::TfOps(), "ops.pbtxt", true);
  tensorflow::OpList out;
  Names unregistered;
  BuildStrippedOpList(Text<tensorflow::GraphDef>(R"pb(node { op: "Relu" }
                                                      node { op: "Tanh" })pb"),
                      registry, &out, &unregistered);
  ASSERT_EQ(OpNames(out), (Names{"Relu", "Tanh"}));
  EXPECT_TRUE(MessagesEqual(first.op(0), out.op(0)));
  EXPECT_TRUE(MessagesEqual(*mgtest::FindOp(mgtest::TfOps(), "Tanh"), out.op(1)));
}

TEST(StrippedOpListTest, FunctionNames) {
  EXPECT_EQ(FunctionNames(Text<tensorflow::GraphDef>(kNestedFunctions)),
            (std::set<std::string>{"f0", "f1"}));
  EXPECT_TRUE(FunctionNames(tensorflow::GraphDef()).empty());
}

// saver_test.py testStrippedOpListDef, V2: the graph of two variables, an Add, a Defun
// minus_one (Sub) called on Identity, and a V2 saver for v0.
TEST(StrippedOpListTest, SaverTestStrippedOpListDef) {
  tensorflow::MetaGraphDef mg;
  tensorflow::GraphDef* g = mg.mutable_graph_def();
  mgtest::AddConst(g, "Variable/initial_value", 0.0f);
  mgtest::AddVariable(&mg, "Variable", "Variable/initial_value");
  mgtest::AddConst(g, "Variable_1/initial_value", 10.0f);
  mgtest::AddVariable(&mg, "Variable_1", "Variable_1/initial_value");
  AddNode(g, "Add", "Add", {"Variable/read", "Variable_1/read"});
  AddNode(g, "Identity", "Identity", {"Variable/read"});
  AddNode(g, "minus_one_abc123", "minus_one_abc123", {"Identity"});
  *g->mutable_library()->add_function() = Text<tensorflow::FunctionDef>(R"pb(
    signature { name: "minus_one_abc123" }
    node_def { name: "sub/y" op: "Const" }
    node_def { name: "sub" op: "Sub" input: "x" input: "sub/y:output:0" }
  )pb");
  mgtest::AddV2Saver(g, "save", "Variable", "v0");
  AddNode(g, "init", "NoOp", {"^Variable/Assign", "^Variable_1/Assign"});
  Built b = BuildWithTfRegistry(*g);
  EXPECT_EQ(OpNames(b.ops), (Names{"Add", "Assign", "Const", "Identity", "NoOp", "RestoreV2",
                                   "SaveV2", "Sub", "VariableV2"}));
  EXPECT_TRUE(b.unregistered.empty());
  for (const auto& op : b.ops.op()) {
    EXPECT_EQ(op.summary(), "");
    EXPECT_EQ(op.description(), "");
  }
}

}  // namespace
}  // namespace graphport::tf
