// The layered op registry export_meta_graph consults: the caller's registry, the producer's
// stripped_op_list, the built-in defaults.
#include "tf/meta_graph/op_registry.h"

#include <gtest/gtest.h>

#include "meta_graph_test_util.h"
#include "tf/meta_graph/builtin_op_defaults.h"

namespace graphport::tf {
namespace {

using mgtest::Text;

TEST(OpRegistryTest, LayersAreSearchedInOrder) {
  auto first = Text<tensorflow::OpList>(R"pb(op { name: "A" summary: "first" }
                                             op { name: "B" summary: "first" })pb");
  auto second = Text<tensorflow::OpList>(R"pb(op { name: "B" summary: "second" }
                                              op { name: "C" summary: "second" })pb");
  OpRegistry registry;
  registry.AddLayer(&first, "first", true);
  registry.AddLayer(&second, "second", false);

  OpRegistry::Found a = registry.Find("A");
  ASSERT_NE(a.op, nullptr);
  EXPECT_EQ(a.op, &first.op(0));
  EXPECT_EQ(*a.source, "first");
  EXPECT_TRUE(a.complete);

  OpRegistry::Found b = registry.Find("B");
  EXPECT_EQ(b.op, &first.op(1));

  OpRegistry::Found c = registry.Find("C");
  EXPECT_EQ(c.op, &second.op(1));
  EXPECT_EQ(*c.source, "second");
  EXPECT_FALSE(c.complete);

  OpRegistry::Found none = registry.Find("D");
  EXPECT_EQ(none.op, nullptr);
  EXPECT_EQ(none.source, nullptr);
}

TEST(OpRegistryTest, FindCompleteSkipsPartialLayers) {
  auto partial = Text<tensorflow::OpList>(R"pb(op { name: "Relu" })pb");
  OpRegistry registry;
  registry.AddLayer(&partial, "partial", false);
  EXPECT_EQ(registry.FindComplete("Relu"), nullptr);
  registry.AddLayer(&mgtest::TfOps(), "ops.pbtxt", true);
  const tensorflow::OpDef* relu = registry.FindComplete("Relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu, mgtest::FindOp(mgtest::TfOps(), "Relu"));
  // Find still returns the partial layer's, which comes first.
  EXPECT_EQ(registry.Find("Relu").op, &partial.op(0));
}

TEST(OpRegistryTest, BuiltinDefaultsAsALayer) {
  OpRegistry registry;
  registry.AddLayer(&BuiltinDefaultsOpList(), "built-in defaults", false);
  OpRegistry::Found matmul = registry.Find("MatMul");
  ASSERT_NE(matmul.op, nullptr);
  EXPECT_FALSE(matmul.complete);
  EXPECT_NE(mgtest::FindAttr(*matmul.op, "transpose_a"), nullptr);
  EXPECT_EQ(registry.FindComplete("MatMul"), nullptr);
}

}  // namespace
}  // namespace graphport::tf
