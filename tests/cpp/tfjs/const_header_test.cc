// A Const's weight header (src/tfjs/const_header.h) read from its node's bytes must be what
// the parse of the same bytes says, for every node the TF.js writer may meet.
#include "tfjs/const_header.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"
#include "tfjs/read_graph_model.h"

namespace graphport::tfjs {
namespace {

using tensorflow::NodeDef;

::testing::AssertionResult SameHeader(const ConstHeader& a, const ConstHeader& b) {
  const std::string a_shape = testing::DeterministicBytes(a.shape);
  const std::string b_shape = testing::DeterministicBytes(b.shape);
  if (a.dtype == b.dtype && a_shape == b_shape && a.content == b.content &&
      a.kept_codes == b.kept_codes) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "dtype " << a.dtype << " vs " << b.dtype << ", shape " << testing::ShortText(a.shape)
         << " vs " << testing::ShortText(b.shape) << ", content of " << a.content.size()
         << " bytes vs " << b.content.size() << ", kept codes " << a.kept_codes << " vs "
         << b.kept_codes;
}

// The header from the node's deterministic bytes, which must read; its content views them,
// kept in `*bytes`.
ConstHeader FromBytes(const NodeDef& node, std::string* bytes) {
  *bytes = testing::DeterministicBytes(node);
  ConstHeader header;
  EXPECT_TRUE(ReadConstHeader(*bytes, &header)) << node.name();
  return header;
}

NodeDef Const(tensorflow::DataType dtype, const std::vector<int64_t>& dims) {
  NodeDef node;
  node.set_name("c");
  node.set_op("Const");
  (*node.mutable_attr())["dtype"].set_type(dtype);
  tensorflow::TensorProto* t = (*node.mutable_attr())["value"].mutable_tensor();
  t->set_dtype(dtype);
  for (int64_t d : dims) t->mutable_tensor_shape()->add_dim()->set_size(d);
  return node;
}

TEST(ConstHeaderTest, ReadsTheTensorsDtypeShapeAndContentSize) {
  NodeDef node = Const(tensorflow::DT_FLOAT, {2, 3});
  (*node.mutable_attr())["value"].mutable_tensor()->set_tensor_content(std::string(24, '\1'));
  std::string bytes;
  const ConstHeader header = FromBytes(node, &bytes);
  EXPECT_EQ(header.dtype, tensorflow::DT_FLOAT);
  ASSERT_EQ(header.shape.dim_size(), 2);
  EXPECT_EQ(header.shape.dim(0).size(), 2);
  EXPECT_EQ(header.shape.dim(1).size(), 3);
  EXPECT_EQ(header.content, std::string(24, '\1'));
  EXPECT_FALSE(header.kept_codes);
  EXPECT_TRUE(SameHeader(header, ConstHeaderOf(node)));
}

TEST(ConstHeaderTest, EveryKindOfNodeReadsAsItsParseSays) {
  std::vector<NodeDef> nodes;
  NodeDef typed = Const(tensorflow::DT_INT32, {4});
  (*typed.mutable_attr())["value"].mutable_tensor()->add_int_val(7);
  nodes.push_back(typed);
  NodeDef kept = Const(tensorflow::DT_UINT8, {5});
  (*kept.mutable_attr())["value"].mutable_tensor()->set_tensor_content("abcde");
  (*kept.mutable_attr())[kQuantizationAttr].set_s(R"({"dtype":"uint8","scale":1,"min":0})");
  nodes.push_back(kept);
  NodeDef strings = Const(tensorflow::DT_STRING, {2});
  (*strings.mutable_attr())["value"].mutable_tensor()->add_string_val("x");
  nodes.push_back(strings);
  NodeDef unknown_rank = Const(tensorflow::DT_FLOAT, {});
  (*unknown_rank.mutable_attr())["value"]
      .mutable_tensor()
      ->mutable_tensor_shape()
      ->set_unknown_rank(true);
  nodes.push_back(unknown_rank);
  NodeDef open_enum = Const(static_cast<tensorflow::DataType>(1234), {1});
  nodes.push_back(open_enum);
  NodeDef no_value = Const(tensorflow::DT_FLOAT, {1});
  no_value.mutable_attr()->erase("value");
  nodes.push_back(no_value);
  NodeDef not_a_tensor = Const(tensorflow::DT_FLOAT, {1});
  (*not_a_tensor.mutable_attr())["value"].set_s("text");
  nodes.push_back(not_a_tensor);
  NodeDef empty;
  nodes.push_back(empty);
  std::string bytes;
  for (const NodeDef& node : nodes) {
    SCOPED_TRACE(testing::ShortText(node));
    EXPECT_TRUE(SameHeader(FromBytes(node, &bytes), ConstHeaderOf(node)));
  }
  EXPECT_TRUE(FromBytes(nodes[1], &bytes).kept_codes);
  EXPECT_EQ(FromBytes(nodes[1], &bytes).content, "abcde");
  EXPECT_EQ(FromBytes(nodes[4], &bytes).dtype, 1234);
  EXPECT_EQ(FromBytes(nodes[5], &bytes).dtype, tensorflow::DT_INVALID);
}

// A tensor whose bytes do not read as a TensorProto (its shape record claims 5 bytes where 2
// are left) is refused, and the writer parses the node, which says what is wrong.
TEST(ConstHeaderTest, ATensorWhoseBytesDoNotReadIsRefused) {
  const std::string tensor =
      "\x12\x05"
      "ab";
  const std::string attr_value = "\x42" + std::string(1, static_cast<char>(tensor.size())) + tensor;
  const std::string entry = std::string("\x0a\x05") + "value" + "\x12" +
                            std::string(1, static_cast<char>(attr_value.size())) + attr_value;
  const std::string node = "\x2a" + std::string(1, static_cast<char>(entry.size())) + entry;
  ConstHeader header;
  EXPECT_FALSE(ReadConstHeader(node, &header));
  // With the shape record whole, the same node reads.
  const std::string whole_tensor = "\x12\x00";
  const std::string whole_value = "\x42\x02" + whole_tensor;
  const std::string whole_entry = std::string("\x0a\x05") + "value" + "\x12\x04" + whole_value;
  EXPECT_TRUE(ReadConstHeader(
      "\x2a" + std::string(1, static_cast<char>(whole_entry.size())) + whole_entry, &header));
}

// Every node of every graph of the corpus (Consts with tensor_content and with typed values,
// of many dtypes, and every other op), as a TF.js export of it meets them.
TEST(ConstHeaderTest, EveryCorpusNodeReadsAsItsParseSays) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  size_t consts = 0;
  for (const testing::CorpusGraph& graph : testing::CorpusGraphs()) {
    SCOPED_TRACE(graph.relative);
    auto root = testing::ReferenceParse(graph.kind, testing::ReadFile(graph.path()));
    ASSERT_NE(root, nullptr);
    for (const NodeDef& node : testing::GraphOf(graph.kind, *root).node()) {
      SCOPED_TRACE(node.name());
      std::string bytes;
      EXPECT_TRUE(SameHeader(FromBytes(node, &bytes), ConstHeaderOf(node)));
      if (node.op() == "Const") ++consts;
    }
  }
  EXPECT_GT(consts, 100u);
}

}  // namespace
}  // namespace graphport::tfjs
