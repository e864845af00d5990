// DelayBroadcast on MegEngine's own test graphs (src/gopt/test/misc.cpp, DelayBroadcastPass
// Basic, Const, ScalarInput and LongChain; research megengine_optimize.md §5.5): the graph
// after the pass has the structure of MegEngine's expected graph, and computes the same.
#include "mge/optimize/delay_broadcast/delay_broadcast.h"

#include <gtest/gtest.h>

#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::TestGraph;

// x (1,1,3), y (1,2,3), z (2,2,3), as in MegEngine's tests.
struct Inputs {
  explicit Inputs(TestGraph* t)
      : t(t),
        x(t->Input("x", {1, 1, 3})),
        y(t->Input("y", {1, 2, 3})),
        z(t->Input("z", {2, 2, 3})) {}
  VarRef Relu(VarRef v) { return t->Elemwise(kRelu, {v}); }
  VarRef Half(VarRef v) { return t->TypeCvt(v, kF16); }
  VarRef Float(VarRef v) { return t->TypeCvt(v, kF32); }
  VarRef Bcast(VarRef v, VarRef like) {
    return t->Broadcast(v, t->WithAxis("GetVarShape", {like}));
  }
  VarRef Shape(VarRef v) { return t->WithAxis("GetVarShape", {v}); }
  TestGraph* t;
  VarRef x, y, z;
};

std::string Delayed(TestGraph* t, PassReport* report = nullptr) {
  std::vector<std::string> out = ApplyPass(t, DelayBroadcast, report);
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? "" : out[0];
}

TEST(DelayBroadcast, SwapsTwoOperators) {
  TestGraph t;
  Inputs in(&t);
  t.Output(in.Relu(in.Bcast(in.x, in.y)));
  PassReport report;
  EXPECT_EQ(Delayed(&t, &report), "Broadcast(RELU(x),GetVarShape(y))");
  EXPECT_TRUE(report.changed);
  EXPECT_EQ(report.summary, "1 Broadcasts moved after their chains");
}

TEST(DelayBroadcast, ShiftsSeveralOperators) {
  TestGraph t;
  Inputs in(&t);
  t.Output(in.Half(in.Relu(in.Bcast(in.x, in.y))));
  EXPECT_EQ(Delayed(&t), "Broadcast(TypeCvt9(RELU(x)),GetVarShape(y))");
}

// A chain read only for its shape ends where GetVarShape reads it.
TEST(DelayBroadcast, ChainsReadByGetVarShape) {
  TestGraph t;
  Inputs in(&t);
  t.Output(in.Shape(in.Half(in.Relu(in.Bcast(in.x, in.y)))));
  EXPECT_EQ(Delayed(&t), "GetVarShape(Broadcast(TypeCvt9(RELU(x)),GetVarShape(y)))");

  TestGraph t2;
  Inputs in2(&t2);
  t2.Output(in2.Shape(in2.Half(in2.Bcast(in2.Relu(in2.x), in2.y))));
  EXPECT_EQ(Delayed(&t2), "GetVarShape(Broadcast(TypeCvt9(RELU(x)),GetVarShape(y)))");
}

TEST(DelayBroadcast, LeavesBroadcastOfBroadcastAlone) {
  TestGraph t;
  Inputs in(&t);
  t.Output(in.Bcast(in.Bcast(in.x, in.y), in.z));
  PassReport report;
  EXPECT_EQ(Delayed(&t, &report), "Broadcast(Broadcast(x,GetVarShape(y)),GetVarShape(z))");
  EXPECT_FALSE(report.changed);
}

// relu(bcast_z(typecvt(bcast_y(x)))) -> bcast_z(bcast_y(relu(typecvt(x)))).
TEST(DelayBroadcast, MixedChain) {
  TestGraph t;
  Inputs in(&t);
  t.Output(in.Relu(in.Bcast(in.Half(in.Bcast(in.x, in.y)), in.z)));
  EXPECT_EQ(Delayed(&t), "Broadcast(Broadcast(RELU(TypeCvt9(x)),GetVarShape(y)),GetVarShape(z))");
}

// The top of a chain read by an operator outside it (an ADD of two full inputs).
TEST(DelayBroadcast, ChainUnderAnotherOperator) {
  TestGraph t;
  Inputs in(&t);
  t.Output(t.Elemwise(kAdd, {in.y, in.Relu(in.Bcast(in.x, in.z))}, "out"));
  EXPECT_EQ(Delayed(&t), "ADD(y,Broadcast(RELU(x),GetVarShape(z)))");
}

// A second chain over a first one that the pass rewrote. The ADD made again orders its
// inputs by var id, as Elemwise::make does: the new Broadcast comes last.
TEST(DelayBroadcast, ChainOverARewrittenChain) {
  TestGraph t;
  Inputs in(&t);
  VarRef inner = t.Elemwise(kAdd, {in.Half(in.Bcast(in.x, in.y)), in.Half(in.y)});
  t.Output(in.Float(in.Bcast(inner, in.z)));
  EXPECT_EQ(Delayed(&t),
            "Broadcast(TypeCvt0(ADD(TypeCvt9(y),Broadcast(TypeCvt9(x),GetVarShape(y)))),"
            "GetVarShape(z))");
}

// DelayBroadcastPass.Const: -(bcast(1, shape(x))) -> bcast(-1, shape(x)): the negation of the
// constant folds as it is made.
TEST(DelayBroadcast, FoldsTheConstantUnderTheBroadcast) {
  TestGraph t;
  VarRef x = t.Input("x", {5, 3});
  VarRef one = t.Imm(HostValue::Floats({1}, {1.0f}));
  t.Output(t.Elemwise(kNegate, {t.Broadcast(one, t.WithAxis("GetVarShape", {x}))}, "out"));
  EXPECT_EQ(Delayed(&t), "Broadcast(imm(-1),GetVarShape(x))");
}

// DelayBroadcastPass.ScalarInput: x.reshape({1}) is a scalar of constant shape, so the chain
// goes through the SUB's other input: (x - y).broadcast({3,5}).
TEST(DelayBroadcast, ScalarOperandsStayBeside) {
  TestGraph t;
  VarRef x = t.WithAxis("Reshape", {t.Input("x", {1}), t.Imm(HostValue::Ints({1}, {1}))});
  VarRef y = t.Input("y", {3, 1});
  VarRef shape = t.Imm(HostValue::Ints({2}, {3, 5}));
  t.Output(t.Elemwise(kSub, {x, t.Broadcast(y, shape)}, "out"));
  EXPECT_EQ(Delayed(&t), "Broadcast(SUB(Reshape(x,imm(1)),y),imm(3,5))");
}

// DelayBroadcastPass.LongChain: bcast(relu(bcast(relu(x), y)), z) ->
// bcast(bcast(relu(relu(x)), y), z); the top Broadcast stays on top.
TEST(DelayBroadcast, LongChain) {
  TestGraph t;
  Inputs in(&t);
  t.Output(in.Bcast(in.Relu(in.Bcast(in.Relu(in.x), in.y)), in.z));
  EXPECT_EQ(Delayed(&t), "Broadcast(Broadcast(RELU(RELU(x)),GetVarShape(y)),GetVarShape(z))");
}

// A link read twice ends the chain below it: a Broadcast that another operator reads too
// stays where it is. (ADD's inputs are stored by var id when the graph is loaded, as
// MegEngine's Elemwise constructor stores them: y first.)
TEST(DelayBroadcast, BroadcastsReadTwiceStay) {
  TestGraph t;
  Inputs in(&t);
  VarRef b = in.Bcast(in.x, in.y);
  t.Output(in.Relu(b));
  t.Output(t.Elemwise(kAdd, {b, in.y}));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, DelayBroadcast, &report);
  EXPECT_FALSE(report.changed);
  EXPECT_EQ(out[0], "RELU(Broadcast(x,GetVarShape(y)))");
  EXPECT_EQ(out[1], "ADD(y,Broadcast(x,GetVarShape(y)))");
}

// The top's explicit name moves to the var that replaces it; the copies have none.
TEST(DelayBroadcast, TheTopsNameMoves) {
  TestGraph t;
  Inputs in(&t);
  t.Output(t.Elemwise(kRelu, {in.Bcast(in.x, in.y)}, "relu"));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  EXPECT_TRUE(DelayBroadcast(&g).changed);
  const VarRef top = g.endpoints()[0];
  EXPECT_EQ(testing::Expr(g, top), "Broadcast(RELU(x),GetVarShape(y))");
  EXPECT_EQ(g.var(top).middle().name, "relu");
  EXPECT_FALSE(g.var(g.node(top.node).inputs[0]).middle().name);
  testing::ExpectSameOutputs(before, g.Emit());
}

}  // namespace
}  // namespace graphport::mge::opt
