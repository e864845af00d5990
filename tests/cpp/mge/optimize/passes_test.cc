// The first optimize_for_inference passes on MegEngine's own test graphs (research
// megengine_optimize.md §5), asserting the structure MegEngine's tests assert, and the
// numerics check: the reference evaluator gives the same outputs before and after.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "mge/optimize/convert_batch_norm/convert_batch_norm.h"
#include "mge/optimize/eval/half.h"
#include "mge/optimize/eval/opr_eval.h"
#include "mge/optimize/opr_name.h"
#include "mge/optimize/optimize_for_inference.h"
#include "mge/optimize/param_fuse/param_fuse.h"
#include "mge/optimize/param_merge/param_merge.h"
#include "mge/optimize/remove_non_computing/remove_non_computing.h"
#include "mge/optimize/remove_shape_hint/remove_shape_hint.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ExpectSameOutputs;
using testing::TestGraph;

// The Elemwise mode of the var's operator, or -1 when it is no Elemwise.
uint32_t ModeOf(const OptGraph& g, VarRef v) {
  const Operator& op = g.node(v.node).op();
  if (g.Key(v.node) != "Elemwise" || op.params.empty()) return static_cast<uint32_t>(-1);
  return reinterpret_cast<const flatbuffers::Table*>(op.params[0].table)->GetField<uint32_t>(4, 0);
}

// A count of the reachable operators of class `key`.
size_t Count(const Graph& graph, const std::string& key) {
  size_t n = 0;
  for (const Operator& op : graph.oprs) n += op.cls != nullptr && op.cls->key == key;
  return n;
}

HostValue Value(const OptGraph& g, VarRef v) {
  std::optional<HostValue> value = StoredValue(g.node(v.node).op(), v.output);
  EXPECT_TRUE(value);
  return value.value_or(HostValue{});
}

// inference.cpp ConvertBatchNormPass: BN on x (2,3,4,5) with 1C11 params in INFERENCE mode:
// no BatchNorm left; here also the chain MegEngine builds, with the eps add and PowC folded.
TEST(ConvertBatchNormToElemwise, FoldsToElemwiseChain) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 4, 5});
  VarRef scale = t.Imm(HostValue::Floats({1, 3, 1, 1}, {0.5f, 2.0f, -1.0f}));
  VarRef bias = t.Imm(HostValue::Floats({1, 3, 1, 1}, {0.1f, 0.2f, 0.3f}));
  VarRef mean = t.Imm(HostValue::Floats({1, 3, 1, 1}, {1.0f, -1.0f, 0.25f}));
  VarRef var = t.Imm(HostValue::Floats({1, 3, 1, 1}, {4.0f, 0.5f, 3.0f}));
  VarRef y = t.BatchNorm({x, scale, bias, mean, var}, 1e-5, true);
  t.Output(t.Elemwise(kRelu, {y}, "out"));
  const Graph& before = t.Emit();

  RewrittenGraph out;
  OptGraph g(before, &out);
  PassReport report = ConvertBatchNormToElemwise(&g);
  EXPECT_TRUE(report.changed);
  EXPECT_NE(report.summary.find("1 BatchNorm"), std::string::npos) << report.summary;
  // out = RELU(ADD(bias, MUL(invstd, MUL(scale, SUB(x, mean))))): commutative inputs in var
  // id order, the loaded constants first, and invstd (folded before SUB was made) before the
  // product.
  VarRef relu = g.endpoints()[0];
  ASSERT_EQ(ModeOf(g, relu), 0u);
  EXPECT_EQ(g.var(relu).middle().name, "out");
  VarRef add = g.node(relu.node).inputs[0];
  ASSERT_EQ(ModeOf(g, add), 16u);
  EXPECT_TRUE(g.Is(g.node(add.node).inputs[0], "ImmutableTensor"));  // bias
  VarRef mul2 = g.node(add.node).inputs[1];
  ASSERT_EQ(ModeOf(g, mul2), 21u);
  VarRef invstd = g.node(mul2.node).inputs[0];
  VarRef mul1 = g.node(mul2.node).inputs[1];
  ASSERT_TRUE(g.Is(invstd, "ImmutableTensor"));  // ADD(var, eps) and PowC folded at creation
  HostValue r = Value(g, invstd);
  const float var_values[] = {4.0f, 0.5f, 3.0f};
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(r.f[c], std::sqrt(1.0f / (var_values[c] + static_cast<float>(1e-5))));
  }
  ASSERT_EQ(ModeOf(g, mul1), 21u);
  EXPECT_TRUE(g.Is(g.node(mul1.node).inputs[0], "ImmutableTensor"));  // scale
  VarRef sub = g.node(mul1.node).inputs[1];
  ASSERT_EQ(ModeOf(g, sub), 24u);
  EXPECT_TRUE(g.Is(g.node(sub.node).inputs[0], "Host2DeviceCopy"));

  g.Emit();
  EXPECT_EQ(Count(out.graph, "BatchNorm"), 0u);
  ExpectSameOutputs(before, out.graph, 1e-5);  // MegEngine's own check uses 1e-5
}

TEST(ConvertBatchNormToElemwise, RefusesTrainingModeAndLeavesOthersAlone) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 2, 1, 1});
  VarRef p = t.Imm(HostValue::Floats({1, 2, 1, 1}, {1, 1}));
  t.Output(t.BatchNorm({x, p, p, p, p}, 1e-5, false));
  const Graph& training = t.Emit();
  RewrittenGraph out;
  OptGraph g(training, &out);
  try {
    ConvertBatchNormToElemwise(&g);
    FAIL() << "a training-mode BatchNorm was converted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("INFERENCE"), std::string::npos) << e.what();
    EXPECT_EQ(e.where().opr, "bn");
  }

  TestGraph plain;
  plain.Output(plain.Elemwise(kRelu, {plain.Input("x", {3})}, "out"));
  const Graph& none = plain.Emit();
  RewrittenGraph out2;
  OptGraph g2(none, &out2);
  const size_t nodes = g2.size();
  EXPECT_FALSE(ConvertBatchNormToElemwise(&g2).changed);
  EXPECT_EQ(g2.size(), nodes);  // nothing made
}

// misc.cpp RemoveNonComputingOpr.Simple: MarkNoBroadcastElemwise(x) -> x; Identity likewise.
TEST(RemoveNonComputingOpr, BypassesMarkersAndIdentity) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3});
  VarRef marked = t.Unary("MarkNoBroadcastElemwise", x, "marked");
  VarRef id = t.Unary("Identity", t.Elemwise(kRelu, {marked}), "id");
  t.Output(id);
  t.Output(marked);
  // The relu's var without a name, as a file written with keep_var_name 0 holds it (a built
  // graph shows it by its operator's name, as MegEngine does).
  Graph before = t.Emit();
  for (Var& v : before.vars) {
    if (before.oprs[v.opr].cls->key == "Elemwise") v.middle.name.reset();
  }
  RewrittenGraph out;
  OptGraph g(before, &out);
  PassReport report = RemoveNonComputingOpr(&g);
  EXPECT_TRUE(report.changed);
  EXPECT_EQ(report.summary, "2 operators removed");
  EXPECT_TRUE(g.Is(g.endpoints()[1], "Host2DeviceCopy"));
  VarRef relu = g.endpoints()[0];
  ASSERT_EQ(g.Key(relu.node), "Elemwise");
  EXPECT_EQ(g.node(relu.node).inputs[0], g.endpoints()[1]);
  // replace_var passes a name only to a var whose name is not set, and auto_replace_outputs
  // set the name of the relu's copy (on x) to the one the relu showed: "id" does not pass.
  EXPECT_TRUE(HasNameSet(g, relu));
  EXPECT_EQ(VarName(g, relu).rfind("RELU(marked)[", 0), 0u) << VarName(g, relu);
  g.Emit();
  EXPECT_EQ(Count(out.graph, "Identity") + Count(out.graph, "MarkNoBroadcastElemwise"), 0u);
  ExpectSameOutputs(before, out.graph);
}

// inference.cpp ParamFuse: z = x + y (all shared) becomes a shared tensor; q = x * y + p keeps
// an ADD that reads the folded product; 6 operators in all.
TEST(ParamFuse, FoldsConstEndpointsAndMidConstInputs) {
  TestGraph t;
  VarRef x = t.Shared("x", HostValue::Floats({3}, {1, 2, 3}));
  VarRef y = t.Shared("y", HostValue::Floats({3}, {0.5f, -1, 4}));
  VarRef p = t.Input("p", {3});
  VarRef z = t.Elemwise(kAdd, {x, y}, "z");
  VarRef q = t.Elemwise(kAdd, {t.Elemwise(kMul, {x, y}), p}, "q");
  t.Output(z);
  t.Output(q);
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  const uint64_t z_id = g.var(g.endpoints()[0]).id;
  PassReport report = ParamFuse(&g);
  EXPECT_TRUE(report.changed);
  EXPECT_EQ(report.summary, "2 constant vars folded");
  VarRef fz = g.endpoints()[0];
  ASSERT_TRUE(g.Is(fz, "SharedDeviceTensor"));
  EXPECT_EQ(Value(g, fz).f, (std::vector<float>{1.5f, 1, 7}));
  EXPECT_EQ(g.var(fz).middle().name, "z");  // inherits the folded var's name
  EXPECT_EQ(*g.node(fz.node).op().name, "fuse(x,y):z@" + std::to_string(z_id));
  VarRef fq = g.endpoints()[1];
  ASSERT_EQ(g.Key(fq.node), "Elemwise");
  EXPECT_EQ(ModeOf(g, fq), 16u);
  // The copy of the ADD orders its inputs by var id, as Elemwise::make does: p, then the
  // folded product, which is newer.
  VarRef product = g.node(fq.node).inputs[1];
  ASSERT_TRUE(g.Is(product, "SharedDeviceTensor"));
  EXPECT_EQ(Value(g, product).f, (std::vector<float>{0.5f, -2, 12}));
  g.Emit();
  EXPECT_EQ(out.graph.oprs.size(), 4u);  // two folded tensors, p, the ADD
  ExpectSameOutputs(before, out.graph);
}

// inference.cpp ParamFuseStaticInfer: a(4).reshape(GetVarShape(SDT (2,2))) is exactly
// a.reshape({2,2}): the shape folds into a constant.
TEST(ParamFuse, FoldsStaticShapes) {
  TestGraph t;
  VarRef a = t.Input("a", {4});
  VarRef b = t.Shared("b", HostValue::Floats({2, 2}, {1, 2, 3, 4}));
  VarRef shape = t.WithAxis("GetVarShape", {b});
  t.Output(t.WithAxis("Reshape", {a, shape}));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  ASSERT_TRUE(g.var(g.endpoints()[0]).shape);
  EXPECT_EQ(*g.var(g.endpoints()[0]).shape, (Shape{2, 2}));
  EXPECT_TRUE(ParamFuse(&g).changed);
  VarRef reshape = g.endpoints()[0];
  VarRef target = g.node(reshape.node).inputs[1];
  ASSERT_TRUE(g.Is(target, "ImmutableTensor"));
  HostValue v = Value(g, target);
  EXPECT_EQ(v.dtype, kI32);
  EXPECT_EQ(v.i, (std::vector<int32_t>{2, 2}));
  g.Emit();
  EXPECT_EQ(Count(out.graph, "SharedDeviceTensor"), 0u);  // b is no longer read
  ExpectSameOutputs(before, out.graph);
}

// A constant subgraph through every shape operator, TypeCvt to Float16 and back, PowC and a
// two-element Reduce, read by a product with an input: ParamFuse folds it to one tensor
// whose values are worked out here.
TEST(ParamFuse, FoldsAConstantSubgraphOfEveryEvaluatorOperator) {
  TestGraph t;
  VarRef s = t.Shared("s", HostValue::Floats({2, 3}, {1, 2, 3, 4, 5, 6}));
  VarRef d = t.Dimshuffle(s, {1, 0}, 2);                              // (3,2): 1 4 / 2 5 / 3 6
  VarRef a = t.AxisAdd(d, 0);                                         // (1,3,2)
  VarRef b = t.Broadcast(a, t.Imm(HostValue::Ints({3}, {2, 3, 2})));  // (2,3,2)
  VarRef h = t.TypeCvt(t.Elemwise(kMul, {b, t.Imm(HostValue::Floats({1}, {1.001f}))}), kF16);
  VarRef back = t.TypeCvt(h, kF32);
  VarRef sq = t.PowC(back, 2);
  VarRef r = t.Reduce(sq, 0 /*SUM*/, 0);  // (1,3,2)
  t.Output(t.Elemwise(kMul, {t.Input("x", {1, 3, 2}), r}, "out"));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  EXPECT_EQ(*g.var(g.endpoints()[0]).shape, (Shape{1, 3, 2}));
  EXPECT_TRUE(ParamFuse(&g).changed);
  VarRef folded = g.node(g.endpoints()[0].node).inputs[1];
  ASSERT_TRUE(g.Is(folded, "SharedDeviceTensor"));
  HostValue v = Value(g, folded);
  EXPECT_EQ(v.shape, (Shape{1, 3, 2}));
  const float order[] = {1, 4, 2, 5, 3, 6};
  for (int k = 0; k < 6; ++k) {
    // x * 1.001 rounded to half (ties away from zero), squared, twice (broadcast pair).
    float half = HalfBitsToFloat(FloatToHalfBits(order[k] * 1.001f));
    float sq_value = half * half;
    EXPECT_EQ(v.f[k], sq_value + sq_value) << k;
  }
  g.Emit();
  EXPECT_EQ(out.graph.oprs.size(), 3u);  // x, the folded tensor, the product
  ExpectSameOutputs(before, out.graph);
}

// What the evaluator lacks stays: EXP of a constant is not folded, and the graph is alone.
TEST(ParamFuse, StopsWhereTheEvaluatorStops) {
  TestGraph t;
  VarRef c = t.Shared("c", HostValue::Floats({2}, {1, 2}));
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kExp, {c}), t.Input("x", {2})}));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  PassReport report = ParamFuse(&g);
  EXPECT_FALSE(report.changed);
  EXPECT_NE(report.summary.find("1 kept"), std::string::npos) << report.summary;
  VarRef exp = g.node(g.endpoints()[0].node).inputs[0];
  ASSERT_EQ(g.Key(exp.node), "Elemwise");
  EXPECT_EQ(ModeOf(g, exp), 6u);
}

// inference.cpp ParamMerge: two shared tensors become one MultipleDeviceTensorHolder with two
// outputs, named merged2, its outputs keeping the vars' names.
TEST(ParamMerge, MergesSharedTensors) {
  TestGraph t;
  VarRef x = t.Input("x", {2});
  VarRef a = t.Shared("a", HostValue::Floats({2}, {1, 2}));
  VarRef b = t.Shared("b", HostValue::Floats({2}, {3, 4}));
  t.Output(t.Elemwise(kAdd, {t.Elemwise(kMul, {x, a}), b}, "out"));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  PassReport report = ParamMerge(&g);
  EXPECT_TRUE(report.changed);
  EXPECT_EQ(report.summary, "2 SharedDeviceTensor merged into merged2");
  g.Emit();
  ASSERT_EQ(Count(out.graph, "MultipleDeviceTensorHolder"), 1u);
  EXPECT_EQ(Count(out.graph, "SharedDeviceTensor"), 0u);
  for (const Operator& op : out.graph.oprs) {
    if (op.cls->key != "MultipleDeviceTensorHolder") continue;
    EXPECT_EQ(op.name, "merged2");
    ASSERT_EQ(op.outputs.size(), 2u);
    EXPECT_EQ(out.graph.vars[op.outputs[0]].middle.name, "a");
    EXPECT_EQ(out.graph.vars[op.outputs[1]].middle.name, "b");
  }
  EXPECT_EQ(out.graph.nr_shared_tensor, 2u);
  ExpectSameOutputs(before, out.graph);

  TestGraph none;
  none.Output(none.Elemwise(kRelu, {none.Input("x", {2})}));
  const Graph& plain = none.Emit();
  RewrittenGraph out2;
  OptGraph g2(plain, &out2);
  EXPECT_FALSE(ParamMerge(&g2).changed);
}

// misc.cpp RemoveShapeHint: ShapeHint -> its input.
TEST(RemoveShapeHint, Bypasses) {
  TestGraph t;
  t.Output(t.Elemwise(kRelu, {t.Unary("ShapeHint", t.Input("x", {2}))}));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  EXPECT_TRUE(RemoveShapeHint(&g).changed);
  EXPECT_TRUE(g.Is(g.node(g.endpoints()[0].node).inputs[0], "Host2DeviceCopy"));
  g.Emit();
  EXPECT_EQ(Count(out.graph, "ShapeHint"), 0u);
  ExpectSameOutputs(before, out.graph);
}

// The pipeline on a graph with every pattern so far: BN, a marker, a constant subgraph of
// every evaluator operator, shared params and a shape hint.
TEST(OptimizeForInference, RunsThePassesInOrder) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 2, 2, 3});
  VarRef s = t.Shared("s", HostValue::Floats({2}, {0.5f, 1.5f}));
  // A constant chain: Reshape(s, (1,2,1,1)) via GetVarShape and Concat, PowC, TypeCvt to
  // half and back, Dimshuffle, AxisAddRemove, Broadcast, Reduce.
  VarRef one = t.Imm(HostValue::Ints({1}, {1}));
  VarRef two = t.Imm(HostValue::Ints({1}, {2}));
  VarRef shp = t.Concat({one, two, one, one}, 0);
  VarRef scale = t.WithAxis("Reshape", {s, shp});
  VarRef mean = t.Imm(HostValue::Floats({1, 2, 1, 1}, {0.25f, -0.5f}));
  VarRef var = t.Imm(HostValue::Floats({1, 2, 1, 1}, {1.0f, 2.0f}));
  VarRef bias = t.Imm(HostValue::Floats({1, 2, 1, 1}, {0, 1}));
  VarRef bn = t.BatchNorm({x, scale, bias, mean, var}, 1e-5, true);
  VarRef marked = t.Unary("MarkNoBroadcastElemwise", bn);
  VarRef hinted = t.Unary("ShapeHint", marked);
  t.Output(t.Elemwise(kAdd, {hinted, t.Shared("k", HostValue::Floats({3}, {1, 2, 3}))}, "out"));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptimizeResult result = OptimizeForInference(before, {}, &out);
  std::vector<std::string> names;
  for (const PassReport& p : result.passes) names.push_back(p.pass);
  EXPECT_EQ(names, (std::vector<std::string>{"ConvertBatchNormToElemwise",
                                             "RemoveNonComputingOpr",
                                             "DelayBroadcast",
                                             "ExpandFusedArith",
                                             "NormalizeArithChain",
                                             "ParamRedistribute",
                                             "ParamFuse",
                                             "ArithMulDistribute",
                                             "ReorderArithChain",
                                             "ArithFuse",
                                             "ReorderArithChain",
                                             "FinalArithTransform",
                                             "RemoveRedundantTypeCvt",
                                             "RemoveRedundantCopy",
                                             "CombineAstypeAndReduce",
                                             "ParamFuse",
                                             "FoldingReduceMean",
                                             "FoldingGlobalPooling",
                                             "ParamFuse",
                                             "ParamMerge",
                                             "RemoveShapeHint"}));
  ASSERT_EQ(result.passes.size(), 21u);
  EXPECT_TRUE(result.passes[0].changed);
  EXPECT_TRUE(result.passes[1].changed);    // the marker
  EXPECT_FALSE(result.passes[2].changed);   // no Broadcast
  EXPECT_TRUE(result.passes[6].changed);    // ParamFuse #1: the scale chain from s
  EXPECT_FALSE(result.passes[12].changed);  // the TypeCvts were folded with the chain
  EXPECT_FALSE(result.passes[15].changed);  // ParamFuse #2
  EXPECT_TRUE(result.passes[19].changed);   // ParamMerge
  EXPECT_TRUE(result.passes[20].changed);   // ShapeHint
  for (const char* gone : {"BatchNorm", "MarkNoBroadcastElemwise", "ShapeHint", "Reshape", "Concat",
                           "SharedDeviceTensor"}) {
    EXPECT_EQ(Count(out.graph, gone), 0u) << gone;
  }
  EXPECT_EQ(Count(out.graph, "MultipleDeviceTensorHolder"), 1u);
  ExpectSameOutputs(before, out.graph);
}

}  // namespace
}  // namespace graphport::mge::opt
