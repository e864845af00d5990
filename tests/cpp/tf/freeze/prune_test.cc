#include "tf/freeze/prune.h"

#include <gtest/gtest.h>

#include "freeze_test_util.h"
#include "test_graphs.h"

namespace graphport::testing {
namespace {

TEST(PruneToOutputs, KeepsTheDataAndControlFanInAndTheFunctionsItCalls) {
  tensorflow::GraphDef graph;
  *graph.mutable_library()->add_function() =
      Function("used", {"a"}, {{"out", "n:y:0"}}, {Node("n", "Neg", {"a"})});
  *graph.mutable_library()->add_function() =
      Function("nested", {"a"}, {{"out", "n:y:0"}}, {Node("n", "Neg", {"a"})});
  *graph.mutable_library()->add_function() =
      Function("unused", {"a"}, {{"out", "n:y:0"}}, {Node("n", "Neg", {"a"})});
  // "used" calls "nested" directly by name.
  *graph.mutable_library()->mutable_function(0)->add_node_def() = Node("c", "nested", {"a"});
  graph.mutable_library()->add_gradient()->set_function_name("used");
  AddNode(&graph, "x", "Placeholder");
  AddNode(&graph, "init", "NoOp");
  AddNode(&graph, "read", "Identity", {"x", "^init"});
  tensorflow::NodeDef& cond = AddNode(&graph, "if", "StatelessIf", {"x", "read:0"});
  SetFunction(&cond, "then_branch", "used");
  SetFunction(&cond, "else_branch", "used");
  AddNode(&graph, "out", "Neg", {"if"});
  AddNode(&graph, "save", "SaveV2", {"x"});
  AddNode(&graph, "orphan", "Const");

  EXPECT_EQ(tf::PruneToOutputs(&graph, {"out:0"}), 2);
  std::vector<std::string> names;
  for (const auto& node : graph.node()) names.push_back(node.name());
  EXPECT_EQ(names, (std::vector<std::string>{"x", "init", "read", "if", "out"}));
  std::vector<std::string> functions;
  for (const auto& f : graph.library().function()) functions.push_back(f.signature().name());
  EXPECT_EQ(functions, (std::vector<std::string>{"used", "nested"}));
  EXPECT_EQ(graph.library().gradient_size(), 0);
}

TEST(PruneToOutputs, AGraphWithoutFunctionsKeepsNoLibrary) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  AddNode(&graph, "y", "Neg", {"x"});
  *graph.mutable_library()->add_function() =
      Function("gone", {"a"}, {{"out", "n:y:0"}}, {Node("n", "Neg", {"a"})});
  EXPECT_EQ(tf::PruneToOutputs(&graph, {"y"}), 0);
  EXPECT_FALSE(graph.has_library());
}

}  // namespace
}  // namespace graphport::testing
