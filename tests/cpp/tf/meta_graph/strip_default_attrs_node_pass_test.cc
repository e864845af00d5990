// The pass over both forms of a node (node_view.h, the bytes of a WireGraph and parsed
// NodeDefs): the same nodes written, the same counts, the same export bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/output_set.h"
#include "meta_graph_test_util.h"
#include "node_pass_test_util.h"
#include "tf/meta_graph/strip_default_attrs.h"
#include "tf_test_graphs.h"

namespace graphport::tf {
namespace {

using mgtest::Text;

// The pass over both forms of a node (node_view.h): a graph giving it each case, an attr
// equal to its default, one that differs, an op with no default set, an op no registry knows,
// a call of a library function.
constexpr char kMixedGraph[] = R"pb(
  node {
    name: "p"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { unknown_rank: true } }
    }
  }
  node {
    name: "p2"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: -1 } } }
    }
  }
  node {
    name: "conv"
    op: "Conv2D"
    input: "p"
    input: "p2"
    device: "/device:GPU:0"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "data_format"
      value { s: "NCHW" }
    }
    attr {
      key: "dilations"
      value { list { i: 1 i: 1 i: 1 i: 1 } }
    }
    attr {
      key: "explicit_paddings"
      value { list {} }
    }
    attr {
      key: "padding"
      value { s: "SAME" }
    }
    attr {
      key: "strides"
      value { list { i: 1 i: 1 i: 1 i: 1 } }
    }
    attr {
      key: "use_cudnn_on_gpu"
      value { b: true }
    }
  }
  node {
    name: "m"
    op: "MatMul"
    input: "conv"
    input: "p2"
    attr {
      key: "transpose_a"
      value { b: false }
    }
    attr {
      key: "transpose_b"
      value { b: true }
    }
  }
  node {
    name: "u"
    op: "unreg_op"
    attr {
      key: "transpose_a"
      value { b: false }
    }
  }
  node {
    name: "call"
    op: "fn"
    input: "m"
    attr {
      key: "transpose_a"
      value { b: false }
    }
  }
  library {
    function {
      signature { name: "fn" }
      node_def {
        name: "inner"
        op: "Conv2D"
        attr {
          key: "use_cudnn_on_gpu"
          value { b: true }
        }
      }
    }
  }
)pb";

std::shared_ptr<StripDefaultAttrs> StripFor(const tensorflow::GraphDef& graph) {
  return std::make_shared<StripDefaultAttrs>(mgtest::TfOpsRegistry(), LibraryFunctionNames(graph));
}

std::vector<std::string> AttrKeys(const tensorflow::NodeDef& node) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : node.attr()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

TEST(StripDefaultAttrsTest, BothFormsWriteTheSameNodes) {
  const auto graph = Text<tensorflow::GraphDef>(kMixedGraph);
  auto parsed_pass = StripFor(graph), wire_pass = StripFor(graph);
  const std::string parsed = mgtest::ParsedNodeRecords(graph, {parsed_pass});
  const std::string wire = mgtest::WireNodeRecords(graph, {wire_pass});
  EXPECT_TRUE(parsed == wire);
  EXPECT_FALSE(parsed == mgtest::ParsedNodeRecords(graph, {}));
  const std::set<std::string> unknown = {"unreg_op"};
  EXPECT_EQ(parsed_pass->unknown_ops(), unknown);
  EXPECT_EQ(wire_pass->unknown_ops(), unknown);

  tensorflow::GraphDef stripped;
  ASSERT_TRUE(stripped.ParseFromString(parsed));
  ASSERT_EQ(stripped.node_size(), graph.node_size());
  EXPECT_EQ(AttrKeys(stripped.node(0)), std::vector<std::string>{"dtype"});
  EXPECT_EQ(AttrKeys(stripped.node(1)), (std::vector<std::string>{"dtype", "shape"}));
  EXPECT_EQ(AttrKeys(stripped.node(2)),
            (std::vector<std::string>{"T", "data_format", "padding", "strides"}));
  EXPECT_EQ(stripped.node(2).device(), "/device:GPU:0");  // only attrs change
  EXPECT_EQ(AttrKeys(stripped.node(3)), std::vector<std::string>{"transpose_b"});
  // The unknown op and the call of the library's function keep theirs.
  EXPECT_TRUE(mgtest::MessagesEqual(stripped.node(4), graph.node(4)));
  EXPECT_TRUE(mgtest::MessagesEqual(stripped.node(5), graph.node(5)));
}

// A node written otherwise than libprotobuf writes it: its attr "T" comes twice, and a parse
// keeps the second (DT_FLOAT, Complex's default), so a read of the bytes must keep it too.
TEST(StripDefaultAttrsTest, ANodeWrittenOtherwiseIsReadAsItsParseIs) {
  tensorflow::GraphDef graph = mgtest::DefaultAttrComplexGraph("DT_DOUBLE", "DT_COMPLEX64");
  tensorflow::NodeDef later_t;
  mgtest::SetAttr(&later_t, "T", "type: DT_FLOAT");
  std::string bytes;
  for (int i = 0; i < graph.node_size(); ++i) {
    std::string node = mgtest::Deterministic(graph.node(i));
    if (graph.node(i).name() == "complex") node += mgtest::Deterministic(later_t);
    bytes += '\x0a';  // GraphDef.node, length-delimited; each node is under 128 bytes
    ASSERT_LT(node.size(), 128u);
    bytes += static_cast<char>(node.size());
    bytes += node;
  }
  tensorflow::GraphDef as_parsed;
  ASSERT_TRUE(as_parsed.ParseFromString(bytes));
  ASSERT_EQ(mgtest::FindNode(as_parsed, "complex")->attr().at("T").type(), tensorflow::DT_FLOAT);

  const std::string parsed = mgtest::ParsedNodeRecords(as_parsed, {StripFor(as_parsed)});
  EXPECT_TRUE(parsed == mgtest::WireNodeRecordsOf(bytes, {StripFor(as_parsed)}));
  tensorflow::GraphDef stripped;
  ASSERT_TRUE(stripped.ParseFromString(parsed));
  EXPECT_EQ(mgtest::FindNode(stripped, "complex")->attr_size(), 0);
}

TEST(StripDefaultAttrsTest, ExportsOfBothModelFormsAreTheSameBytesAndCounts) {
  const auto graph = Text<tensorflow::GraphDef>(kMixedGraph);
  mgtest::BothModels models = mgtest::LoadBothWays(mgtest::Deterministic(graph));
  TfExportOptions options;
  options.to = TfKind::kGraphDef;
  options.strip_default_attrs = true;
  options.op_registry = &mgtest::TfOps();
  for (bool clear_devices : {false, true}) {
    SCOPED_TRACE(clear_devices ? "with clearDevices" : "alone");
    options.clear_devices = clear_devices;
    MemoryOutputSet wire_out, parsed_out;
    const nlohmann::json wire_info = Export(models.wire.get(), options, &wire_out);
    const nlohmann::json parsed_info = Export(models.parsed.get(), options, &parsed_out);
    ASSERT_EQ(wire_out.files().size(), 1u);
    ASSERT_EQ(parsed_out.files().size(), 1u);
    EXPECT_TRUE(wire_out.files()[0].bytes == parsed_out.files()[0].bytes);
    // p's shape, conv's dilations, explicit_paddings and use_cudnn_on_gpu, m's transpose_a,
    // and the library's inner use_cudnn_on_gpu.
    EXPECT_EQ(wire_info["strippedDefaultAttrs"], 6);
    EXPECT_EQ(parsed_info["strippedDefaultAttrs"], 6);
    EXPECT_EQ(wire_info["unknownDefaultOps"], nlohmann::json::array({"unreg_op"}));
    EXPECT_EQ(parsed_info["unknownDefaultOps"], nlohmann::json::array({"unreg_op"}));
  }
  EXPECT_NE(models.wire->wire_graph(), nullptr);  // written from its bytes, never parsed
}

}  // namespace
}  // namespace graphport::tf
