// proto::ListUnknownFields names each field a message's schema does not know by where it is,
// and proto::CopyUnknownFields carries one level's unknown fields to a copy.
#include "proto/unknown_fields.h"

#include <gtest/gtest.h>

#include <string>

#include "tensorflow/graph.pb.h"
#include "tensorflow/schemas.h"

namespace graphport::proto {
namespace {

// A record the schemas do not know: field `number` as a varint.
std::string UnknownVarint(int number, int value) {
  return std::string(1, static_cast<char>(number << 3)) + static_cast<char>(value);
}

TEST(UnknownFieldsTest, EachIsNamedByItsPath) {
  tensorflow::AttrValue value;
  value.set_s("float");
  ASSERT_TRUE(value.ParseFromString(value.SerializeAsString() + UnknownVarint(15, 3)));
  tensorflow::GraphDef graph;
  graph.add_node()->set_name("first");
  tensorflow::NodeDef* second = graph.add_node();
  second->set_name("second");
  (*second->mutable_attr())["T"] = value;
  (*second->mutable_attr())["a"].set_i(1);
  // A known number with another wire type is unknown too: NodeDef's name (1) as a varint.
  ASSERT_TRUE(second->ParseFromString(second->SerializeAsString() + UnknownVarint(1, 9)));
  const std::string bytes = graph.SerializeAsString() + UnknownVarint(14, 1);

  UnknownFieldReport report = ListUnknownFields(bytes, SchemaOf<tensorflow::GraphDef>());
  EXPECT_EQ(report.count, 3u);
  ASSERT_EQ(report.listed.size(), 3u);
  EXPECT_EQ(report.listed[0], "node[1].attr[\"T\"].value field 15");
  EXPECT_EQ(report.listed[1], "node[1] field 1");
  EXPECT_EQ(report.listed[2], "field 14");

  tensorflow::GraphDef parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_EQ(ListUnknownFields(parsed).listed, report.listed);
  EXPECT_EQ(ListUnknownFields(graph.node(0)).count, 0u);
}

TEST(UnknownFieldsTest, AReportListsAtMostItsLimitAndCountsAll) {
  tensorflow::NodeDef node;
  std::string bytes;
  for (int i = 0; i < 150; ++i) bytes += UnknownVarint(15, i % 100);
  ASSERT_TRUE(node.ParseFromString(bytes));
  UnknownFieldReport report = ListUnknownFields(node);
  EXPECT_EQ(report.count, 150u);
  EXPECT_EQ(report.listed.size(), UnknownFieldReport::kMaxListed);
}

TEST(UnknownFieldsTest, CopyCarriesOneLevel) {
  tensorflow::NodeDef from;
  ASSERT_TRUE(from.ParseFromString(UnknownVarint(15, 7) + UnknownVarint(14, 2)));
  (*from.mutable_attr())["x"].set_i(4);
  tensorflow::NodeDef to;
  to.set_name("to");
  CopyUnknownFields(from, &to);
  EXPECT_EQ(to.name(), "to");
  EXPECT_TRUE(to.attr().empty()) << "only the unknown fields are copied";
  EXPECT_EQ(ListUnknownFields(to).count, 2u);
  // Written at the end, after the known fields, as libprotobuf writes them.
  const std::string name_record = std::string("\x0a\x02to", 4);
  EXPECT_EQ(to.SerializeAsString(), name_record + UnknownVarint(15, 7) + UnknownVarint(14, 2));
  tensorflow::NodeDef none;
  CopyUnknownFields(tensorflow::NodeDef(), &none);
  EXPECT_EQ(none.SerializeAsString(), "");
}

}  // namespace
}  // namespace graphport::proto
