#include "tf/freeze/inline_calls.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "freeze_test_util.h"
#include "test_graphs.h"

namespace graphport::testing {
namespace {

// outer(x) = Identity(inner(x)), inner(a) = Neg(a); outer's call of inner is a control output.
tensorflow::GraphDef NestedCallGraph() {
  tensorflow::GraphDef graph;
  *graph.mutable_library()->add_function() =
      Function("inner", {"a"}, {{"out", "neg:y:0"}}, {Node("neg", "Neg", {"a"})});
  tensorflow::NodeDef call = Node("call", "StatefulPartitionedCall", {"x"});
  SetFunction(&call, "f", "inner");
  SetTypeList(&call, "Tout", {tensorflow::DT_FLOAT});
  tensorflow::FunctionDef outer = Function("outer", {"x"}, {{"y", "id:output:0"}},
                                           {call, Node("id", "Identity", {"call:output:0"})});
  outer.mutable_signature()->add_control_output("call");
  (*outer.mutable_control_ret())["call"] = "call";
  *graph.mutable_library()->add_function() = outer;

  AddNode(&graph, "p", "Placeholder");
  AddNode(&graph, "start", "NoOp");
  tensorflow::NodeDef& c = AddNode(&graph, "C", "StatefulPartitionedCall", {"p", "^start"});
  SetFunction(&c, "f", "outer");
  SetTypeList(&c, "Tout", {tensorflow::DT_FLOAT});
  c.set_device("/device:CPU:0");
  AddNode(&graph, "use", "Neg", {"C"});
  AddNode(&graph, "after", "NoOp", {"^C"});
  return graph;
}

TEST(InlineCalls, NestedCallsTakeTensorFlowsNamesAndTheirEdgesFollow) {
  tensorflow::GraphDef graph = NestedCallGraph();
  tensorflow::OpList ops = TestOps();
  tf::OpRegistry registry;
  registry.AddLayer(&ops, "test", true);
  std::vector<std::string> fetches = {"C:0", "use"};
  EXPECT_EQ(tf::InlineCalls(&graph, registry, &fetches), 2);

  EXPECT_EQ(NodeNamed(graph, "C"), nullptr);
  EXPECT_EQ(NodeNamed(graph, "C/call"), nullptr);
  // C's control input reaches the body through its input control NoOp.
  const tensorflow::NodeDef* entry = NodeNamed(graph, "Func/C/input_control_node/_0");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->input(0), "^start");
  const tensorflow::NodeDef* input = NodeNamed(graph, "Func/C/input/_1");
  ASSERT_NE(input, nullptr);
  EXPECT_EQ(input->op(), "Identity");
  ASSERT_EQ(input->input_size(), 2);
  EXPECT_EQ(input->input(0), "p");
  EXPECT_EQ(input->input(1), "^Func/C/input_control_node/_0");
  const tensorflow::NodeDef* output = NodeNamed(graph, "Func/C/output/_2");
  ASSERT_NE(output, nullptr);
  EXPECT_EQ(output->input(0), "C/id");
  // The nested call, inlined in turn, under the outer call's prefix.
  const tensorflow::NodeDef* neg = NodeNamed(graph, "C/call/neg");
  ASSERT_NE(neg, nullptr);
  EXPECT_EQ(neg->input(0), "Func/C/call/input/_3");
  EXPECT_EQ(neg->device(), "/device:CPU:0");  // the caller's device, where it had none
  EXPECT_EQ(NodeNamed(graph, "Func/C/call/input/_3")->input(0), "Func/C/input/_1");
  EXPECT_EQ(NodeNamed(graph, "C/id")->input(0), "Func/C/call/output/_4");
  // Consumers and fetches of C read its output Identity; a wait on C waits on its control
  // outputs, the nested call's included.
  EXPECT_EQ(NodeNamed(graph, "use")->input(0), "Func/C/output/_2");
  EXPECT_EQ(fetches[0], "Func/C/output/_2");
  EXPECT_EQ(fetches[1], "use");
  const tensorflow::NodeDef* after = NodeNamed(graph, "after");
  ASSERT_EQ(after->input_size(), 1);
  const std::string control = after->input(0).substr(1);
  const tensorflow::NodeDef* wait = NodeNamed(graph, control);
  ASSERT_NE(wait, nullptr) << control;
  EXPECT_EQ(wait->op(), "NoOp");
  ASSERT_EQ(wait->input_size(), 1);
  const tensorflow::NodeDef* inner_wait = NodeNamed(graph, wait->input(0).substr(1));
  ASSERT_NE(inner_wait, nullptr) << wait->input(0);
  EXPECT_EQ(inner_wait->op(), "NoOp");
  for (const auto& node : graph.node()) {
    EXPECT_NE(node.op(), "StatefulPartitionedCall") << node.name();
  }
}

TEST(InlineCalls, ControlFlowIsNoCallAndAGraphWithoutCallsIsLeftAlone) {
  tensorflow::GraphDef graph;
  *graph.mutable_library()->add_function() =
      Function("branch", {"a"}, {{"out", "neg:y:0"}}, {Node("neg", "Neg", {"a"})});
  AddNode(&graph, "p", "Placeholder");
  tensorflow::NodeDef& cond = AddNode(&graph, "if", "StatelessIf", {"p", "p"});
  SetFunction(&cond, "then_branch", "branch");
  SetFunction(&cond, "else_branch", "branch");
  tensorflow::OpList ops = TestOps();
  tf::OpRegistry registry;
  registry.AddLayer(&ops, "test", true);
  EXPECT_EQ(tf::InlineCalls(&graph, registry, nullptr), 0);
  ASSERT_EQ(graph.node_size(), 2);
  EXPECT_EQ(graph.node(1).op(), "StatelessIf");
  EXPECT_EQ(graph.node(1).attr().at("then_branch").func().name(), "branch");
  EXPECT_EQ(graph.library().function_size(), 1);
}

TEST(InlineCalls, ARecursiveFunctionIsUnsupported) {
  tensorflow::GraphDef graph;
  tensorflow::NodeDef self = Node("again", "PartitionedCall", {"a"});
  SetFunction(&self, "f", "loop");
  SetTypeList(&self, "Tout", {tensorflow::DT_FLOAT});
  *graph.mutable_library()->add_function() =
      Function("loop", {"a"}, {{"out", "again:output:0"}}, {self});
  AddNode(&graph, "p", "Placeholder");
  tensorflow::NodeDef& call = AddNode(&graph, "call", "PartitionedCall", {"p"});
  SetFunction(&call, "f", "loop");
  SetTypeList(&call, "Tout", {tensorflow::DT_FLOAT});
  tensorflow::OpList ops = TestOps();
  tf::OpRegistry registry;
  registry.AddLayer(&ops, "test", true);
  try {
    tf::InlineCalls(&graph, registry, nullptr);
    FAIL() << "inlined a recursive function";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("recursive"), std::string::npos) << e.what();
  }
}

TEST(InlineCalls, ACallWithTheWrongNumberOfInputsIsAParseError) {
  tensorflow::GraphDef graph;
  *graph.mutable_library()->add_function() =
      Function("two", {"a", "b"}, {{"out", "neg:y:0"}}, {Node("neg", "Neg", {"a"})});
  AddNode(&graph, "p", "Placeholder");
  tensorflow::NodeDef& call = AddNode(&graph, "call", "PartitionedCall", {"p"});
  SetFunction(&call, "f", "two");
  tensorflow::OpList ops = TestOps();
  tf::OpRegistry registry;
  registry.AddLayer(&ops, "test", true);
  try {
    tf::InlineCalls(&graph, registry, nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_EQ(e.where().node, "call");
  }
}

}  // namespace
}  // namespace graphport::testing
