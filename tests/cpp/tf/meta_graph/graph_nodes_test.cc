// The nodes a writer reads one at a time (tf/meta_graph/graph_nodes.h), from a model that holds
// them as bytes and from one that holds them parsed: the same names, ops, messages, library
// and versions, and a node's bytes, where the wire form lends them, are its deterministic
// serialisation.
#include "tf/meta_graph/graph_nodes.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "node_pass_test_util.h"
#include "tf/meta_graph/export_nodes.h"

namespace graphport::tf {
namespace {

// Every field a writer reads, node by node, as one comparable string.
std::string Read(GraphNodes* nodes, size_t* lent_bytes = nullptr) {
  std::string all;
  for (size_t i = 0; i < nodes->size(); ++i) {
    all += std::string(nodes->name(i)) + "|" + std::string(nodes->op(i)) + "|";
    const std::string node = mgtest::Deterministic(nodes->Node(i));
    EXPECT_EQ(nodes->Node(i).name(), nodes->name(i));
    if (std::optional<std::string_view> bytes = nodes->SerializedNode(i)) {
      EXPECT_EQ(*bytes, node) << nodes->name(i);
      if (lent_bytes != nullptr) ++*lent_bytes;
    }
    all += node + "\n";
  }
  return all + mgtest::Deterministic(nodes->library()) + mgtest::Deterministic(nodes->versions());
}

TEST(GraphNodesTest, BothFormsReadTheSameNodes) {
  mgtest::BothModels models = mgtest::LoadBothWays(mgtest::Deterministic(mgtest::GpuCorpusGraph()));
  models.wire->PrepareWireGraphForExport();  // as an export does, before it lends bytes
  const TfExportOptions options;
  std::unique_ptr<ExportNodes> wire = NodesToExport(*models.wire, options);
  std::unique_ptr<ExportNodes> parsed = NodesToExport(*models.parsed, options);
  std::unique_ptr<GraphNodes> from_wire = wire->Nodes();
  std::unique_ptr<GraphNodes> from_parsed = parsed->Nodes();
  ASSERT_EQ(from_wire->size(), models.parsed->graph().node_size());
  ASSERT_GT(from_wire->size(), 3u);
  size_t lent = 0;
  EXPECT_EQ(Read(from_wire.get(), &lent), Read(from_parsed.get()));
  // The wire form lends every canonical node's bytes; the parsed one has none to lend.
  EXPECT_EQ(lent, from_wire->size());
  EXPECT_FALSE(from_parsed->SerializedNode(0).has_value());
}

TEST(GraphNodesTest, AWireGraphWithoutDevicesLendsNoBytesThatHoldOne) {
  // A plan that clears devices: the nodes that had one are parsed and cleared, not lent.
  mgtest::BothModels models = mgtest::LoadBothWays(mgtest::Deterministic(mgtest::GpuCorpusGraph()));
  models.wire->PrepareWireGraphForExport();
  const WireGraph& wire = *models.wire->wire_graph();
  NodePlan plan;
  plan.drop_devices = true;
  WireGraphNodes nodes(wire, plan, wire.header());
  tensorflow::GraphDef expected = models.parsed->graph();
  for (auto& node : *expected.mutable_node()) node.clear_device();
  ParsedGraphNodes cleared(expected);
  size_t with_device = 0;
  for (const auto& node : models.parsed->graph().node())
    with_device += node.device().empty() ? 0 : 1;
  ASSERT_GT(with_device, 0u);
  size_t lent = 0;
  EXPECT_EQ(Read(&nodes, &lent), Read(&cleared));
  EXPECT_EQ(lent, nodes.size() - with_device);
}

}  // namespace
}  // namespace graphport::tf
