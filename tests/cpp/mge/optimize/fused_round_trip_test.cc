// The pipeline keeps the fused operators that ExpandFusedArith -> ArithFuse would give back
// as they are (expand_fused_arith/round_trip.h): the result is byte for byte the one of the
// pipeline that takes every fused operator apart, as MegEngine does, on optimized graphs,
// on graphs where the round trip does change an operator, and on the corpus files.
#include <gtest/gtest.h>

#include "core/byte_stream.h"
#include "mge/dump/dump_plan.h"
#include "mge/optimize/optimize_for_inference.h"
#include "mge/read.h"
#include "mge/write_v2.h"
#include "mge_test_util.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::TestGraph;

std::string Written(const Graph& graph) {
  DumpRequest request;
  request.format = DumpFormat::kFbsV2;
  request.keep_opr_name = true;
  DumpPlan plan = MakeDumpPlan(graph, request);
  StringSink sink;
  WriteV2(plan).WriteTo(&sink);
  return sink.Take();
}

struct Both {
  OptimizeResult kept, expanded;
  std::string kept_bytes, expanded_bytes;
};

// The pipeline twice on `graph`: keeping round trips, and expanding every fused operator.
Both RunBoth(const Graph& graph) {
  Both b;
  RewrittenGraph s1, s2;
  b.kept = OptimizeForInference(graph, {}, &s1);
  b.kept_bytes = Written(*b.kept.graph);
  OptimizeOptions every;
  every.expand_every_fused = true;
  b.expanded = OptimizeForInference(graph, every, &s2);
  b.expanded_bytes = Written(*b.expanded.graph);
  return b;
}

std::string ExpandReport(const OptimizeResult& r) {
  for (const PassReport& p : r.passes) {
    if (p.pass == "ExpandFusedArith") return p.summary;
  }
  return "missing";
}

// Two optimized blocks, FUSE_MUL_ADD3 then RELU, and FUSE_ADD_RELU: nothing is expanded,
// the graph comes back as it was, and expanding everything gives the same bytes.
TEST(FusedRoundTrip, OptimizedBlocksAreKept) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 8});
  VarRef w0 = t.Imm(testing::Ramp({1, 8}, 1, 0.25f), "w0"),
         b0 = t.Imm(testing::Ramp({1, 8}, -1, 0.25f), "b0");
  VarRef y = t.Elemwise(kRelu, {t.Elemwise(kFuseMulAdd3, {x, w0, b0}, "fma")}, "relu");
  VarRef b1 = t.Imm(testing::Ramp({1, 8}, 2, 0.25f), "b1");
  VarRef z = t.Elemwise(kFuseAddRelu, {y, b1}, "out");
  t.Output(z);
  const Graph& graph = t.Emit();
  Both b = RunBoth(graph);
  EXPECT_EQ(ExpandReport(b.kept), "");
  EXPECT_EQ(ExpandReport(b.expanded), "2 fused Elemwise expanded");
  EXPECT_FALSE(b.kept.changed);
  EXPECT_EQ(b.kept_bytes, b.expanded_bytes);
}

// Round trips that do change the operator are taken apart, and both pipelines agree: a bias
// of neither factor's shape (ArithFuse then adds it after a plain MUL), two products of
// different shapes (no FUSE_MUL_ADD4 again), inputs not in the constructor's id order, a
// product read by an ADD, and a sum whose operand is a product.
TEST(FusedRoundTrip, ChangedRoundTripsAreExpandedAsMegEngineDoes) {
  {
    TestGraph t;
    VarRef x = t.Input("x", {4, 8});
    VarRef w = t.Imm(testing::Ramp({1, 8}, 1, 0.25f)), c = t.Imm(testing::Ramp({4, 1}, 3, 0.25f));
    t.Output(t.Elemwise(kSigmoid, {t.Elemwise(kFuseMulAdd3, {x, w, c})}));
    Both b = RunBoth(t.Emit());
    EXPECT_EQ(ExpandReport(b.kept), "1 fused Elemwise expanded");
    EXPECT_EQ(b.kept_bytes, b.expanded_bytes);
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {4, 8}), y = t.Input("y", {4, 8});
    VarRef w = t.Imm(testing::Ramp({1, 8}, 1, 0.25f)), v = t.Imm(testing::Ramp({4, 1}, 3, 0.25f));
    t.Output(t.Elemwise(kRelu, {t.Elemwise(kFuseMulAdd4, {x, w, y, v})}));
    Both b = RunBoth(t.Emit());
    EXPECT_EQ(ExpandReport(b.kept), "1 fused Elemwise expanded");
    EXPECT_EQ(b.kept_bytes, b.expanded_bytes);
  }
  {
    TestGraph t;  // x is written (and loaded) before b1, so b1 has the larger id
    VarRef x = t.Input("x", {4, 8});
    VarRef b1 = t.Imm(testing::Ramp({1, 8}, 2, 0.25f));
    t.Output(t.Elemwise(kRelu, {x}));
    // Loading stores the inputs as FUSE_ADD_RELU(x, b1), as MegEngine's constructor does:
    // the operator is made again as it is, so nothing is expanded.
    t.Output(t.Elemwise(kFuseAddRelu, {b1, x}));
    Both b = RunBoth(t.Emit());
    EXPECT_EQ(ExpandReport(b.kept), "");
    EXPECT_EQ(b.kept_bytes, b.expanded_bytes);
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {4, 8}), y = t.Input("y", {4, 8});
    VarRef w = t.Imm(testing::Ramp({1, 8}, 1, 0.25f)), c = t.Imm(testing::Ramp({1, 8}, 3, 0.25f));
    VarRef f = t.Elemwise(kFuseMulAdd3, {x, w, c});
    t.Output(t.Elemwise(kAdd, {f, y}));  // ADD: the chain grows past the fused operator
    Both b = RunBoth(t.Emit());
    EXPECT_EQ(ExpandReport(b.kept), "1 fused Elemwise expanded");
    EXPECT_EQ(b.kept_bytes, b.expanded_bytes);
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {4, 8}), y = t.Input("y", {4, 8});
    VarRef p = t.Elemwise(kMul, {x, y});  // MUL
    t.Output(t.Elemwise(kFuseAddRelu, {p, t.Imm(testing::Ramp({1, 8}, 2, 0.25f))}));
    Both b = RunBoth(t.Emit());
    EXPECT_EQ(ExpandReport(b.kept), "1 fused Elemwise expanded");
    EXPECT_EQ(b.kept_bytes, b.expanded_bytes);
  }
}

TEST(FusedRoundTrip, CorpusFilesGiveTheSameBytesEitherWay) {
  for (const std::string& name : mge::testing::CorpusFiles()) {
    SCOPED_TRACE(name);
    std::unique_ptr<MgeFile> file = ReadMgeFile(mge::testing::ReadCorpusFile(name), name);
    for (const Graph& graph : file->graphs) {
      Both b = RunBoth(graph);
      EXPECT_EQ(b.kept_bytes, b.expanded_bytes);
    }
  }
}

}  // namespace
}  // namespace graphport::mge::opt
