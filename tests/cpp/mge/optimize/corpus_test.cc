// optimize_for_inference on the real MegEngine files of the corpus and on a built graph:
// the result is written (FBS_V2 and FBS), passes the FlatBuffers verifier through graphport's
// reader, loads back, optimizes to the same structure again, and the evaluator gives the
// same outputs before and after where it has every operator.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/byte_stream.h"
#include "core/error.h"
#include "mge/dump/dump_plan.h"
#include "mge/optimize/eval/graph_eval.h"
#include "mge/optimize/optimize_for_inference.h"
#include "mge/read.h"
#include "mge/write_v1.h"
#include "mge/write_v2.h"
#include "mge_test_util.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ExpectSameOutputs;

std::string Write(const Graph& graph, DumpFormat format) {
  DumpRequest request;
  request.format = format;
  DumpPlan plan = MakeDumpPlan(graph, request);
  WrittenDump dump = format == DumpFormat::kFbsV1 ? WriteV1(plan) : WriteV2(plan);
  StringSink sink;
  dump.WriteTo(&sink);
  return sink.Take();
}

std::vector<std::string> Types(const Graph& graph) {
  std::vector<std::string> types;
  for (const Operator& op : graph.oprs) types.push_back(op.cls ? op.cls->key : op.DisplayType());
  return types;
}

// Optimizes, writes in `format`, reads back, optimizes again: the same operators.
void CheckRoundTrip(const Graph& loaded, DumpFormat format) {
  RewrittenGraph once_storage;
  const Graph& once = *OptimizeForInference(loaded, {}, &once_storage).graph;
  std::string bytes = Write(once, format);
  std::unique_ptr<MgeFile> back = ReadMgeFile(bytes, "optimized");
  ASSERT_EQ(back->graphs.size(), 1u);
  EXPECT_EQ(Types(back->graphs[0]), Types(once));
  RewrittenGraph twice;
  OptimizeResult again = OptimizeForInference(back->graphs[0], {}, &twice);
  EXPECT_EQ(Types(*again.graph), Types(once));
  // Only the outputs' original_id may differ: they number vars in the graph that dumps.
  const std::string twice_bytes = Write(*again.graph, format);
  EXPECT_EQ(twice_bytes, mge::testing::WithOriginalIdsOf(bytes, twice_bytes))
      << "a second optimization changed the dump";
  // What one pass takes apart a later one puts together again, into the loaded operators:
  // the graph comes back as loaded.
  EXPECT_FALSE(again.changed);
}

TEST(OptimizeCorpus, ReshapeModelFoldsNothingAndComputesTheSame) {
  std::unique_ptr<MgeFile> file =
      ReadMgeFile(mge::testing::ReadCorpusFile(mge::testing::kReshapeFile), "reshape");
  const Graph& loaded = file->graphs[0];
  RewrittenGraph out;
  OptimizeResult result = OptimizeForInference(loaded, {}, &out);
  // Three Reshapes of the input by ImmutableTensor shapes: nothing is constant but the shapes,
  // which are already ImmutableTensors.
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(Types(*result.graph), Types(loaded));
  ExpectSameOutputs(loaded, *result.graph, 0);
  for (DumpFormat f : {DumpFormat::kFbsV2, DumpFormat::kFbsV1}) CheckRoundTrip(loaded, f);
}

TEST(OptimizeCorpus, ConvolutionModelKeepsWhatTheEvaluatorLacks) {
  std::unique_ptr<MgeFile> file =
      ReadMgeFile(mge::testing::ReadCorpusFile(mge::testing::kConvFile), "conv");
  const Graph& loaded = file->graphs[0];
  RewrittenGraph out;
  OptimizeResult result = OptimizeForInference(loaded, {}, &out);
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(Types(*result.graph), Types(loaded));
  // The evaluator has no Convolution: running the graph names it instead of guessing.
  RewrittenGraph scratch;
  OptGraph g(loaded, &scratch);
  GraphEvaluator eval(g, EvalOptions{false});
  eval.SetInput(0, HostValue::Floats({8, 1, 32, 32}, std::vector<float>(8 * 32 * 32, 1.0f)));
  std::string why;
  EXPECT_FALSE(eval.Value(g.endpoints()[0], &why));
  EXPECT_NE(why.find("Convolution"), std::string::npos) << why;
  for (DumpFormat f : {DumpFormat::kFbsV2, DumpFormat::kFbsV1}) CheckRoundTrip(loaded, f);
}

TEST(OptimizeCorpus, BuiltGraphWritesAndLoadsBack) {
  testing::TestGraph t;
  VarRef x = t.Input("x", {1, 2, 2, 2});
  VarRef p = t.Imm(HostValue::Floats({1, 2, 1, 1}, {1.0f, 2.0f}));
  VarRef q = t.Imm(HostValue::Floats({1, 2, 1, 1}, {0.5f, 0.25f}));
  VarRef bn = t.BatchNorm({x, p, q, q, p}, 1e-3, true);
  t.Output(t.Elemwise(
      kRelu, {t.Elemwise(kAdd, {bn, t.Shared("w", HostValue::Floats({2}, {1, 2}))})}, "out"));
  const Graph& before = t.Emit();
  for (DumpFormat f : {DumpFormat::kFbsV2}) CheckRoundTrip(before, f);
  RewrittenGraph out;
  const Graph& optimized = *OptimizeForInference(before, {}, &out).graph;
  EXPECT_NE(&optimized, &before);
  std::unique_ptr<MgeFile> back = ReadMgeFile(Write(optimized, DumpFormat::kFbsV2), "built");
  ExpectSameOutputs(before, back->graphs[0]);
}

// The global pooling head (testing::AddGlobalPoolingHead). Optimized, it is
// one AdaptivePooling (the BatchNorm folded in front of it); written in FBS_V2 and FBS it loads
// back, a second optimization changes nothing, and it computes what the loaded graph computes.
TEST(OptimizeCorpus, GlobalPoolingHeadFoldsWritesAndLoadsBack) {
  testing::TestGraph t;
  testing::AddGlobalPoolingHead(&t);
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptimizeResult result = OptimizeForInference(before, {}, &out);
  const std::vector<std::string> types = Types(*result.graph);
  EXPECT_EQ(std::count(types.begin(), types.end(), "AdaptivePooling"), 1);
  EXPECT_EQ(std::count(types.begin(), types.end(), "Reduce"), 0);
  EXPECT_EQ(std::count(types.begin(), types.end(), "BatchNorm"), 0);
  for (DumpFormat f : {DumpFormat::kFbsV2, DumpFormat::kFbsV1}) {
    CheckRoundTrip(before, f);
    std::unique_ptr<MgeFile> back = ReadMgeFile(Write(*result.graph, f), "pooled");
    ExpectSameOutputs(before, back->graphs[0], 1e-5);
  }
}

}  // namespace
}  // namespace graphport::mge::opt

namespace graphport::mge::opt {
namespace {

using testing::TestGraph;

HostValue Seeded(Shape shape, uint32_t seed, float lo = -2.0f, float hi = 2.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(ElementCount(shape));
  for (float& v : values) v = dist(rng);
  return HostValue::Floats(std::move(shape), std::move(values));
}

// Optimizes the built graph: the same outputs (within 1e-6 of each output's largest
// magnitude), written in FBS_V2 and FBS it loads back and a second optimization gives the
// loaded graph itself, byte for byte.
const Graph& OptimizeBuilt(TestGraph* t, RewrittenGraph* storage, const Graph** before) {
  *before = &t->Emit();
  const Graph& after = *OptimizeForInference(**before, {}, storage).graph;
  testing::ExpectSameOutputsNormwise(**before, after, 1e-6);
  for (DumpFormat f : {DumpFormat::kFbsV2, DumpFormat::kFbsV1}) CheckRoundTrip(**before, f);
  return after;
}

std::string Final(const Graph& graph) {
  RewrittenGraph scratch;
  OptGraph g(graph, &scratch);
  return testing::Expr(g, g.endpoints()[0], /*canonical=*/true);
}

// Convolution, bias, BatchNorm and ReLU: the BatchNorm's scale goes into the weights and
// the rest into one bias, ReLU fuses with the bias addition (research §2.5).
TEST(OptimizePipeline, ConvBiasBatchNormRelu) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 6, 6});
  VarRef w = t.Imm(Seeded({4, 3, 3, 3}, 1));
  VarRef b = t.Imm(Seeded({1, 4, 1, 1}, 2));
  VarRef conv = t.Elemwise(kAdd, {t.Convolution(x, w), b});
  VarRef bn = t.BatchNorm({conv, t.Imm(Seeded({1, 4, 1, 1}, 3)), t.Imm(Seeded({1, 4, 1, 1}, 4)),
                           t.Imm(Seeded({1, 4, 1, 1}, 5)), t.Imm(Seeded({1, 4, 1, 1}, 6, 0.5f, 2))},
                          1e-5, true);
  t.Output(t.Elemwise(kRelu, {bn}, "out"));
  RewrittenGraph storage;
  const Graph* before;
  const Graph& after = OptimizeBuilt(&t, &storage, &before);
  EXPECT_EQ(Final(after),
            "FUSE_ADD_RELU(Convolution(x,imm),imm(1.996369,0.958788,-2.627430,-0.705112))");
}

// Convolution plus bias plus a residual input, then ReLU: ReorderArithChain adds the bias
// last (the smallest term), and the activation fuses with that addition.
TEST(OptimizePipeline, ConvBiasResidualRelu) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 3, 5, 5}), y = t.Input("y", {1, 4, 3, 3});
  VarRef conv = t.Convolution(x, t.Imm(Seeded({4, 3, 3, 3}, 7)));
  VarRef sum = t.Elemwise(kAdd, {t.Elemwise(kAdd, {conv, t.Imm(Seeded({1, 4, 1, 1}, 8))}), y});
  t.Output(t.Elemwise(kRelu, {sum}, "out"));
  RewrittenGraph storage;
  const Graph* before;
  const Graph& after = OptimizeBuilt(&t, &storage, &before);
  EXPECT_EQ(Final(after),
            "FUSE_ADD_RELU(ADD(Convolution(x,imm),y),imm(1.493718,-1.955542,1.874163,-1.042242))");
}

// A chain of matrix products with per-column scales and biases: each scale goes into the
// weights before it (MulMatmul), each product plus bias stays a sum.
TEST(OptimizePipeline, MatmulChain) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 8});
  VarRef h = t.MatrixMul(x, t.Imm(Seeded({8, 6}, 9)));
  h = t.Elemwise(kAdd,
                 {t.Elemwise(kMul, {h, t.Imm(Seeded({1, 6}, 10))}), t.Imm(Seeded({1, 6}, 11))});
  h = t.Elemwise(kRelu, {h});
  h = t.Elemwise(kMul, {t.MatrixMul(h, t.Imm(Seeded({6, 3}, 12))), t.Imm(Seeded({1, 3}, 13))});
  t.Output(h);
  RewrittenGraph storage;
  const Graph* before;
  const Graph& after = OptimizeBuilt(&t, &storage, &before);
  EXPECT_EQ(Final(after), "MatrixMul(FUSE_ADD_RELU(MatrixMul(x,imm),imm),imm)");
}

// A reduce-mean head over a scaled feature map: FoldingReduceMean makes the sum and the
// division by the axis' size one Reduce MEAN (mode 5).
TEST(OptimizePipeline, ReduceMeanHead) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 4});
  VarRef s = t.Elemwise(kMul, {x, t.Imm(Seeded({1, 3, 1}, 14))});
  VarRef sum = t.Reduce(s, 0 /*SUM*/, 2);
  VarRef count = t.TypeCvt(t.WithAxis("GetVarShape", {s}, 2), kF32);
  t.Output(t.Elemwise(kTrueDiv, {sum, count}, "out"));
  RewrittenGraph storage;
  const Graph* before;
  const Graph& after = OptimizeBuilt(&t, &storage, &before);
  EXPECT_EQ(Final(after), "Reduce5(MUL(imm(0.055773,1.687574,1.092660),x))");
}

}  // namespace
}  // namespace graphport::mge::opt
