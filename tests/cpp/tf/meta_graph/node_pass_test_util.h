// Runs node passes (tf/meta_graph/node_view.h) over both forms of the same graph, parsed
// messages and wire bytes, the way the export does, so that a pass's test can assert that the
// two give the same nodes, byte for byte. Also loads the same file as a model held either way.
#ifndef GRAPHPORT_TESTS_CPP_TF_META_GRAPH_NODE_PASS_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_TF_META_GRAPH_NODE_PASS_TEST_UTIL_H_

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "core/output_set.h"
#include "meta_graph_test_util.h"
#include "tensorflow/graph.pb.h"
#include "tf/export.h"
#include "tf/meta_graph/node_view.h"
#include "tf/meta_graph/parsed_node.h"
#include "tf/meta_graph/wire_node_plan.h"
#include "tf/tf_model.h"
#include "tf/wire_graph.h"

namespace graphport::tf::mgtest {

// The graph served by the corpus's GPU SavedModel: its nodes carry devices.
inline tensorflow::GraphDef GpuCorpusGraph() {
  tensorflow::SavedModel saved;
  saved.ParseFromString(
      ReadCorpus("tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_gpu/00000123/"
                 "saved_model.pb"));
  return saved.meta_graphs(0).graph_def();
}

inline std::string Deterministic(const google::protobuf::MessageLite& message) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream out(&stream);
  out.SetSerializationDeterministic(true);
  message.SerializeToCodedStream(&out);
  return bytes;
}

// The graph's nodes after `passes`, as GraphDef node records: each node kept copied and
// edited as a message.
inline std::string ParsedNodeRecords(const tensorflow::GraphDef& graph, const NodePasses& passes) {
  tensorflow::GraphDef nodes;
  for (const auto& node : graph.node()) {
    if (!KeepsNode(passes, ParsedNodeView(node))) continue;
    tensorflow::NodeDef* copy = nodes.add_node();
    *copy = node;
    EditParsedNode(passes, copy);
  }
  return Deterministic(nodes);
}

// The same from a graph's bytes (`bytes`, written as the test chooses): indexed, planned and
// written record by record. With `facts`, what the plan learnt, unbound inputs included.
inline std::string WireNodeRecordsOf(std::string bytes, const NodePasses& passes,
                                     WireNodeFacts* facts = nullptr) {
  google::protobuf::Arena arena;
  std::unique_ptr<WireGraph> wire = WireGraph::Index(&bytes, 0, &arena);
  EXPECT_NE(wire, nullptr);
  if (wire == nullptr) return "";
  WireNodeOptions options;
  options.passes = passes;
  options.list_unbound_inputs = facts != nullptr;
  WireNodeFacts own_facts;
  NodePlan plan = PlanWireNodes(*wire, options, facts != nullptr ? facts : &own_facts);
  std::string records;
  {
    google::protobuf::io::StringOutputStream stream(&records);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);  // as the export writes them
    wire->WriteRecords(plan, &out);
  }
  return records;
}

// The same from the graph's deterministic bytes.
inline std::string WireNodeRecords(const tensorflow::GraphDef& graph, const NodePasses& passes) {
  return WireNodeRecordsOf(Deterministic(graph), passes);
}

// The same graph file loaded twice: kept as wire bytes, and parsed whole.
struct BothModels {
  std::unique_ptr<TfModel> wire, parsed;
};

inline BothModels LoadBothWays(const std::string& graph_def_bytes) {
  BothModels out;
  for (auto* model : {&out.wire, &out.parsed}) {
    MemorySource source(graph_def_bytes);
    TfLoadOptions options;
    options.format = "graph-def-binary";
    *model = TfModel::Load(&source, options);
  }
  out.parsed->graph();  // parses it whole
  EXPECT_NE(out.wire->wire_graph(), nullptr);
  EXPECT_EQ(out.parsed->wire_graph(), nullptr);
  return out;
}

// The graph_def a binary GraphDef export of `model` writes.
inline std::string ExportedGraphDef(TfModel* model, const TfExportOptions& options) {
  MemoryOutputSet out;
  TfExportOptions graph_def = options;
  graph_def.to = TfKind::kGraphDef;
  Export(model, graph_def, &out);
  EXPECT_EQ(out.files().size(), 1u);
  return out.files().empty() ? "" : out.files()[0].bytes;
}

}  // namespace graphport::tf::mgtest

#endif  // GRAPHPORT_TESTS_CPP_TF_META_GRAPH_NODE_PASS_TEST_UTIL_H_
