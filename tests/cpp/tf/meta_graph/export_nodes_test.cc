// The nodes an export writes (tf/meta_graph/export_nodes.h), from a model that holds them as
// bytes and from one that holds them parsed: the same counts, names and unbound inputs under
// the same passes, and the same graph as written.
#include "tf/meta_graph/export_nodes.h"

#include <google/protobuf/arena.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "node_pass_test_util.h"
#include "tf/meta_graph/clear_devices.h"
#include "tf/meta_graph/export_scope.h"

namespace graphport::tf {
namespace {

TEST(ExportNodesTest, BothFormsExportTheSameNodes) {
  mgtest::BothModels models = mgtest::LoadBothWays(mgtest::Deterministic(mgtest::GpuCorpusGraph()));
  const TfExportOptions options;
  std::unique_ptr<ExportNodes> wire = NodesToExport(*models.wire, options);
  std::unique_ptr<ExportNodes> parsed = NodesToExport(*models.parsed, options);
  ASSERT_EQ(wire->loaded_count(), parsed->loaded_count());
  int visited = 0;
  wire->ForEach([&](const NodeView&) { ++visited; });
  EXPECT_EQ(static_cast<size_t>(visited), wire->loaded_count());
  EXPECT_EQ(wire->FunctionNames(), parsed->FunctionNames());

  const NodePasses passes{std::make_shared<ExportScope>(Scope("save")),
                          std::make_shared<ClearDevices>()};
  google::protobuf::Arena arena;
  ExportedNodes from_wire, from_parsed;
  std::string written[2];
  ExportNodes* forms[2] = {wire.get(), parsed.get()};
  ExportedNodes* facts[2] = {&from_wire, &from_parsed};
  for (int i = 0; i < 2; ++i) {
    auto* graph = google::protobuf::Arena::CreateMessage<tensorflow::GraphDef>(&arena);
    forms[i]->Write(passes, nullptr, /*list_unbound=*/true, /*want_names=*/true, graph, facts[i]);
    forms[i]->Attach(graph);
    const WireGraph* wire_nodes = nullptr;
    NodePlan plan;
    forms[i]->Finish(&wire_nodes, &plan);
    EXPECT_EQ(wire_nodes != nullptr, i == 0);
    // What the writer would write: the graph's fields, then any nodes held as bytes.
    written[i] = mgtest::Deterministic(*graph);
    if (wire_nodes != nullptr) {
      google::protobuf::io::StringOutputStream stream(&written[i]);
      google::protobuf::io::CodedOutputStream out(&stream);
      out.SetSerializationDeterministic(true);
      wire_nodes->WriteRecords(plan, &out);
    }
  }
  EXPECT_GT(from_wire.count, 3u);
  EXPECT_LT(from_wire.count, wire->loaded_count());  // only the saver's nodes
  EXPECT_EQ(from_wire.count, from_parsed.count);
  EXPECT_EQ(from_wire.names, from_parsed.names);
  EXPECT_EQ(from_wire.unbound, from_parsed.unbound);
  EXPECT_FALSE(from_wire.unbound.empty());
  EXPECT_TRUE(written[0] == written[1]);
}

}  // namespace
}  // namespace graphport::tf
