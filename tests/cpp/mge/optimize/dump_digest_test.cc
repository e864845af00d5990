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
                 {"41a2fb634aa955c414f276de3591468d1233bf8a2a8eb362aa8b83d262d8fb5f",
                  "51540e39531cd8159739ac7bb6d52b8d42e1b219de85b33d68ec6a0126ad3207",
                  "a13309d0f9b8653f4816928f32204409469cb797f05807c2db45fdd7af5cd4f8",
                  "9d22761971948d9626de1ed7e8b83aeb24cce5e58111b6d767b67dd9a9764598",
                  "1a3f5dcae0e7befd070825555db699c782f52999a8a86f630c065b5b1c257aa0",
                  "f3c9e99a8557fba4df47ce01ce50b4d5f44550fe1b9e3e597041c39046d44e53",
                  "470936ebf2ba3f1a29a23cc755be9c0e1dc91b4fc22de70ffd1acefb23e08fc8"}});
  ExpectDigests({mge::testing::kReshapeFile,
                 ReadCorpusFile(mge::testing::kReshapeFile),
                 {"47e49f149d98c40581ed81295ca6747037c0671b9a52e53c94d587ab6e1dc785",
                  "71e7a2b9562c90eb9c67c0d4aa350af3e2d1731f6d05cead363db24a773b9868",
                  "3cf91ad0e3b3d2f6adc0603f82774d0c2c23eb3b7b37e3892fca2b9586054a36",
                  "8807d8c3bcff3b6bd5b50bcd13d8eb4210c55708dc971ee2114b984411a10c65",
                  "69aeb7294bfeb29690a49f185a963b076e613b6f5acabbdcec8697729e2269c0",
                  "378dd46f28ba6c3c66301e2d202b3205e3dc7d06a2ceccda1b9b39d6361354a3",
                  "47f169ffc76ac7b5fbda7b77f5497ae2b94c8db8c616ee9898866334d2d44992"}});
}

TEST(OptimizedDumpDigest, BlocksModel) {
  const std::vector<std::string> passes =
      ExpectDigests({"blocks",
                     BlocksModel(3000),
                     {"402ad1a156f602731b0e69d64c03192a0ef735d42706f0c78bdc6c7f8f4091bf",
                      "b2967e600ed467c532bf0a4919b26798dcfa4ca1b8be224903d725f1c20b4578",
                      "457a5cd577e2a84abfb954cd77b257dbf182907b3ba117741727d5423cca1b91",
                      "fd824c56901584a2caf3f4dd5a64a485d6cec6094517c5fd5fc3212cfb2d5da6",
                      "a61182d7948263df2c015b9718ecce44ecb1229374faabfb0739b38e3bc71346",
                      "24eaa8c4f4d9d4e8448f71bb3d7a2f04028fdf86d0f09286393ad7249266aaa3",
                      "e40481851a27a87dd87cc548db213da0e6fe6544c4cff060df22331ab7aa1852"}});
  EXPECT_EQ(passes, (std::vector<std::string>{"ReorderArithChain", "ArithFuse", "ParamMerge"}));
}

TEST(OptimizedDumpDigest, MotifModel) {
  const std::vector<std::string> passes =
      ExpectDigests({"motifs",
                     MotifModel(12),
                     {"354328f9a066fb12b65549f3caa5ada52e971a9a10c89c5435a0cfecdd2dadc2",
                      "a21da249980e32fe0ec75b156f41eb5dc6f7876e4d687a2ecb49e827f623d033",
                      "170f68689fd90bdd8c091a133ed5cfe5e05fe7e7d55e61ff15f18c3344fad631",
                      "8966a66e0870002568291172da84bdce2ce0c379d8d00b3ed9ae0885be647d1f",
                      "c27a619daff2c34dcc3eea10335e68f0d08813690598f2abb761eca35eb57e0c",
                      "3e0b667b0437e517caa8c7ddeffb035fcee81f0c1e87118d631ccda17c5ce553",
                      "8f0d9fd307fa3adf0ffcdb58dab8a36534c82107c64910ac96e893e3b7ab4d41"}});
  EXPECT_EQ(passes, (std::vector<std::string>{
                        "ConvertBatchNormToElemwise", "NormalizeArithChain", "ParamRedistribute",
                        "ParamFuse", "ReorderArithChain", "ArithFuse", "ReorderArithChain",
                        "FinalArithTransform", "RemoveRedundantTypeCvt", "ParamMerge"}));
}

}  // namespace
}  // namespace graphport::mge::opt
