// The enable_fuse_grain passes and CombineAstypeAndReduce on MegEngine's own test graphs
// (src/gopt/test/gopt_old_model.cpp and misc.cpp CombineAstypeAndReducePass.Basic; research
// megengine_optimize.md §5.4, §5.5): a global average pooling written as Reshape, Reduce
// SUM, a division by the count and axis operators becomes Reduce MEAN, then one
// AdaptivePooling, and computes the same.
#include <gtest/gtest.h>

#include "mge/optimize/combine_astype_and_reduce/combine_astype_and_reduce.h"
#include "mge/optimize/folding_global_pooling/folding_global_pooling.h"
#include "mge/optimize/folding_reduce_mean/folding_reduce_mean.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::Expr;
using testing::TestGraph;

// x (2,3,4,5) -> Reshape (2,3,20) -> Reduce(mode, axis 2) -> remove axis 2; for SUM divided
// by TypeCvt(GetVarShape(reshape, 2), Float32). Returns the (2,3) value.
VarRef Pooled(TestGraph* t, uint32_t mode) {
  VarRef x = t->Input("x", {2, 3, 4, 5});
  VarRef flat = t->WithAxis("Reshape", {x, t->Imm(HostValue::Ints({3}, {2, 3, 20}))});
  VarRef reduced = t->AxisAddRemove(t->Reduce(flat, mode, 2), {{true, 2}});
  if (mode != kReduceSum) return reduced;
  VarRef count = t->TypeCvt(t->WithAxis("GetVarShape", {flat}, 2), kF32);
  return t->Elemwise(kTrueDiv, {reduced, count});
}

// gopt_old_model.cpp: (N,C) -> AxisAddRemove(add 2, add 3): Reduce MEAN after the first
// pass, AdaptivePooling AVERAGE after the second.
TEST(FuseGrain, AverageThroughAxisOperators) {
  TestGraph t;
  t.Output(t.AxisAddRemove(Pooled(&t, kReduceSum), {{false, 2}, {false, 3}}));
  const Graph& before = t.Emit();
  RewrittenGraph storage;
  OptGraph g(before, &storage);
  PassReport mean = FoldingReduceMean(&g);
  EXPECT_EQ(mean.summary, "1 sums over counts made Reduce MEAN");
  EXPECT_EQ(Expr(g, g.endpoints()[0]),
            "AxisAddRemove(AxisAddRemove(Reduce5(Reshape(x,imm(2,3,20)))))");
  PassReport pool = FoldingGlobalPooling(&g);
  EXPECT_EQ(pool.summary, "1 global poolings made AdaptivePooling");
  const VarRef top = g.endpoints()[0];
  EXPECT_EQ(Expr(g, top), "AdaptivePoolingAVG(x,imm(1,1))");
  EXPECT_EQ(*g.var(top).shape, (Shape{2, 3, 1, 1}));
  testing::ExpectSameOutputs(before, g.Emit());
}

// The Dimshuffle (0,1,-1,-1) form, and MAX.
TEST(FuseGrain, MaxThroughDimshuffle) {
  TestGraph t;
  t.Output(t.Dimshuffle(Pooled(&t, kReduceMax), {0, 1, -1, -1}, 2));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, FoldingGlobalPooling, &report);
  EXPECT_TRUE(report.changed);
  EXPECT_EQ(out[0], "AdaptivePoolingMAX(x,imm(1,1))");
}

// gopt_old_model.cpp L192: no trailing axis operators: the division alone becomes MEAN.
TEST(FuseGrain, MeanWithoutAxisOperators) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 4, 5});
  VarRef flat = t.WithAxis("Reshape", {x, t.Imm(HostValue::Ints({3}, {2, 3, 20}))});
  VarRef count = t.TypeCvt(t.WithAxis("GetVarShape", {flat}, 2), kF32);
  t.Output(t.Elemwise(kTrueDiv, {t.Reduce(flat, kReduceSum, 2), count}));
  std::vector<std::string> out = ApplyPass(&t, FoldingReduceMean);
  EXPECT_EQ(out[0], "Reduce5(Reshape(x,imm(2,3,20)))");
}

// The count must be of the summed operator, along the same axis, and nothing else may read
// that operator.
TEST(FuseGrain, LeavesOtherDivisionsAlone) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 4, 5});
  VarRef flat = t.WithAxis("Reshape", {x, t.Imm(HostValue::Ints({3}, {2, 3, 20}))});
  VarRef other_axis = t.TypeCvt(t.WithAxis("GetVarShape", {flat}, 1), kF32);
  t.Output(t.Elemwise(kTrueDiv, {t.Reduce(flat, kReduceSum, 2), other_axis}));
  t.Output(flat);  // a third reader
  PassReport report;
  ApplyPass(&t, FoldingReduceMean, &report);
  EXPECT_FALSE(report.changed);
}

// misc.cpp CombineAstypeAndReducePass.Basic: Reduce SUM of TypeCvt(relu(TypeCvt(x, f16)),
// f32) reads the half value with data_type FLOAT_O32xC32.
TEST(CombineAstypeAndReduce, ReadsHalfDirectly) {
  TestGraph t;
  VarRef half = t.Elemwise(kRelu, {t.TypeCvt(t.Input("x", {2, 3, 3}), kF16)});
  t.Output(t.Reduce(t.TypeCvt(half, kF32), kReduceSum, 0));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, CombineAstypeAndReduce, &report);
  EXPECT_EQ(out[0], "Reduce0dt2(RELU(TypeCvt9(x)))");
  EXPECT_EQ(report.summary, "1 Reduce read Float16 directly");
}

}  // namespace
}  // namespace graphport::mge::opt
