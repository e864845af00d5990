// graphport's built-in attr defaults, row by row against TensorFlow's own op registry
// (tensorflow/core/ops/ops.pbtxt in the corpus).
#include "tf/meta_graph/builtin_op_defaults.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>

#include "meta_graph_test_util.h"
#include "tf/meta_graph/attr_value_equal.h"

namespace graphport::tf {
namespace {

TEST(BuiltinOpDefaultsTest, TableIsNotEmpty) { EXPECT_GT(BuiltinAttrDefaults().size(), 100u); }

TEST(BuiltinOpDefaultsTest, EveryRowMatchesTensorFlowsRegistry) {
  const tensorflow::OpList& tf_ops = mgtest::TfOps();
  ASSERT_GT(tf_ops.op_size(), 1000) << "ops.pbtxt did not load whole";
  for (const BuiltinAttrDefault& row : BuiltinAttrDefaults()) {
    SCOPED_TRACE(std::string(row.op) + "." + row.attr);
    tensorflow::AttrValue value;
    // The default_value text parses as an AttrValue.
    ASSERT_TRUE(graphport::testing::ParseTextReference(row.default_value, &value))
        << row.default_value;
    EXPECT_NE(value.value_case(), tensorflow::AttrValue::VALUE_NOT_SET);
    const tensorflow::OpDef* op = mgtest::FindOp(tf_ops, row.op);
    ASSERT_NE(op, nullptr) << "no op " << row.op << " in ops.pbtxt";
    const tensorflow::OpDef::AttrDef* attr = mgtest::FindAttr(*op, row.attr);
    ASSERT_NE(attr, nullptr) << row.op << " has no attr " << row.attr;
    EXPECT_EQ(attr->type(), row.type);
    ASSERT_TRUE(attr->has_default_value())
        << "TensorFlow gives " << row.op << "." << row.attr << " no default";
    EXPECT_TRUE(AreAttrValuesEqual(value, attr->default_value()))
        << "table: " << graphport::testing::ShortText(value)
        << "  TensorFlow: " << graphport::testing::ShortText(attr->default_value());
    // The same value in the protobuf sense too (no by-value tensor leniency is needed).
    EXPECT_TRUE(mgtest::MessagesEqual(attr->default_value(), value));
  }
}

TEST(BuiltinOpDefaultsTest, NoRowIsListedTwice) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const BuiltinAttrDefault& row : BuiltinAttrDefaults()) {
    EXPECT_TRUE(seen.insert({row.op, row.attr}).second) << row.op << "." << row.attr;
  }
}

// The OpList view holds exactly the rows: one OpDef per op, one AttrDef per row.
TEST(BuiltinOpDefaultsTest, OpListHoldsExactlyTheRows) {
  const tensorflow::OpList& list = BuiltinDefaultsOpList();
  std::map<std::pair<std::string, std::string>, const tensorflow::OpDef::AttrDef*> attrs;
  std::set<std::string> op_names;
  for (const auto& op : list.op()) {
    EXPECT_TRUE(op_names.insert(op.name()).second) << "op listed twice: " << op.name();
    EXPECT_EQ(op.input_arg_size(), 0);
    EXPECT_EQ(op.output_arg_size(), 0);
    for (const auto& attr : op.attr()) attrs[{op.name(), attr.name()}] = &attr;
  }
  ASSERT_EQ(attrs.size(), BuiltinAttrDefaults().size());
  for (const BuiltinAttrDefault& row : BuiltinAttrDefaults()) {
    SCOPED_TRACE(std::string(row.op) + "." + row.attr);
    auto it = attrs.find({row.op, row.attr});
    ASSERT_NE(it, attrs.end());
    EXPECT_EQ(it->second->type(), row.type);
    const tensorflow::OpDef* tf_op = mgtest::FindOp(mgtest::TfOps(), row.op);
    ASSERT_NE(tf_op, nullptr);
    const tensorflow::OpDef::AttrDef* tf_attr = mgtest::FindAttr(*tf_op, row.attr);
    ASSERT_NE(tf_attr, nullptr);
    EXPECT_TRUE(mgtest::MessagesEqual(tf_attr->default_value(), it->second->default_value()));
  }
}

}  // namespace
}  // namespace graphport::tf
