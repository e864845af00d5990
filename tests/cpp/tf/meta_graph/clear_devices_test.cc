// clear_devices (tf/meta_graph/clear_devices.h) over both forms of a node: the corpus's GPU
// SavedModel graph, whose nodes are placed on devices.
#include "tf/meta_graph/clear_devices.h"

#include <gtest/gtest.h>

#include "node_pass_test_util.h"

namespace graphport::tf {
namespace {

using mgtest::GpuCorpusGraph;

NodePasses ClearDevicesOnly() { return {std::make_shared<ClearDevices>()}; }

TEST(ClearDevicesTest, EveryNodeLosesItsDeviceAndNothingElse) {
  const tensorflow::GraphDef graph = GpuCorpusGraph();
  int placed = 0;
  for (const auto& node : graph.node()) placed += node.device().empty() ? 0 : 1;
  ASSERT_GT(placed, 3);  // the corpus graph gives the pass work

  tensorflow::GraphDef cleared;
  ASSERT_TRUE(cleared.ParseFromString(mgtest::ParsedNodeRecords(graph, ClearDevicesOnly())));
  ASSERT_EQ(cleared.node_size(), graph.node_size());
  for (int i = 0; i < graph.node_size(); ++i) {
    SCOPED_TRACE(graph.node(i).name());
    tensorflow::NodeDef expected = graph.node(i);
    expected.clear_device();
    EXPECT_TRUE(mgtest::MessagesEqual(expected, cleared.node(i)));
  }
}

TEST(ClearDevicesTest, BothFormsWriteTheSameNodes) {
  const tensorflow::GraphDef graph = GpuCorpusGraph();
  const std::string parsed = mgtest::ParsedNodeRecords(graph, ClearDevicesOnly());
  const std::string wire = mgtest::WireNodeRecords(graph, ClearDevicesOnly());
  EXPECT_FALSE(parsed.empty());
  EXPECT_TRUE(parsed == wire);
  // And without the pass both forms copy the nodes as they are.
  EXPECT_TRUE(mgtest::ParsedNodeRecords(graph, {}) == mgtest::WireNodeRecords(graph, {}));
  EXPECT_FALSE(parsed == mgtest::WireNodeRecords(graph, {}));
}

TEST(ClearDevicesTest, ExportsOfBothModelFormsAreTheSameBytes) {
  const std::string bytes = mgtest::Deterministic(GpuCorpusGraph());
  mgtest::BothModels models = mgtest::LoadBothWays(bytes);
  TfExportOptions options;
  options.clear_devices = true;
  for (bool as_text : {false, true}) {
    SCOPED_TRACE(as_text ? "text" : "binary");
    options.as_text = as_text;
    const std::string wire = mgtest::ExportedGraphDef(models.wire.get(), options);
    const std::string parsed = mgtest::ExportedGraphDef(models.parsed.get(), options);
    EXPECT_TRUE(wire == parsed);
    EXPECT_EQ(wire.find("/device:GPU:0"), std::string::npos);
  }
  EXPECT_NE(models.wire->wire_graph(), nullptr);  // written from its bytes, never parsed
}

}  // namespace
}  // namespace graphport::tf
