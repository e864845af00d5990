// The machinery every pass shares (research megengine_optimize.md §2.1): how new operators
// are made (input order by var id, in-place shortcuts, deduplication, the constant cache,
// insert-time folding below 1024 elements) and how the rewriter replaces and renames.
#include <gtest/gtest.h>

#include "mge/optimize/opr_maker.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/cpp_opr_params_generated.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::TestGraph;

TEST(OprMaker, OrdersCommutativeInputsByIdAndDeduplicates) {
  TestGraph t;
  VarRef a = t.Input("a", {3});
  VarRef b = t.Input("b", {3});
  OprMaker m(&t.g());
  VarRef sum = m.Elemwise(kAdd, {b, a});
  EXPECT_EQ(t.g().node(sum.node).inputs, (std::vector<VarRef>{a, b}));
  EXPECT_EQ(m.Elemwise(kAdd, {a, b}), sum);  // the same operator, not a second one
  VarRef diff = m.Elemwise(kSub, {b, a});    // not commutative: the call's order
  EXPECT_EQ(t.g().node(diff.node).inputs, (std::vector<VarRef>{b, a}));
  EXPECT_GT(t.g().var(diff).id, t.g().var(sum).id);
  EXPECT_EQ(t.g().node(diff.node).id + 1, t.g().var(diff).id);  // operator, then its var
}

// Every mode MegEngine's Elemwise constructor treats as commutable is ordered by var id, EQ,
// RMULH and LOG_SUM_EXP among them (research megengine_dump_details.md §1.2); LT keeps the
// call's order.
TEST(OprMaker, OrdersEveryCommutableMode) {
  TestGraph t;
  VarRef a = t.Input("a", {3});
  VarRef b = t.Input("b", {3});
  OprMaker m(&t.g());
  for (uint32_t mode : {fbs::param::ElemwiseMode_EQ, fbs::param::ElemwiseMode_RMULH,
                        fbs::param::ElemwiseMode_LOG_SUM_EXP}) {
    VarRef v = m.Elemwise(mode, {b, a});
    EXPECT_EQ(t.g().node(v.node).inputs, (std::vector<VarRef>{a, b})) << "mode " << mode;
  }
  VarRef lt = m.Elemwise(fbs::param::ElemwiseMode_LT, {b, a});
  EXPECT_EQ(t.g().node(lt.node).inputs, (std::vector<VarRef>{b, a}));
}

TEST(OprMaker, InPlaceShortcutsKeepTheShape) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3});
  OprMaker m(&t.g());
  EXPECT_EQ(m.Elemwise(kAdd, {x, m.ScalarImm(0, kF32, x)}), x);
  EXPECT_EQ(m.Elemwise(kMul, {m.ScalarImm(1, kF32, x), x}), x);
  EXPECT_EQ(m.PowC(x, 1.0f), x);
  // x (1) * ones (3) broadcasts: an operator is made.
  VarRef one = t.Input("one", {1});
  VarRef ones = m.Imm(HostValue::Floats({3}, {1, 1, 1}), one);
  VarRef product = m.Elemwise(kMul, {one, ones});
  EXPECT_NE(product, one);
  EXPECT_EQ(*t.g().var(product).shape, (Shape{3}));
}

TEST(OprMaker, CachesSmallConstantsByValue) {
  TestGraph t;
  VarRef x = t.Input("x", {1});
  OprMaker m(&t.g());
  EXPECT_EQ(m.ScalarImm(2.5f, kF32, x), m.ScalarImm(2.5f, kF32, x));
  EXPECT_NE(m.ScalarImm(2.5f, kF32, x), m.ScalarImm(2.5f, kI32, x));
  // More than 28 elements: a new ImmutableTensor every time.
  HostValue big = HostValue::Floats({29}, std::vector<float>(29, 1.0f));
  EXPECT_NE(m.Imm(big, x), m.Imm(big, x));
}

TEST(OprMaker, FoldsConstantsBelow1024Elements) {
  TestGraph t;
  VarRef small = t.Imm(HostValue::Floats({1023}, std::vector<float>(1023, 2.0f)));
  VarRef large = t.Imm(HostValue::Floats({1024}, std::vector<float>(1024, 2.0f)));
  OprMaker m(&t.g());
  VarRef folded = m.Elemwise(kNegate, {small});
  ASSERT_TRUE(t.g().Is(folded, "ImmutableTensor"));
  EXPECT_EQ(m.folded(), 1u);
  VarRef kept = m.Elemwise(kNegate, {large});
  EXPECT_EQ(t.g().Key(kept.node), "Elemwise");
  EXPECT_TRUE(t.g().node(kept.node).value_const);
  // An input makes nothing constant.
  VarRef x = t.Input("x", {3});
  EXPECT_FALSE(t.g().node(m.Elemwise(kNegate, {x}).node).value_const);
  EXPECT_EQ(m.folded(), 1u);
}

// Shapes are inferred without touching elements, so a model's real input sizes are no cost.
TEST(StaticShapes, ShapeOperatorsOfLargeInputs) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 3, 224, 224});
  VarRef y = t.Input("y", {1, 5, 224, 224});
  OptGraph& g = t.g();
  EXPECT_EQ(*g.var(t.Concat({x, y}, 1)).shape, (Shape{1, 8, 224, 224}));
  EXPECT_EQ(*g.var(t.Dimshuffle(x, {0, 2, 3, 1}, 4)).shape, (Shape{1, 224, 224, 3}));
  VarRef flat = t.WithAxis("Reshape", {x, t.Imm(HostValue::Ints({2}, {3, -1}))}, 1);
  EXPECT_EQ(*g.var(flat).shape, (Shape{3, 50176}));
  EXPECT_EQ(*g.var(t.Reduce(flat, 0, 1)).shape, (Shape{3, 1}));
  VarRef target = t.Imm(HostValue::Ints({4}, {2, 3, 224, 224}));
  EXPECT_EQ(*g.var(t.Broadcast(x, target)).shape, (Shape{2, 3, 224, 224}));
  EXPECT_EQ(*g.var(t.AxisAdd(x, 0)).shape, (Shape{1, 1, 3, 224, 224}));
  // Shape arithmetic on an input's static shape gives a static shape (MUTABLE, never folded).
  VarRef shape = t.WithAxis("GetVarShape", {t.Input("z", {3, 224, 224})});
  VarRef same = t.WithAxis("Reshape", {x, shape});
  ASSERT_TRUE(g.var(same).shape);
  EXPECT_EQ(*g.var(same).shape, (Shape{3, 224, 224}));
  EXPECT_FALSE(g.node(shape.node).value_const);
  EXPECT_FALSE(g.node(same.node).shape_const);
  // GetVarShape's own shape is inferred from its input's shape: as constant as that (not for
  // an input's, constant for a constant's). That of a Broadcast or Reshape to a constant
  // target is constant whatever the input: DelayBroadcast tells scalars by that.
  EXPECT_FALSE(g.node(shape.node).shape_const);
  EXPECT_TRUE(g.node(t.WithAxis("GetVarShape", {target}).node).shape_const);
  EXPECT_TRUE(g.node(t.Broadcast(x, target).node).shape_const);
  EXPECT_TRUE(g.node(t.WithAxis("Reshape", {x, target}).node).shape_const);
  EXPECT_FALSE(g.node(flat.node).shape_const);  // axis 1 is worked out from x's size
}

// x[:end] on axis 0, as LayerNorm's converter takes the leading axes of a shape.
VarRef SubtensorEnd(TestGraph* t, VarRef x, VarRef end) {
  OptNode n;
  n.set_op(t->g().NewOperator("Subtensor"));
  flatbuffers::FlatBufferBuilder fbb(64);
  std::vector<mgb::serialization::fbs::param::IndexDescMaskItem> items = {
      {0, false, true, false, false}};
  n.mutable_op().params.push_back(t->g().OwnParam(
      kIndexDescParam, &fbb,
      mgb::serialization::fbs::param::CreateIndexDescMaskDumpDirect(fbb, &items).Union()));
  n.mutable_op().items = {{DumpItem::kParam, 0}};
  n.inputs = {x, end};
  n.outputs.resize(1);
  return {t->g().Add(std::move(n)), 0};
}

// Reshape(x, Concat(GetVarShape(x)[:2], -1)): the Subtensor's value is shape arithmetic, so
// the Reshape's shape is static (MUTABLE), and every shape computed from it.
TEST(StaticShapes, ThroughASubtensorOfAShape) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 4});
  VarRef head = SubtensorEnd(&t, t.WithAxis("GetVarShape", {x}), t.Imm(HostValue::Ints({1}, {2})));
  OptGraph& g = t.g();
  EXPECT_EQ(*g.var(head).shape, (Shape{2}));
  VarRef target = t.Concat({head, t.Imm(HostValue::Ints({1}, {-1}))}, 0);
  VarRef flat = t.WithAxis("Reshape", {x, target}, 2);
  ASSERT_TRUE(g.var(flat).shape);
  EXPECT_EQ(*g.var(flat).shape, (Shape{2, 3, 4}));
  EXPECT_EQ(*g.var(t.Reduce(flat, 1 /*SUM_SQR*/, -1)).shape, (Shape{2, 3, 1}));
  EXPECT_FALSE(g.node(head.node).value_const);  // it follows the input's shape
  // Of a constant it is CONST, which the passes may fold now that the evaluator has it.
  VarRef imm =
      SubtensorEnd(&t, t.Imm(HostValue::Ints({3}, {5, 6, 7})), t.Imm(HostValue::Ints({1}, {2})));
  EXPECT_TRUE(g.node(imm.node).value_const);
}

// copy_opr_shallow goes through the class's maker: a commutative Elemwise made again orders
// its new inputs by var id, and the same copy asked twice is one operator.
TEST(OprMaker, CopiesAsTheMakerMakes) {
  TestGraph t;
  VarRef a = t.Input("a", {3});
  VarRef b = t.Input("b", {3});
  VarRef sum = t.Elemwise(kAdd, {a, b}, "sum");
  OprMaker m(&t.g());
  VarRef newer = m.Elemwise(kNegate, {a});
  const uint32_t copy = m.Copy(sum.node, {newer, b});
  EXPECT_EQ(t.g().node(copy).inputs, (std::vector<VarRef>{b, newer}));
  EXPECT_EQ(t.g().var({copy, 0}).middle().name, "sum");
  EXPECT_EQ(m.Copy(sum.node, {newer, b}), copy);
  const uint32_t unnamed = m.Copy(sum.node, {a, newer}, /*keep_var_names=*/false);
  EXPECT_NE(unnamed, copy);
  EXPECT_FALSE(t.g().var({unnamed, 0}).middle().name);
}

// Deduplication finds an operator however many others share its inputs: those listed under
// their newest input and, past the list's length (16), those entered in the table behind it;
// of two loaded operators alike, the older is the one found.
TEST(OprMaker, DeduplicatesOperatorsThatShareAnInput) {
  TestGraph t;
  std::vector<VarRef> weights;
  for (int i = 0; i < 40; ++i) weights.push_back(t.Input("w" + std::to_string(i), {3}));
  VarRef x = t.Input("x", {3});
  VarRef loaded = t.Elemwise(kMul, {weights[0], x}, "loaded");
  VarRef twin = t.Elemwise(kMul, {weights[0], x}, "twin");
  OprMaker m(&t.g());
  EXPECT_EQ(m.Elemwise(kMul, {x, weights[0]}), loaded);
  std::vector<VarRef> made;
  for (int i = 1; i < 40; ++i) made.push_back(m.Elemwise(kMul, {x, weights[i]}));
  const size_t size = t.g().size();
  for (int i = 1; i < 40; ++i) EXPECT_EQ(m.Elemwise(kMul, {weights[i], x}), made[i - 1]) << i;
  EXPECT_EQ(m.Elemwise(kMul, {x, weights[0]}), loaded);
  EXPECT_NE(loaded, twin);
  EXPECT_EQ(t.g().size(), size);  // nothing made twice
  // Another mode on the same inputs is another operator, listed or in the table.
  EXPECT_NE(m.Elemwise(kAdd, {x, weights[39]}), made.back());
  EXPECT_NE(m.Elemwise(kAdd, {x, weights[1]}), made.front());
}

TEST(Rewriter, CopiesReadersAndInheritsNames) {
  TestGraph t;
  VarRef x = t.Input("x", {3});
  VarRef marked = t.Unary("Identity", x, "marked");
  VarRef relu = t.Elemwise(kRelu, {marked}, "relu");
  t.Output(relu);
  OptGraph& g = t.g();
  Rewriter rw(&g);
  rw.ForEachOperator([&](uint32_t node) {
    if (g.Key(node) == "Identity") {
      rw.Replace({node, 0}, x);
    } else {
      rw.AutoReplaceOutputs(node);
    }
  });
  rw.Apply();
  VarRef out = g.endpoints()[0];
  EXPECT_NE(out, relu);  // a copy reading x
  EXPECT_EQ(g.node(out.node).inputs[0], x);
  EXPECT_EQ(g.var(out).middle().name, "relu");  // the copy keeps the old output's name
  EXPECT_EQ(g.var(x).middle().name, "x");       // x had a name: "marked" is not inherited
  EXPECT_GT(g.node(out.node).id, g.node(relu.node).id);
}

TEST(OptGraph, HoldsTheClassesOfItsNodes) {
  TestGraph t;
  VarRef x = t.Input("x", {3});
  t.Elemwise(kRelu, {x});
  EXPECT_TRUE(t.g().Holds("Host2DeviceCopy"));
  EXPECT_TRUE(t.g().Holds("Elemwise"));
  EXPECT_FALSE(t.g().Holds("BatchNorm"));
  EXPECT_FALSE(t.g().Holds("TypeCvt"));
  OprMaker m(&t.g());
  m.TypeCvt(x, kI32);  // a node a pass makes counts too
  EXPECT_TRUE(t.g().Holds("TypeCvt"));
  EXPECT_TRUE(t.g().HoldsElemwise(kRelu));
  EXPECT_FALSE(t.g().HoldsElemwise(kFuseMulAdd3));
  m.Elemwise(kFuseMulAdd3, {x, x, x});
  EXPECT_TRUE(t.g().HoldsElemwise(kFuseMulAdd3));
}

TEST(OptGraph, NodesStayWhereTheyAreAsTheGraphGrows) {
  TestGraph t;
  VarRef x = t.Input("x", {3});
  const OptNode* first = &t.g().node(x.node);
  OprMaker m(&t.g());
  VarRef v = x;
  for (int i = 0; i < 5000; ++i) v = m.Elemwise(kRelu, {v});
  EXPECT_EQ(t.g().size(), 5001u);
  EXPECT_EQ(&t.g().node(x.node), first);
  EXPECT_EQ(t.g().node(v.node).inputs[0].node, v.node - 1);
}

}  // namespace
}  // namespace graphport::mge::opt
