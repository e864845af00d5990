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
                 {"4abe5c79d76a99cb27694eaa730d746a2ea6691f5ddd4279e3b659067069e7bc",
                  "cf5f7bd689fab751f24374c2e5b75ffc57455cbd327a5d7602c59b2351c8b12d",
                  "4653ee7cdc7ff81a8a647028364c9ac71e4d5e5d3bfa2dd89d0309c63dea002b",
                  "cdbec63918aa2e0d2ca7d42484b5f1095174f583397ea8f220837fb34b0cbad9",
                  "41a223b35a623e22b0cbb5cb8243adce01956010800ab4d5beb12b954f89d99e",
                  "374b16f17b1b309b796c270f844e1cb499f5bcc91bd2dca0125c728d19316102",
                  "3da156d3075f45e5c80b3282672ba5d38f134ef8dbd5b312925315f049fa74e3"}});
  ExpectDigests({mge::testing::kReshapeFile,
                 ReadCorpusFile(mge::testing::kReshapeFile),
                 {"8d295d77f5c1599bd41adf96c72b61b7f70f7bdf74007efcb0d8504055cfd5b1",
                  "1e07a8bc82473c450181b9b5b2e73481559418d1014fcb9b9c87209a95abf1c9",
                  "66a40f22aa12d7959a7b1ae3d0d6a455e0cb6fff7951668ba5671da3a467b58f",
                  "eb63a95294f1f30a8f71a9419e0a2986df81e210a75e0d7ecb640aa4ef79cbe4",
                  "8d55d50d824dac7d1f9a70361ba6f901a00290809ebe4c230c04fad3d91d7a9f",
                  "db855e277e6147010ee1bf2c7d4888170b2bf129448f5054900f079de60e1653",
                  "a809a7a06e3b77d536f2943ab8ff758d63a5f3cc9eccd5f0651c225a5084326b"}});
}

TEST(OptimizedDumpDigest, BlocksModel) {
  const std::vector<std::string> passes =
      ExpectDigests({"blocks",
                     BlocksModel(3000),
                     {"6a90aef2030d5a4b1b404cf5e99828f0a61f23f0220b5251fb706b5d0d5fa8b7",
                      "82bba47dfa726339e3141082338c409d4c54186cfff994a86ce7e90f8d705eff",
                      "7ae64583417f26e84a457aac2b6b3b370ede69647c3196b98c197b262ee37a2c",
                      "1afddc6a6f82339914c2db78e15bcf5b685731664d2d8491f726e72eaab955b0",
                      "ef20ec08c8b3fe58e1fd804256da0e0ed25f0aec4d8b3f1e74f3ea39bc28a34b",
                      "1a8f3cba62019f197fd1aa47d6e8f1cf1614941e2fa070213c5785112004d75f",
                      "456f71017bb6406dd983399cb5805e0487c0e5cec36f7cf63e09cdefd29ecd93"}});
  EXPECT_EQ(passes, (std::vector<std::string>{"ReorderArithChain", "ArithFuse", "ParamMerge"}));
}

TEST(OptimizedDumpDigest, MotifModel) {
  const std::vector<std::string> passes =
      ExpectDigests({"motifs",
                     MotifModel(12),
                     {"f7ce966e57edd10f6eb9cc6abbad62e54ab33f6121a1ef0bb9894c826a0ece52",
                      "db28d0aeee786c5f40d2949cfd139a778912d1b7b0a3f950a0715954cef69f1f",
                      "c0766342e579872ddb6a0811358f413a6d5321a3a8c20b281613d63a1547cce1",
                      "c50b5e8f748156ac04eecce38284b3248c09af14ef7d36049d8523440182199d",
                      "ebe015f8622c98fe8b236746e8ba4a4d2a259922b97f0d36dbe9e5fa74916b36",
                      "e3f0af95429786020e239d67378fd23c873e155c05a4f4443b52a53d09ef08a4",
                      "f6cd72dfe7bbc54cfc32e743f48572c8e29b70d3bf5ea0403d1b1699493d1be6"}});
  EXPECT_EQ(passes, (std::vector<std::string>{
                        "ConvertBatchNormToElemwise", "NormalizeArithChain", "ParamRedistribute",
                        "ParamFuse", "ReorderArithChain", "ArithFuse", "ReorderArithChain",
                        "FinalArithTransform", "RemoveRedundantTypeCvt", "ParamMerge"}));
}

}  // namespace
}  // namespace graphport::mge::opt
