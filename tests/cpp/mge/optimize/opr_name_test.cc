// The names of the operators the passes make (opr_name.h): MegEngine's default
// `<base>(<input names>)[<operator id>]`, a value summary for ImmutableTensors, and every
// operator a pass makes named, so that keep_opr_name never writes a nameless one.
#include "mge/optimize/opr_name.h"

#include <gtest/gtest.h>

#include <regex>

#include "mge/optimize/arith_fuse/arith_fuse.h"
#include "mge/optimize/arith_mul_distribute/arith_mul_distribute.h"
#include "mge/optimize/combine_astype_and_reduce/combine_astype_and_reduce.h"
#include "mge/optimize/convert_batch_norm/convert_batch_norm.h"
#include "mge/optimize/convert_f32_to_f16/convert_f32_to_f16.h"
#include "mge/optimize/delay_broadcast/delay_broadcast.h"
#include "mge/optimize/expand_fused_arith/expand_fused_arith.h"
#include "mge/optimize/final_arith_transform/final_arith_transform.h"
#include "mge/optimize/folding_global_pooling/folding_global_pooling.h"
#include "mge/optimize/folding_reduce_mean/folding_reduce_mean.h"
#include "mge/optimize/fuse_conv_bias_nonlin/fuse_conv_bias_nonlin.h"
#include "mge/optimize/normalize_arith_chain/normalize_arith_chain.h"
#include "mge/optimize/param_fuse/param_fuse.h"
#include "mge/optimize/param_merge/param_merge.h"
#include "mge/optimize/param_redistribute/param_redistribute.h"
#include "mge/optimize/reorder_arith_chain/reorder_arith_chain.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::TestGraph;

// Runs `pass` on the graph `t` built and returns the names of the operators it made (id
// above every loaded one) that reach the outputs; each must have one. The loaded operators
// the test did not name are named "loaded<i>" first, as a file with names is loaded: their
// copies (re-made on replaced inputs) keep those names and are left out.
std::vector<std::string> MadeNames(TestGraph* t, PassReport (*pass)(OptGraph*)) {
  for (uint32_t i = 0; i < t->g().size(); ++i) {
    if (!t->g().node(i).op().name) t->g().set_opr_name(i, "loaded" + std::to_string(i));
  }
  const Graph& before = t->Emit();
  RewrittenGraph storage;
  OptGraph g(before, &storage);
  uint64_t last_loaded = 0;
  for (uint32_t i = 0; i < g.size(); ++i) last_loaded = std::max(last_loaded, g.node(i).id);
  EXPECT_TRUE(pass(&g).changed);
  const Graph& after = g.Emit();
  std::vector<std::string> names;
  for (size_t i = 0; i < after.oprs.size(); ++i) {
    if (storage.opr_ids[i] <= last_loaded) continue;
    EXPECT_TRUE(after.oprs[i].name.has_value()) << "operator " << i << " has no name";
    const std::string name = after.oprs[i].name.value_or("");
    if (name.rfind("loaded", 0) != 0) names.push_back(name);
  }
  EXPECT_FALSE(names.empty());
  return names;
}

bool DefaultNamed(const std::string& name) {
  return std::regex_match(
      name, std::regex(R"([A-Za-z_0-9]+(<[^>]*>)?(\{[0-9,]*\})?(\(.*\))?\[[0-9]+\])"));
}

// FUSE_ADD_RELU(a, b) -> RELU(ADD(a, b)): ids a 1/2, b 3/4, the fused 5/6, then the ADD
// (operator 7) and the RELU (operator 9); an input's parenthesised part is dropped.
TEST(OprName, ExpandFusedArithNamesWhatItMakes) {
  TestGraph t;
  VarRef a = t.Input("a", {3, 4}), b = t.Input("b", {3, 4});
  t.Output(t.Elemwise(kFuseAddRelu, {a, b}, "act"));
  EXPECT_EQ(MadeNames(&t, ExpandFusedArith),
            (std::vector<std::string>{"ADD(a,b)[6]", "RELU(ADD[6])[8]"}));
}

TEST(OprName, ArithFuseNamesTheFusedOperator) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 8});
  VarRef w = t.Imm(testing::Ramp({1, 8}, 1, 0.5f), "w"),
         b = t.Imm(testing::Ramp({1, 8}, 2, 0.5f), "b");
  t.Output(t.Elemwise(kRelu, {t.Elemwise(kAdd, {t.Elemwise(kMul, {x, w}), b})}, "out"));
  std::vector<std::string> names = MadeNames(&t, ArithFuse);
  ASSERT_EQ(names.size(), 1u);
  // The pass puts the smaller factor first (w), and the name lists the inputs as the pass
  // gives them: the Elemwise constructor names the operator before it orders its inputs by
  // var id (checked against MegEngine's own names: "MUL(subtensor[172],const<4>[73])").
  EXPECT_TRUE(std::regex_match(names[0], std::regex(R"(FUSE_MUL_ADD3\(w,x,b\)\[[0-9]+\])")))
      << names[0];
}

// The constants folded at creation are named by their value.
TEST(OprName, ConvertBatchNormNamesItsArithmeticAndConstants) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 4, 4});
  auto param = [&](float start, const char* name) {
    return t.Imm(testing::Ramp({1, 3, 1, 1}, start, 0.5f), name);
  };
  VarRef y = t.BatchNorm(
      {x, param(1, "scale"), param(0, "bias"), param(0.5f, "mean"), param(2, "var")}, 1e-5, true);
  t.Output(y);
  std::vector<std::string> names = MadeNames(&t, ConvertBatchNormToElemwise);
  for (const std::string& n : names) EXPECT_TRUE(DefaultNamed(n)) << n;
  EXPECT_NE(std::find_if(names.begin(), names.end(),
                         [](const std::string& n) { return n.rfind("SUB(x,mean)[", 0) == 0; }),
            names.end());
  EXPECT_NE(std::find_if(names.begin(), names.end(),
                         [](const std::string& n) { return n.rfind("const{1,3,1,1}[", 0) == 0; }),
            names.end());
}

TEST(OprName, ChainPassesNameWhatTheyMake) {
  {
    TestGraph t;  // x - y -> x + NEGATE(y)
    VarRef x = t.Input("x", {4}), y = t.Input("y", {4});
    t.Output(t.Elemwise(kSub, {x, y}));
    std::vector<std::string> names = MadeNames(&t, NormalizeArithChain);
    for (const std::string& n : names) EXPECT_TRUE(DefaultNamed(n)) << n;
    EXPECT_EQ(names.front(), "NEGATE(y)[6]");
  }
  {
    TestGraph t;  // x + NEGATE(y) -> x - y
    VarRef x = t.Input("x", {4}), y = t.Input("y", {4});
    t.Output(t.Elemwise(kAdd, {x, t.Elemwise(kNegate, {y})}));
    std::vector<std::string> names = MadeNames(&t, FinalArithTransform);
    EXPECT_EQ(names, (std::vector<std::string>{"SUB(x,y)[8]"}));
  }
  {
    TestGraph t;  // (x + c) + y: the constant goes last
    VarRef x = t.Input("x", {4}), y = t.Input("y", {4});
    VarRef c = t.Imm(testing::Ramp({4}, 1, 0.5f), "c");
    t.Output(t.Elemwise(kAdd, {t.Elemwise(kAdd, {x, c}), y}));
    for (const std::string& n : MadeNames(&t, ReorderArithChain)) EXPECT_TRUE(DefaultNamed(n)) << n;
  }
  {
    TestGraph t;  // relu(broadcast(x)) -> broadcast(relu(x))
    VarRef x = t.Input("x", {1, 4});
    VarRef shape = t.Imm(HostValue::Ints({2}, {3, 4}), "shape");
    t.Output(t.Elemwise(kRelu, {t.Broadcast(x, shape)}));
    for (const std::string& n : MadeNames(&t, DelayBroadcast)) EXPECT_TRUE(DefaultNamed(n)) << n;
  }
}

// ParamFuse and ParamMerge name theirs as MegEngine does: fuse(<shared sources>):<var>@<id>
// and merged<N>.
TEST(OprName, ParamPassesNameTheirTensors) {
  {
    TestGraph t;
    VarRef x = t.Input("x", {4});
    VarRef s0 = t.Shared("s0", testing::Ramp({4}, 1, 0.5f)),
           s1 = t.Shared("s1", testing::Ramp({4}, 2, 0.5f));
    t.Output(t.Elemwise(kMul, {x, t.Elemwise(kAdd, {s0, s1}, "sum")}));
    std::vector<std::string> names = MadeNames(&t, ParamFuse);
    ASSERT_EQ(names.size(), 1u);  // the folded tensor (the MUL re-made on it is a copy)
    EXPECT_TRUE(std::regex_match(names[0], std::regex(R"(fuse\(s0,s1\):sum@[0-9]+)"))) << names[0];
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {4});
    t.Output(t.Elemwise(kAdd, {x, t.Shared("s", testing::Ramp({4}, 1, 0.5f))}));
    std::vector<std::string> names = MadeNames(&t, ParamMerge);
    EXPECT_EQ(names.front(), "merged1");
  }
}

bool AnyMatches(const std::vector<std::string>& names, const std::string& pattern) {
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) {
    return std::regex_match(n, std::regex(pattern));
  });
}

// ParamRedistribute's new Convolution keeps the param and the execution policy but not the
// config (research §2.3 P7): a default name, as the product of the weights has.
TEST(OprName, ParamRedistributeNamesTheConvolutionByDefault) {
  TestGraph t;
  VarRef x = t.Input("x", {4, 3, 5, 4});
  VarRef k = t.Dimshuffle(t.Shared("k", testing::Ramp({3}, 1, 0.5f)), {-1, 0, -1, -1}, 1);
  VarRef w = t.Shared("w", testing::Ramp({4, 3, 3, 2}, -2, 0.5f));
  t.Output(t.Convolution(t.Elemwise(kMul, {x, k}), w));
  std::vector<std::string> names = MadeNames(&t, ParamRedistribute);
  for (const std::string& n : names) EXPECT_TRUE(DefaultNamed(n)) << n;
  EXPECT_TRUE(AnyMatches(names, R"(conv\(x,MUL\[[0-9]+\]\)\[[0-9]+\])"))
      << ::testing::PrintToString(names);
  EXPECT_TRUE(AnyMatches(names, R"(MUL\(.*w\)\[[0-9]+\])")) << ::testing::PrintToString(names);
}

// ArithMulDistribute's products and sum are made without a name.
TEST(OprName, ArithMulDistributeNamesTheProductsAndTheSum) {
  TestGraph t;
  VarRef a = t.Input("a", {3, 3}), b = t.Input("b", {3, 1}), c = t.Input("c", {3, 3});
  VarRef d = t.Input("d", {3, 1}), e = t.Input("e", {3, 1});
  VarRef abc = t.Elemwise(kMul, {t.Elemwise(kMul, {a, b}), c});
  t.Output(t.Elemwise(kMul, {t.Elemwise(kAdd, {abc, d}), e}, "out"));
  std::vector<std::string> names = MadeNames(&t, ArithMulDistribute);
  for (const std::string& n : names) EXPECT_TRUE(DefaultNamed(n)) << n;
  EXPECT_TRUE(AnyMatches(names, R"(MUL\(b,e\)\[[0-9]+\])")) << ::testing::PrintToString(names);
  EXPECT_TRUE(AnyMatches(names, R"(MUL\(d,e\)\[[0-9]+\])")) << ::testing::PrintToString(names);
  EXPECT_TRUE(AnyMatches(names, R"(ADD\(MUL\[[0-9]+\],MUL\[[0-9]+\]\)\[[0-9]+\])"))
      << ::testing::PrintToString(names);
}

// x (2,3,4,5) -> Reshape (2,3,20) -> Reduce SUM axis 2 -> AxisAddRemove / count.
VarRef SumOverCount(TestGraph* t) {
  VarRef x = t->Input("x", {2, 3, 4, 5});
  VarRef flat = t->WithAxis("Reshape", {x, t->Imm(HostValue::Ints({3}, {2, 3, 20}))});
  VarRef reduced = t->AxisAddRemove(t->Reduce(flat, 0, 2), {{true, 2}});
  VarRef count = t->TypeCvt(t->WithAxis("GetVarShape", {flat}, 2), kF32);
  return t->Elemwise(27 /*TRUE_DIV*/, {reduced, count});
}

// The fuse_grain folds make their Reduce MEAN and AdaptivePooling with the default config;
// the AxisAddRemove around the Reduce keeps the original's (research §4.5).
TEST(OprName, FuseGrainFoldsNameWhatTheyMakeByDefault) {
  {
    TestGraph t;
    t.Output(SumOverCount(&t));
    std::vector<std::string> names = MadeNames(&t, FoldingReduceMean);
    EXPECT_EQ(names.size(), 1u) << ::testing::PrintToString(names);
    EXPECT_TRUE(AnyMatches(names, R"(reduce5\(loaded[0-9]+\)\[[0-9]+\])"))
        << ::testing::PrintToString(names);
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {2, 3, 4, 5});
    VarRef flat = t.WithAxis("Reshape", {x, t.Imm(HostValue::Ints({3}, {2, 3, 20}))});
    VarRef reduced = t.AxisAddRemove(t.Reduce(flat, 4 /*MAX*/, 2), {{true, 2}});
    t.Output(t.AxisAddRemove(reduced, {{false, 2}, {false, 3}}));
    std::vector<std::string> names = MadeNames(&t, FoldingGlobalPooling);
    for (const std::string& n : names) EXPECT_TRUE(DefaultNamed(n)) << n;
    EXPECT_TRUE(AnyMatches(names, R"(adaptive_pooling\(x,const\{2\}\[[0-9]+\]\)\[[0-9]+\])"))
        << ::testing::PrintToString(names);
  }
}

// CombineAstypeAndReduce makes its Reduce with the old config, so with the old name; so does
// FuseConvBiasNonlin its ConvBias, with the Convolution's (research §4.1).
TEST(OprName, ReducesAndConvBiasKeepTheNameOfWhatTheyReplace) {
  {
    TestGraph t;
    VarRef half = t.Elemwise(kRelu, {t.TypeCvt(t.Input("x", {2, 3, 3}), kF16)});
    VarRef sum = t.Reduce(t.TypeCvt(half, kF32), 0, 0);
    t.g().set_opr_name(sum.node, "sum");
    t.Output(sum);
    EXPECT_EQ(MadeNames(&t, CombineAstypeAndReduce), (std::vector<std::string>{"sum"}));
  }
  {
    TestGraph t;
    VarRef x = t.Input("x", {1, 2, 4, 4});
    VarRef conv = t.Convolution(x, t.Shared("w", testing::Ramp({3, 2, 1, 1}, 1, 0.5f)));
    t.g().set_opr_name(conv.node, "conv");
    t.Output(
        t.Elemwise(kFuseAddRelu, {conv, t.Shared("b", testing::Ramp({1, 3, 1, 1}, 0, 0.5f))}, "y"));
    EXPECT_EQ(MadeNames(&t, FuseConvBiasNonlin), (std::vector<std::string>{"conv"}));
  }
}

// ConvertF32ToF16 makes its TypeCvts with an empty config: "as<dtype>(<input>)[id]", the one
// back to Float32 at the output too.
TEST(OprName, ConvertF32ToF16NamesItsTypeCvts) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3});
  t.Output(t.Elemwise(kRelu, {x}, "y"));
  std::vector<std::string> names = MadeNames(&t, ConvertF32ToF16Io16xc32);
  for (const std::string& n : names) EXPECT_TRUE(DefaultNamed(n)) << n;
  EXPECT_TRUE(AnyMatches(names, R"(asFloat16\(x\)\[[0-9]+\])")) << ::testing::PrintToString(names);
  EXPECT_TRUE(AnyMatches(names, R"(asFloat32\(y\)\[[0-9]+\])")) << ::testing::PrintToString(names);
}

}  // namespace
}  // namespace graphport::mge::opt
