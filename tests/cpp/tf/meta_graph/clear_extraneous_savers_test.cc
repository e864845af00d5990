// clear_extraneous_savers on the nodes (tf/meta_graph/clear_extraneous_savers.h) over both
// forms of saver_test.py's two-saver graph: the same nodes found and left out, the same bytes
// written, and the same export from a model held either way.
#include "tf/meta_graph/clear_extraneous_savers.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "node_pass_test_util.h"
#include "tf/meta_graph/clear_devices.h"
#include "tf/meta_graph/parsed_node.h"
#include "tf/meta_graph/wire_node_view.h"
#include "tf_test_graphs.h"

namespace graphport::tf {
namespace {

struct BothForms {
  explicit BothForms(const tensorflow::GraphDef& graph)
      : parsed(graph), bytes(mgtest::Deterministic(graph)) {
    wire = WireGraph::Index(&bytes, 0, &arena);
  }
  ForEachNode ParsedNodes() const {
    return [this](const NodeVisitor& visit) { ForEachParsedNode(parsed, visit); };
  }
  ForEachNode WireNodes() const {
    return [this](const NodeVisitor& visit) { ForEachWireNodeView(*wire, visit); };
  }
  tensorflow::GraphDef parsed;
  std::string bytes;
  google::protobuf::Arena arena;
  std::unique_ptr<WireGraph> wire;
};

TEST(ClearExtraneousSaversTest, BothFormsLeaveOutTheOtherSaversNodes) {
  mgtest::TwoSaverGraph two = mgtest::MakeTwoSaverGraph();
  const tensorflow::GraphDef& graph = two.meta_graph.graph_def();
  BothForms forms(graph);
  ASSERT_NE(forms.wire, nullptr);
  for (const tensorflow::SaverDef* saver : {&two.saver0, &two.saver1}) {
    const bool first = saver == &two.saver0;
    SCOPED_TRACE(first ? "saver0 exported" : "saver1 exported");
    auto from_parsed = std::make_shared<ClearExtraneousSavers>(forms.ParsedNodes(), saver);
    auto from_wire = std::make_shared<ClearExtraneousSavers>(forms.WireNodes(), saver);
    const std::set<std::string> other = testing::AsSet(first ? two.saver1_nodes : two.saver0_nodes);
    EXPECT_EQ(from_parsed->excluded(), other);
    EXPECT_EQ(from_wire->excluded(), other);

    const std::string parsed = mgtest::ParsedNodeRecords(graph, {from_parsed});
    const std::string wire = mgtest::WireNodeRecords(graph, {from_wire});
    EXPECT_TRUE(parsed == wire);
    tensorflow::GraphDef kept;
    ASSERT_TRUE(kept.ParseFromString(parsed));
    EXPECT_EQ(kept.node_size(), graph.node_size() - static_cast<int>(other.size()));
    for (const auto& node : kept.node()) EXPECT_EQ(other.count(node.name()), 0u) << node.name();
  }
}

TEST(ClearExtraneousSaversTest, ComposesWithClearDevices) {
  mgtest::TwoSaverGraph two = mgtest::MakeTwoSaverGraph();
  tensorflow::GraphDef graph = two.meta_graph.graph_def();
  for (auto& node : *graph.mutable_node()) node.set_device("/device:CPU:0");
  BothForms forms(graph);
  ASSERT_NE(forms.wire, nullptr);
  auto savers = std::make_shared<ClearExtraneousSavers>(forms.WireNodes(), &two.saver1);
  const NodePasses passes{savers, std::make_shared<ClearDevices>()};
  const std::string parsed = mgtest::ParsedNodeRecords(graph, passes);
  EXPECT_TRUE(parsed == mgtest::WireNodeRecords(graph, passes));
  tensorflow::GraphDef kept;
  ASSERT_TRUE(kept.ParseFromString(parsed));
  EXPECT_EQ(kept.node_size(), 19);  // saver_test.py's count
  for (const auto& node : kept.node()) EXPECT_EQ(node.device(), "") << node.name();
}

TEST(ClearExtraneousSaversTest, ExportsOfBothModelFormsAreTheSameBytes) {
  mgtest::TwoSaverGraph two = mgtest::MakeTwoSaverGraph();
  mgtest::BothModels models =
      mgtest::LoadBothWays(mgtest::Deterministic(two.meta_graph.graph_def()));
  TfExportOptions options;
  options.clear_extraneous_savers = true;  // a GraphDef has no saver_def: every saver goes
  const std::string wire = mgtest::ExportedGraphDef(models.wire.get(), options);
  const std::string parsed = mgtest::ExportedGraphDef(models.parsed.get(), options);
  EXPECT_TRUE(wire == parsed);
  tensorflow::GraphDef exported;
  ASSERT_TRUE(exported.ParseFromString(wire));
  EXPECT_EQ(exported.node_size(),
            two.meta_graph.graph_def().node_size() -
                static_cast<int>(two.saver0_nodes.size() + two.saver1_nodes.size()));
  EXPECT_NE(models.wire->wire_graph(), nullptr);  // written from its bytes, never parsed
}

}  // namespace
}  // namespace graphport::tf
