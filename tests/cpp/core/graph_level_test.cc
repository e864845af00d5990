#include "core/graph_level.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "core/graph_index.h"

namespace graphport {
namespace {

using nlohmann::json;

// x -> a/b/c -> a/b/d -> a/e -> y, a node "a/b" beside the scope a/b, a control edge
// y -> ^a/e... and an input that names no node.
GraphIndex SmallGraph() {
  GraphIndex g('/');
  g.AddNode("x", "Placeholder");
  g.AddNode("a/b/c", "Relu");
  g.AddNamedInput("x", 0, false);
  g.AddNode("a/b/d", "Split", 12);
  g.AddNamedInput("a/b/c", 0, false);
  g.AddNode("a/b", "Const", 100);
  g.AddNode("a/e", "Add");
  g.AddNamedInput("a/b/d", 1, false);
  g.AddNamedInput("a/b", 0, false);
  g.AddNode("y", "Identity");
  g.AddNamedInput("a/e", 0, false);
  g.AddNamedInput("x", 0, true);
  g.AddNamedInput("nowhere", 0, false);
  g.Resolve();
  return g;
}

TEST(GraphLevelTest, TopLevelGroupsScopesAndCountsEdgesBetweenChildren) {
  GraphIndex g = SmallGraph();
  EXPECT_EQ(g.unresolved_inputs(), 1u);
  json top = GraphLevel(g, "");
  EXPECT_EQ(top["nodeCount"], 6);
  EXPECT_EQ(top["groupNodeCount"], 6);
  ASSERT_EQ(top["children"].size(), 3u);
  EXPECT_EQ(top["children"][0], json({{"kind", "node"},
                                      {"name", "x"},
                                      {"label", "x"},
                                      {"op", "Placeholder"},
                                      {"weightBytes", 0}}));
  EXPECT_EQ(
      top["children"][1],
      json({{"kind", "group"}, {"name", "a"}, {"label", "a"}, {"nodes", 4}, {"weightBytes", 112}}));
  EXPECT_EQ(top["children"][2]["name"], "y");
  // x -> a, a -> y, x -> y (control); a's inner edges are not at this level.
  EXPECT_EQ(top["edges"], json::parse(R"([
    {"from": 0, "to": 1, "count": 1, "control": false},
    {"from": 0, "to": 2, "count": 1, "control": true},
    {"from": 1, "to": 2, "count": 1, "control": false}])"));
  EXPECT_EQ(top["unresolvedInputs"], 1);
}

TEST(GraphLevelTest, ANodeNamedAsAScopeGoesInsideItAndOutsideEdgesEndAtTheBoundary) {
  GraphIndex g = SmallGraph();
  json a = GraphLevel(g, "a");
  EXPECT_EQ(a["groupNodeCount"], 4);
  ASSERT_EQ(a["children"].size(), 2u);
  EXPECT_EQ(a["children"][0]["name"], "a/b");
  EXPECT_EQ(a["children"][0]["kind"], "group");
  EXPECT_EQ(a["children"][0]["nodes"], 3);  // a/b/c, a/b/d and the node a/b
  EXPECT_EQ(a["children"][1]["name"], "a/e");
  EXPECT_EQ(a["edges"], json::parse(R"([
    {"from": -1, "to": 0, "count": 1, "control": false},
    {"from": 0, "to": 1, "count": 2, "control": false},
    {"from": 1, "to": -1, "count": 1, "control": false}])"));

  json ab = GraphLevel(g, "a/b");
  ASSERT_EQ(ab["children"].size(), 3u);
  EXPECT_EQ(ab["children"][2], json({{"kind", "node"},
                                     {"name", "a/b"},
                                     {"label", "b"},
                                     {"op", "Const"},
                                     {"weightBytes", 100}}));
  EXPECT_EQ(ab["edges"], json::parse(R"([
    {"from": -1, "to": 0, "count": 1, "control": false},
    {"from": 0, "to": 1, "count": 1, "control": false},
    {"from": 1, "to": -1, "count": 1, "control": false},
    {"from": 2, "to": -1, "count": 1, "control": false}])"));
}

TEST(GraphLevelTest, ChildrenPastTheLimitAreLeftOutWithTheirEdges) {
  GraphIndex g = SmallGraph();
  json top = GraphLevel(g, "", 2);
  EXPECT_EQ(top["children"].size(), 2u);
  EXPECT_EQ(top["truncated"], 1);
  EXPECT_EQ(top["edges"].size(), 1u);
}

TEST(GraphLevelTest, AGroupWithNoNodeIsNotFound) {
  GraphIndex g = SmallGraph();
  for (const char* group : {"b", "a/b/c/d", "a/", "x/y"}) {
    try {
      GraphLevel(g, group);
      ADD_FAILURE() << group;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kNotFound) << group;
      EXPECT_NE(std::string(e.what()).find(group), std::string::npos) << e.what();
    }
  }
}

TEST(GraphIndexTest, RepeatedNamesGetTheirNumberAndInputsMeanTheFirst) {
  GraphIndex g('.');
  g.AddNode("conv", "Convolution");
  g.AddNode("conv", "Elemwise");
  g.AddNamedInput("conv", 0, false);
  g.Resolve();
  EXPECT_EQ(g.name(0), "conv");
  EXPECT_EQ(g.name(1), "conv#1");
  EXPECT_EQ(g.Find("conv#1"), 1);
  ASSERT_EQ(g.inputs_end(1) - g.inputs_begin(1), 1u);
  EXPECT_EQ(g.inputs()[g.inputs_begin(1)].node, 0u);
}

}  // namespace
}  // namespace graphport
