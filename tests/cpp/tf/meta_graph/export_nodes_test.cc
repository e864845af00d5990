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
    const NodePlan* plan = nullptr;
    forms[i]->HeldAsBytes(&wire_nodes, &plan);
    EXPECT_EQ(wire_nodes != nullptr, i == 0);
    // What the writer would write: the graph's fields, then any nodes held as bytes.
    written[i] = mgtest::Deterministic(*graph);
    if (wire_nodes != nullptr) {
      google::protobuf::io::StringOutputStream stream(&written[i]);
      google::protobuf::io::CodedOutputStream out(&stream);
      out.SetSerializationDeterministic(true);
      wire_nodes->WriteRecords(*plan, &out);
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

// What a writer that walks the nodes reads (Nodes()): before any pass every node as loaded;
// after the passes the exported ones, renamed and without devices, the same from both forms.
TEST(ExportNodesTest, BothFormsHandOutTheNodesTheyWrite) {
  mgtest::BothModels models = mgtest::LoadBothWays(mgtest::Deterministic(mgtest::GpuCorpusGraph()));
  models.wire->PrepareWireGraphForExport();
  const TfExportOptions options;
  std::unique_ptr<ExportNodes> forms[2] = {NodesToExport(*models.wire, options),
                                           NodesToExport(*models.parsed, options)};
  const size_t loaded = models.parsed->graph().node_size();
  const NodePasses passes{std::make_shared<ExportScope>(Scope("save")),
                          std::make_shared<ClearDevices>()};
  google::protobuf::Arena arena;
  std::string read[2];
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(forms[i]->Nodes()->size(), loaded);
    auto* graph = google::protobuf::Arena::CreateMessage<tensorflow::GraphDef>(&arena);
    ExportedNodes facts;
    forms[i]->Write(passes, nullptr, /*list_unbound=*/false, /*want_names=*/false, graph, &facts);
    forms[i]->Attach(graph);
    std::unique_ptr<GraphNodes> nodes = forms[i]->Nodes();
    ASSERT_EQ(nodes->size(), facts.count);
    for (size_t n = 0; n < nodes->size(); ++n) {
      const tensorflow::NodeDef& node = nodes->Node(n);
      EXPECT_EQ(node.name().rfind("save/", 0), std::string::npos) << node.name();  // scoped
      EXPECT_TRUE(node.device().empty()) << node.name();
      read[i] += std::string(nodes->name(n)) + "|" + mgtest::Deterministic(node) + "\n";
    }
  }
  EXPECT_GT(read[0].size(), 0u);
  EXPECT_TRUE(read[0] == read[1]);
  // Attached to nothing (a MetaGraphDef written without a graph_def): no nodes.
  forms[1]->Attach(nullptr);
  EXPECT_EQ(forms[1]->Nodes()->size(), 0u);
}

}  // namespace
}  // namespace graphport::tf
