#include "tf/optimize/remove_identities.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "optimize_test_graphs.h"

namespace graphport::testing {
namespace {

// The shape the freeze gives TF Serving's half_plus_two (research: savedmodel_freeze.md §3.5):
// the call's input/output Identities, the former ReadVariableOps, the NoOps of its control
// outputs and the outer Identity ordered after them.
tensorflow::GraphDef FrozenHalfPlusTwo() {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "unknown", {}, {0.5f});
  AddConst(&graph, "unknown_0", {}, {2.0f});
  AddFloatOp(&graph, "Func/C/input/_0", "Identity", {"x"});
  AddFloatOp(&graph, "Func/C/input/_1", "Identity", {"unknown"});
  AddFloatOp(&graph, "Func/C/input/_2", "Identity", {"unknown_0"});
  AddFloatOp(&graph, "C/Mul/ReadVariableOp", "Identity", {"Func/C/input/_1"});
  AddFloatOp(&graph, "C/Mul", "Mul", {"C/Mul/ReadVariableOp", "Func/C/input/_0"});
  AddFloatOp(&graph, "C/Add/ReadVariableOp", "Identity", {"Func/C/input/_2"});
  AddFloatOp(&graph, "C/Add", "AddV2", {"C/Mul", "C/Add/ReadVariableOp"});
  AddNode(&graph, "C/NoOp", "NoOp");
  AddFloatOp(&graph, "C/Identity", "Identity", {"C/Add", "^C/NoOp"});
  AddFloatOp(&graph, "Func/C/output/_3", "Identity", {"C/Identity"});
  AddNode(&graph, "Func/C/output_control_node/_4", "NoOp", {"^C/NoOp"});
  AddNode(&graph, "NoOp", "NoOp", {"^Func/C/output_control_node/_4"});
  AddFloatOp(&graph, "Identity", "Identity", {"Func/C/output/_3", "^NoOp"});
  return graph;
}

TEST(RemoveIdentities, AFrozenCallKeepsItsMathAndNamesWeightsAfterTheirChains) {
  tensorflow::GraphDef graph = FrozenHalfPlusTwo();
  tf::IdentityRemoval removal = tf::RemoveIdentities(&graph, {"Identity:0", "x:0"});
  EXPECT_EQ(NodeNames(graph),
            (std::vector<std::string>{"x", "C/Mul/ReadVariableOp", "C/Mul", "C/Add/ReadVariableOp",
                                      "C/Add", "Identity"}));
  const tensorflow::NodeDef* a = Named(graph, "C/Mul/ReadVariableOp");
  EXPECT_EQ(a->op(), "Const");
  EXPECT_EQ(a->attr().count("T"), 0u);
  EXPECT_EQ(a->attr().at("dtype").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(FloatValues(*a), std::vector<float>{0.5f});
  EXPECT_EQ(FloatValues(*Named(graph, "C/Add/ReadVariableOp")), std::vector<float>{2.0f});
  EXPECT_EQ(Inputs(*Named(graph, "C/Mul")),
            (std::vector<std::string>{"C/Mul/ReadVariableOp", "x"}));
  EXPECT_EQ(Inputs(*Named(graph, "Identity")), std::vector<std::string>{"C/Add"});
  EXPECT_EQ(removal.folded_into_consts, 4);
  EXPECT_EQ(removal.bypassed, 3);
  EXPECT_EQ(removal.noops, 3);
  EXPECT_EQ(removal.pruned, 4);  // unknown, unknown_0 and the two input Identities made Const
}

TEST(RemoveIdentities, ControlEdgesStayWhereTheyOrderAStatefulNode) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "shape", {1}, {1.0f});
  AddNode(&graph, "draw", "RandomUniform", {"shape"});
  AddNode(&graph, "after_draw", "NoOp", {"^draw"});
  AddNode(&graph, "second", "RandomUniform", {"shape", "^after_draw"});
  AddFloatOp(&graph, "ordered", "Relu", {"x", "^second"});
  AddConst(&graph, "c", {1}, {1.0f});
  AddFloatOp(&graph, "y", "Relu", {"ordered", "^c", "^x"});
  tf::IdentityRemoval removal = tf::RemoveIdentities(&graph, {"y:0", "x:0"});
  // The NoOp between the draws passes its order on; a Const or a Placeholder orders nothing.
  EXPECT_EQ(Inputs(*Named(graph, "second")), (std::vector<std::string>{"shape", "^draw"}));
  EXPECT_EQ(Inputs(*Named(graph, "ordered")), (std::vector<std::string>{"x", "^second"}));
  EXPECT_EQ(Inputs(*Named(graph, "y")), std::vector<std::string>{"ordered"});
  EXPECT_EQ(Named(graph, "c"), nullptr);  // only control consumers: gone with them
  EXPECT_EQ(removal.noops, 1);
  EXPECT_EQ(removal.control_edges, 2);
}

TEST(RemoveIdentities, InputsAndOutputsKeepTheirNodes) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "unused_input", "Placeholder");
  AddConst(&graph, "c", {1}, {3.0f});
  AddFloatOp(&graph, "out", "Identity", {"c"});
  AddNode(&graph, "init", "NoOp", {"^out"});
  tf::IdentityRemoval removal = tf::RemoveIdentities(&graph, {"out:0", "init", "unused_input:0"});
  EXPECT_EQ(NodeNames(graph), (std::vector<std::string>{"unused_input", "c", "out", "init"}));
  EXPECT_EQ(Named(graph, "out")->op(), "Identity");
  // An output NoOp is there for what it orders.
  EXPECT_EQ(Inputs(*Named(graph, "init")), std::vector<std::string>{"^out"});
  EXPECT_EQ(removal.folded_into_consts, 0);
}

TEST(RemoveIdentities, ABranchIdentityAfterASwitchStays) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddNode(&graph, "p", "Placeholder");
  AddFloatOp(&graph, "switch", "Switch", {"x", "p"});
  AddFloatOp(&graph, "pivot", "Identity", {"switch:1"});
  AddConst(&graph, "one", {}, {1.0f}).add_input("^pivot");
  AddFloatOp(&graph, "add", "AddV2", {"pivot", "one"});
  AddFloatOp(&graph, "merge", "Merge", {"switch", "add"});
  tensorflow::GraphDef before = graph;
  tf::IdentityRemoval removal = tf::RemoveIdentities(&graph, {"merge:0", "x:0", "p:0"});
  EXPECT_EQ(Bytes(graph), Bytes(before));
  EXPECT_EQ(removal.bypassed + removal.noops + removal.control_edges + removal.pruned, 0);
}

TEST(RemoveIdentities, AGraphWithNothingToRemoveIsUnchanged) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddConst(&graph, "w", {1}, {2.0f});
  AddFloatOp(&graph, "y", "Mul", {"x", "w"});
  tensorflow::GraphDef before = graph;
  tf::RemoveIdentities(&graph, {"y:0", "x:0"});
  EXPECT_EQ(Bytes(graph), Bytes(before));
}

TEST(RemoveIdentities, ACycleOfIdentitiesIsAParseErrorNamingIt) {
  tensorflow::GraphDef graph;
  AddFloatOp(&graph, "a", "Identity", {"b"});
  AddFloatOp(&graph, "b", "Identity", {"a"});
  AddFloatOp(&graph, "out", "Relu", {"a"});
  try {
    tf::RemoveIdentities(&graph, {"out:0"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace graphport::testing
