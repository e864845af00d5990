// The node view and edit (tf/meta_graph/node_view.h) over both forms of a node: a parsed
// NodeDef (parsed_node.h) and its wire bytes (wire_node_view.h) must read the same and, under
// the same passes, write the same bytes, including passes that edit some nodes only and that
// read what an earlier pass changed.
#include "tf/meta_graph/node_view.h"

#include <gtest/gtest.h>

#include <string>

#include "node_pass_test_util.h"
#include "tf/meta_graph/clear_devices.h"
#include "tf/meta_graph/export_scope.h"
#include "tf/meta_graph/parsed_node.h"
#include "tf/meta_graph/wire_node_view.h"

namespace graphport::tf {
namespace {

using mgtest::GpuCorpusGraph;

// A pass that reads the node: clears the device of the nodes placed on a GPU.
class ClearGpuDevices final : public NodePass {
 public:
  bool ReadsNode() const override { return true; }
  void Edit(const NodeView& node, NodeEdit* edit) const override {
    ++*seen;
    if (node.device().find("GPU") != std::string_view::npos) edit->ClearDevice();
  }
  std::shared_ptr<int> seen = std::make_shared<int>(0);
};

// Records the device each node had when the pass saw it.
class DeviceRecorder final : public NodePass {
 public:
  bool ReadsNode() const override { return true; }
  void Edit(const NodeView& node, NodeEdit*) const override {
    devices->push_back(std::string(node.device()));
  }
  std::shared_ptr<std::vector<std::string>> devices = std::make_shared<std::vector<std::string>>();
};

TEST(NodeViewTest, BothFormsReadTheSameNodes) {
  const tensorflow::GraphDef graph = GpuCorpusGraph();
  std::string bytes = mgtest::Deterministic(graph);
  google::protobuf::Arena arena;
  std::unique_ptr<WireGraph> wire = WireGraph::Index(&bytes, 0, &arena);
  ASSERT_NE(wire, nullptr);
  ASSERT_EQ(wire->nodes().size(), static_cast<size_t>(graph.node_size()));
  int scoped = 0, colocated = 0;
  for (const char* scope_name : {"", "save"}) {
    // The passes after the scope see a node as it renamed it, in both forms.
    const NodePasses passes{std::make_shared<ExportScope>(Scope(scope_name))};
    WireNodeEdits edits;
    for (int i = 0; i < graph.node_size(); ++i) {
      SCOPED_TRACE(graph.node(i).name());
      tensorflow::NodeDef edited = graph.node(i);
      EditParsedNode(passes, &edited);
      ParsedNodeView parsed(edited);
      NodeEdits(passes, *wire, i, &edits);
      WireNodeView bytes_view(*wire, i, edits);
      EXPECT_EQ(parsed.name(), bytes_view.name());
      EXPECT_EQ(parsed.op(), bytes_view.op());
      EXPECT_EQ(parsed.device(), bytes_view.device());
      tensorflow::AttrValue parsed_class, wire_class;
      ASSERT_EQ(parsed.ReadAttr("_class", &parsed_class),
                bytes_view.ReadAttr("_class", &wire_class));
      EXPECT_TRUE(mgtest::MessagesEqual(parsed_class, wire_class));
      EXPECT_FALSE(bytes_view.ReadAttr("no such attr", &wire_class));
      scoped += parsed.name() != graph.node(i).name() ? 1 : 0;
      colocated += parsed_class.list().s_size();
    }
  }
  EXPECT_GT(scoped, 3);     // the corpus graph's saver nodes are renamed
  EXPECT_GT(colocated, 0);  // and some nodes are colocated
}

TEST(NodeViewTest, APassThatReadsNodesEditsEachFormAlike) {
  const tensorflow::GraphDef graph = GpuCorpusGraph();
  auto gpu = std::make_shared<ClearGpuDevices>();
  const std::string parsed = mgtest::ParsedNodeRecords(graph, {gpu});
  EXPECT_EQ(*gpu->seen, graph.node_size());
  const std::string wire = mgtest::WireNodeRecords(graph, {gpu});
  EXPECT_TRUE(parsed == wire);

  tensorflow::GraphDef edited;
  ASSERT_TRUE(edited.ParseFromString(parsed));
  int cpu = 0, cleared = 0;
  for (int i = 0; i < graph.node_size(); ++i) {
    const std::string& before = graph.node(i).device();
    if (before.find("GPU") != std::string::npos) {
      EXPECT_EQ(edited.node(i).device(), "");
      ++cleared;
    } else {
      EXPECT_EQ(edited.node(i).device(), before);
      cpu += before.empty() ? 0 : 1;
    }
  }
  EXPECT_GT(cleared, 0);
  EXPECT_GT(cpu, 0);  // some nodes keep their device: the edit is not every node's
}

TEST(NodeViewTest, APassSeesWhatTheOnesBeforeItDid) {
  const tensorflow::GraphDef graph = GpuCorpusGraph();
  for (bool cleared_first : {false, true}) {
    SCOPED_TRACE(cleared_first ? "clear_devices first" : "clear_devices after");
    auto parsed_seen = std::make_shared<DeviceRecorder>();
    auto wire_seen = std::make_shared<DeviceRecorder>();
    auto clear = std::make_shared<ClearDevices>();
    NodePasses parsed_passes{parsed_seen}, wire_passes{wire_seen};
    parsed_passes.insert(cleared_first ? parsed_passes.begin() : parsed_passes.end(), clear);
    wire_passes.insert(cleared_first ? wire_passes.begin() : wire_passes.end(), clear);
    const std::string parsed = mgtest::ParsedNodeRecords(graph, parsed_passes);
    const std::string wire = mgtest::WireNodeRecords(graph, wire_passes);
    EXPECT_TRUE(parsed == wire);
    EXPECT_EQ(*parsed_seen->devices, *wire_seen->devices);
    ASSERT_EQ(parsed_seen->devices->size(), static_cast<size_t>(graph.node_size()));
    int placed = 0;
    for (const auto& device : *parsed_seen->devices) placed += device.empty() ? 0 : 1;
    if (cleared_first) {
      EXPECT_EQ(placed, 0);
    } else {
      EXPECT_GT(placed, 0);
    }
  }
}

}  // namespace
}  // namespace graphport::tf
