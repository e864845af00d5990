// Checks of a model's graph view (Model::GraphJson, Model::NodeJson) that hold for every
// family: expanding every group from the top reaches each node once, the node counts of a
// level add up to its group's, and each node edge of the graph is drawn once, at the level
// where its two ends are first apart.
#ifndef GRAPHPORT_TESTS_CPP_GRAPH_VIEW_CHECK_H_
#define GRAPHPORT_TESTS_CPP_GRAPH_VIEW_CHECK_H_

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "api/model.h"

namespace graphport::testing {

struct GraphViewTotals {
  uint64_t node_count = 0;      // the graph's, as the top level says
  std::set<std::string> nodes;  // every node reached by expanding the groups
  uint64_t levels = 0;
  uint64_t inner_edges = 0;  // node edges between two children of a level, summed
  uint64_t data_edges = 0;   // of them, data (not control) edges
};

// Walks every level from `group` down; expects each to be consistent. Levels with more than
// `limit` children are a failure (the corpus graphs are small).
inline void WalkGraphLevels(Model* model, const std::string& group, GraphViewTotals* totals) {
  nlohmann::json level =
      nlohmann::json::parse(model->GraphJson(nlohmann::json{{"group", group}}.dump()));
  SCOPED_TRACE("group '" + group + "'");
  ++totals->levels;
  if (group.empty()) totals->node_count = level["nodeCount"];
  EXPECT_EQ(level["group"], group);
  EXPECT_EQ(level["truncated"], 0);
  const auto& children = level["children"];
  uint64_t sum = 0;
  for (const auto& child : children) {
    if (child["kind"] == "group") {
      EXPECT_GE(child["nodes"].get<uint64_t>(), 1u);
      sum += child["nodes"].get<uint64_t>();
      WalkGraphLevels(model, child["name"], totals);
    } else {
      EXPECT_EQ(child["kind"], "node");
      EXPECT_TRUE(child["op"].is_string());
      sum += 1;
      EXPECT_TRUE(totals->nodes.insert(child["name"].get<std::string>()).second)
          << "node " << child["name"] << " reached twice";
    }
  }
  EXPECT_EQ(sum, level["groupNodeCount"].get<uint64_t>());
  auto n = static_cast<int64_t>(children.size());
  for (const auto& edge : level["edges"]) {
    int64_t from = edge["from"], to = edge["to"];
    EXPECT_TRUE(from >= -1 && from < n && to >= -1 && to < n && from != to) << edge.dump();
    EXPECT_GE(edge["count"].get<uint64_t>(), 1u);
    if (group.empty()) {
      EXPECT_TRUE(from >= 0 && to >= 0) << "the top level has no outside";
    }
    if (from >= 0 && to >= 0) {
      totals->inner_edges += edge["count"].get<uint64_t>();
      if (!edge["control"].get<bool>()) totals->data_edges += edge["count"].get<uint64_t>();
    }
  }
}

inline GraphViewTotals WalkGraph(Model* model) {
  GraphViewTotals totals;
  WalkGraphLevels(model, "", &totals);
  EXPECT_EQ(totals.nodes.size(), totals.node_count);
  return totals;
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_GRAPH_VIEW_CHECK_H_
