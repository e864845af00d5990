// The optimized dumps pinned by their sha256: every corpus MegEngine file and two generated
// models (a long chain of x * w + b, relu blocks as bench/make_mge.cc writes, and a chain of
// motifs that each default pass rewrites), with the default options and the kwargs. The
// digests were recorded before the passes' shared machinery was made faster (issue 33's
// benchmark), which must not change a byte: MegEngine's ids, names and dedup decide them.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "mge/dump/dump_plan.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/write_v2.h"
#include "mge_test_util.h"
#include "sha256.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using mge::testing::Export;
using mge::testing::Load;
using mge::testing::ReadCorpusFile;
using testing::TestGraph;

// The option sets each model is dumped with.
const std::vector<nlohmann::json>& OptionSets() {
  static const std::vector<nlohmann::json> sets = {
      nlohmann::json::object(),
      {{"dumpFormat", "FBS"}},
      {{"dumpFormat", "FBS"}, {"compatOlderVersion", "8.14"}},
      {{"enableFuseConvBiasNonlinearity", true}},
      {{"enableFuseConvBiasWithZ", true}, {"keepOprPriority", true}},
      {{"enableIo16xc32", true}},
      {{"enableIoc16", true}, {"enableFuseGrain", false}},
  };
  return sets;
}

std::string Written(TestGraph* t) {
  DumpRequest request;
  DumpPlan plan = MakeDumpPlan(t->Emit(), request);
  StringSink sink;
  WriteV2(plan).WriteTo(&sink);
  return sink.Take();
}

// Pseudo-random but fixed values in [-1, 1).
HostValue Values(Shape shape, uint32_t seed) {
  std::vector<float> v(ElementCount(shape));
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
  }
  return HostValue::Floats(std::move(shape), std::move(v));
}

// bench/make_mge.cc's model, smaller: "data" [1, 64], 16 weights, then `oprs` Elemwise
// operators in blocks of x * w, + w', relu, each named. ArithFuse makes every block's
// product and sum one FUSE_MUL_ADD3, so every operator downstream of the first is remade.
std::string BlocksModel(uint32_t oprs) {
  TestGraph t;
  VarRef x = t.Input("data", {1, 64});
  std::vector<VarRef> weights;
  for (uint32_t k = 0; k < 16; ++k) {
    weights.push_back(t.Shared("w" + std::to_string(k), Values({1, 64}, k + 1)));
  }
  const uint32_t modes[] = {kMul, kAdd, kRelu};
  const char* names[] = {"mul", "add", "relu"};
  for (uint32_t i = 0; i < oprs; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "block_%06u/%s", i / 3, names[i % 3]);
    std::vector<VarRef> in = {x};
    if (modes[i % 3] != kRelu) in.push_back(weights[(i * 7) % weights.size()]);
    x = t.Elemwise(modes[i % 3], in, name);
  }
  t.Output(x);
  return Written(&t);
}

// `motifs` times over, each reading the last one's output [1, 4, 8, 8]: a convolution with a
// bias, inference BatchNorm and relu (ConvertBatchNorm, ParamFuse, ArithFuse), constant
// arithmetic (folding), a sum of vars and constants of several shapes (ReorderArithChain),
// a sum of products and a sigmoid of a sum (ArithFuse), PowC, a sum over its count, a
// negated subtraction (FinalArithTransform) and a TypeCvt round trip
// (RemoveRedundantTypeCvt). Two outputs: the last motif's and a side value.
std::string MotifModel(uint32_t motifs) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 4, 8, 8});
  VarRef side = t.Input("y", {1, 4, 1, 1});
  uint32_t seed = 100;
  for (uint32_t m = 0; m < motifs; ++m) {
    const std::string p = "m" + std::to_string(m) + "/";
    VarRef conv = t.Convolution(x, t.Shared(p + "w", Values({4, 4, 3, 3}, ++seed)), 1);
    VarRef biased = t.Elemwise(kAdd, {conv, t.Imm(Values({1, 4, 1, 1}, ++seed))}, p + "conv");
    VarRef bn = t.BatchNorm(
        {biased, t.Shared(p + "scale", Values({1, 4, 1, 1}, ++seed)),
         t.Shared(p + "bias", Values({1, 4, 1, 1}, ++seed)), t.Imm(Values({1, 4, 1, 1}, ++seed)),
         t.Imm(HostValue::Floats({1, 4, 1, 1}, {0.5f, 1.5f, 2.0f, 0.25f}))},
        1e-5, true);
    VarRef relu = t.Elemwise(kRelu, {bn}, p + "relu");
    // (2 * 3) * relu + c: the constant product folds.
    VarRef two = t.Imm(HostValue::Floats({1}, {2.0f}));
    VarRef three = t.Imm(HostValue::Floats({1}, {3.0f}));
    VarRef scaled = t.Elemwise(kMul, {t.Elemwise(kMul, {two, three}), relu});
    // relu + c1 + side + c2 + scaled: vars and constants of three shapes.
    VarRef c1 = t.Imm(Values({1, 4, 1, 1}, ++seed));
    VarRef c2 = t.Imm(Values({1, 1, 8, 8}, ++seed));
    VarRef chain = t.Elemwise(
        kAdd,
        {t.Elemwise(kAdd, {t.Elemwise(kAdd, {t.Elemwise(kAdd, {relu, c1}), side}), c2}), scaled},
        p + "chain");
    // a * b + c * d + e, then sigmoid(chain + that).
    VarRef a = t.Elemwise(kMul, {chain, t.Shared(p + "a", Values({1, 4, 1, 1}, ++seed))});
    VarRef c = t.Elemwise(kMul, {relu, t.Shared(p + "c", Values({1, 4, 8, 8}, ++seed))});
    VarRef fused = t.Elemwise(kAdd, {t.Elemwise(kAdd, {a, c}), x});
    VarRef sig = t.Elemwise(kSigmoid, {t.Elemwise(kAdd, {chain, fused})}, p + "sigmoid");
    // PowC(sig, 2) - PowC(sig, 1): the second is sig itself; negated.
    VarRef pow = t.Elemwise(kSub, {t.PowC(sig, 2.0f), t.PowC(sig, 1.0f)});
    VarRef neg = t.Elemwise(kNegate, {pow});
    // The mean over the last axis as a sum over its count, added back.
    VarRef count = t.TypeCvt(t.WithAxis("GetVarShape", {neg}, 3), kF32);
    VarRef mean = t.Elemwise(kTrueDiv, {t.Reduce(neg, kReduceSum, 3), count});
    VarRef back = t.TypeCvt(t.TypeCvt(mean, kF32), kF32);
    x = t.Elemwise(kAdd, {neg, back}, p + "out");
    side = t.Elemwise(kMax, {side, t.Reduce(t.Reduce(back, kReduceSum, 2), kReduceSum, 0)});
  }
  t.Output(x);
  t.Output(side);
  return Written(&t);
}

struct Pinned {
  std::string model;
  std::string bytes;
  std::vector<std::string> digests;  // one per option set
};

// Checks each option set's dump; returns the passes that changed the default one.
std::vector<std::string> ExpectDigests(const Pinned& p) {
  auto l = Load(p.bytes);
  EXPECT_EQ(p.digests.size(), OptionSets().size());
  std::vector<std::string> passes;
  for (size_t k = 0; k < OptionSets().size() && k < p.digests.size(); ++k) {
    SCOPED_TRACE(p.model + " " + OptionSets()[k].dump());
    const mge::testing::Exported e = Export(l.model.get(), OptionSets()[k]);
    EXPECT_EQ(graphport::testing::Sha256Hex(e.model()), p.digests[k]);
    if (k != 0) continue;
    for (const auto& pass : e.info["optimized"]["passes"]) passes.push_back(pass["pass"]);
  }
  return passes;
}

TEST(OptimizedDumpDigest, Sha256OfTheKnownVectors) {
  EXPECT_EQ(graphport::testing::Sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(graphport::testing::Sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      graphport::testing::Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(OptimizedDumpDigest, CorpusFiles) {
  ExpectDigests({mge::testing::kConvFile,
                 ReadCorpusFile(mge::testing::kConvFile),
                 {"d4c3978486835bae6800902de72c050eddcb8aaf0e7a17a2f6bf5a19f300415c",
                  "c0dd442de5b6a72f6c93f4430bcf0c930993fbaa0c307cb8ba1f1fd3767905a3",
                  "bfaf209a9ee1f05b525f70aa40f063b93d54f7499dddd988f6a1bc791e07ea18",
                  "d2df508abe2b136e3751bd0132b7562b56c8778faee4a8d175452641dc63a10a",
                  "0cf36be20748e1a02542b938b61956069e45f7ed4fe4d73512973b3d37f5b2cc",
                  "dd6721410b79d13b2dcd7091d8d0f4ef7673c12f0a3fbb3b1ddac59b6d589b6a",
                  "c94284d4b15ddbf3995a033d15129453f1f69148dda0b51e6b88fdd0c13989cd"}});
  ExpectDigests({mge::testing::kReshapeFile,
                 ReadCorpusFile(mge::testing::kReshapeFile),
                 {"88e53124adc7ab2cbefa7508d3c09124c15b9a48d08a2a7568709aa9f36d1ca9",
                  "1e07a8bc82473c450181b9b5b2e73481559418d1014fcb9b9c87209a95abf1c9",
                  "66a40f22aa12d7959a7b1ae3d0d6a455e0cb6fff7951668ba5671da3a467b58f",
                  "15ded5fa3d8fcfd8921b17a5ae7aee337667d2d795d17180bd53798bde7f4818",
                  "76a891f25f92ac3c41a6ad55329876c84ffe07acfba95ba5182f38ea6f3c0b0b",
                  "84f1f07e28fc21a7b71c2696b535d10f4f004f19368ad98a6c34ed685b5fe74f",
                  "e39e5e54ecada6f0e6bbb04b60358b75069e983cdde90bcbba18b72eff710109"}});
}

TEST(OptimizedDumpDigest, BlocksModel) {
  const std::vector<std::string> passes =
      ExpectDigests({"blocks",
                     BlocksModel(3000),
                     {"4b858dfc5767c4832e0c01a4fdcd2440d9cfad00933a52c7fb630016e46fc22d",
                      "3044fa9573a92e4099d1f986dcc709dcf82f38e3b00aa3e6d1e0a5afa1d2b7e8",
                      "becb826a5bca74e40c1392d1f7c8f936959621415313f36ed110039ee7bf862a",
                      "d869a6279b65618d991882d64041f5820e5702e1f216e5d28f86ffd4726a21de",
                      "85f8a7900195ec0609f7fa0bc79bd110005a7d01932e34dc2ba73be92df9b648",
                      "78b08e52b96aa77131712d1d41962754463bfef4385fc9e54168ad2d777dedd3",
                      "3413453a99c086ba76ec3cb51b5f96b7d591498a38deb3e94507bf0e5247d720"}});
  // ReorderArithChain finds each block's ADD already in var id order: loading stores it so,
  // as MegEngine's Elemwise constructor does.
  EXPECT_EQ(passes, (std::vector<std::string>{"ArithFuse", "ParamMerge"}));
}

TEST(OptimizedDumpDigest, MotifModel) {
  const std::vector<std::string> passes =
      ExpectDigests({"motifs",
                     MotifModel(12),
                     {"eb14d3de6d8163817bed0a02b6bf6a9a4e89a825759f6eaaf94f3000575e210c",
                      "bbe4b037c43115cd474a126aef73c57ee40e5830d90031c6bcbc3a3138e64009",
                      "8ea0db7b909fa32d26ef0879d827b23e7567d93146dab56b77bb372bba28ad1b",
                      "f5015baa3ad528c6c72ffe84c66ceb6f36e366cf2f1385f63a65873c22feded9",
                      "6fe571723552c4fbf204ec15c72112315626e9418c9ad92727d9d5e211cf9ec7",
                      "0bb45928110ef34f7e34f4319c9af61c19d1244e44c7dd6a8059d409a701e9d8",
                      "62d9572d7653cfefc24d27fcbad175094f5a14ad1c21ea533da336290a92f864"}});
  EXPECT_EQ(passes, (std::vector<std::string>{
                        "ConvertBatchNormToElemwise", "NormalizeArithChain", "ParamRedistribute",
                        "ParamFuse", "ReorderArithChain", "ArithFuse", "ReorderArithChain",
                        "FinalArithTransform", "RemoveRedundantTypeCvt", "ParamMerge"}));
}

}  // namespace
}  // namespace graphport::mge::opt
