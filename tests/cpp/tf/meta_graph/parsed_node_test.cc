// The parsed form of a node (tf/meta_graph/parsed_node.h): the copy the passes edit lends the
// loaded node's attr values instead of copying them, and an edit replaces a lent value
// without changing the loaded one.
#include "tf/meta_graph/parsed_node.h"

#include <google/protobuf/arena.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "meta_graph_test_util.h"
#include "tf/meta_graph/export_scope.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;
using mgtest::MessagesEqual;
using mgtest::Text;

constexpr char kConstNode[] = R"pb(
  name: "s/w"
  op: "Const"
  device: "/cpu:0"
  attr {
    key: "_class"
    value { list { s: "loc:@s/v" s: "loc:@t/v" } }
  }
  attr {
    key: "dtype"
    value { type: DT_FLOAT }
  }
  attr {
    key: "value"
    value {
      tensor {
        dtype: DT_FLOAT
        tensor_shape { dim { size: 2 } }
        tensor_content: "\000\000\200?\000\000\000@"
      }
    }
  }
)pb";

TEST(ParsedNodeTest, LendNodeCopiesEverythingAndLendsTensors) {
  tensorflow::NodeDef in = Text<tensorflow::NodeDef>(kConstNode);
  in.add_input("^s/x");
  in.mutable_experimental_debug_info()->add_original_node_names("orig");
  Arena arena;
  auto* out = Arena::CreateMessage<tensorflow::NodeDef>(&arena);
  LendNode(in, out);
  EXPECT_TRUE(MessagesEqual(in, *out));
  EXPECT_EQ(&out->attr().at("value").tensor(), &in.attr().at("value").tensor());
}

// Weights stay where they are through the passes: the edited node points at the input's
// TensorProto, and a lent list the scope replaces is left as loaded.
TEST(ParsedNodeTest, EditsReplaceLentValuesAndKeepTensorsLent) {
  const tensorflow::NodeDef in = Text<tensorflow::NodeDef>(kConstNode);
  const tensorflow::NodeDef loaded = in;
  for (bool scoped : {false, true}) {
    SCOPED_TRACE(scoped ? "scope s" : "no scope");
    Arena arena;
    auto* out = Arena::CreateMessage<tensorflow::NodeDef>(&arena);
    LendNode(in, out);
    NodePasses passes;
    if (scoped) passes.push_back(std::make_shared<ExportScope>(Scope("s")));
    EditParsedNode(passes, out);
    const tensorflow::AttrValue& value = out->attr().at("value");
    ASSERT_TRUE(value.has_tensor());
    EXPECT_EQ(&value.tensor(), &in.attr().at("value").tensor());
    EXPECT_EQ(out->name(), scoped ? "w" : "s/w");
    EXPECT_EQ(out->attr().at("_class").list().s_size(), scoped ? 1 : 2);
    EXPECT_TRUE(MessagesEqual(loaded, in));
  }
}

}  // namespace
}  // namespace graphport::tf
