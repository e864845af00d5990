#include "tf/optimize/graph_edit.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "optimize_test_graphs.h"

namespace graphport::tf {
namespace {

using testing::AddNode;

TEST(GraphEditTest, DataInputCountLeavesControlInputsOut) {
  tensorflow::GraphDef graph;
  EXPECT_EQ(DataInputCount(AddNode(&graph, "a", "Add", {"x", "y:1", "^z"})), 2);
  EXPECT_EQ(DataInputCount(AddNode(&graph, "n", "NoOp", {"^a"})), 0);
}

TEST(GraphEditTest, FindNodeByName) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "a", "Placeholder");
  AddNode(&graph, "b", "Identity", {"a"});
  ASSERT_NE(FindNode(graph, "b"), nullptr);
  EXPECT_EQ(FindNode(graph, "b")->op(), "Identity");
  EXPECT_EQ(FindNode(graph, "c"), nullptr);
}

TEST(GraphEditTest, PastIdentitiesFollowsInputZero) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "table", "HashTableV2");
  AddNode(&graph, "id1", "Identity", {"table:1", "^other"});
  AddNode(&graph, "id2", "Identity", {"id1"});
  std::unordered_map<std::string, const tensorflow::NodeDef*> nodes;
  for (const auto& node : graph.node()) nodes[node.name()] = &node;
  int index = -1;
  EXPECT_EQ(PastIdentities(nodes, "id2", &index), &graph.node(0));
  EXPECT_EQ(index, 1);  // the output the last Identity reads
  EXPECT_EQ(PastIdentities(nodes, "^table", &index), &graph.node(0));
  EXPECT_EQ(PastIdentities(nodes, "missing:0", &index), nullptr);
}

TEST(GraphEditTest, PastIdentitiesGivesUpOnALoop) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "a", "Identity", {"b"});
  AddNode(&graph, "b", "Identity", {"a"});
  std::unordered_map<std::string, const tensorflow::NodeDef*> nodes;
  for (const auto& node : graph.node()) nodes[node.name()] = &node;
  int index = 0;
  EXPECT_EQ(PastIdentities(nodes, "a", &index), nullptr);
}

TEST(GraphEditTest, FusionsMoveControlInputsAndReaders) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "conv", "Conv2D", {"x", "w"});
  AddNode(&graph, "relu", "Relu", {"conv", "^init"});
  AddNode(&graph, "out", "Identity", {"relu", "^relu"});
  Fusions fusions;
  fusions.Absorb(graph.node(1), graph.mutable_node(0));
  ++fusions.count;
  std::vector<std::string> outputs = {"relu:0", "out"};
  EXPECT_EQ(fusions.Apply(&graph, &outputs), 1);
  ASSERT_EQ(graph.node_size(), 2);
  EXPECT_EQ(graph.node(0).name(), "conv");
  EXPECT_EQ(graph.node(0).input(2), "^init");
  EXPECT_EQ(graph.node(1).input(0), "conv");
  EXPECT_EQ(graph.node(1).input(1), "^conv");
  EXPECT_EQ(outputs, (std::vector<std::string>{"conv:0", "out"}));
}

}  // namespace
}  // namespace graphport::tf
