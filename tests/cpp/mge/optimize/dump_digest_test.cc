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
                  "eb597993f80caed47d51daa9341d2dcfb913541c192f78040c7d3ed25af3c00a",
                  "db48e19405b55aeff3c7cde3c6fb5f1ab321f9411cc91ed8953c7e1572e9298b",
                  "7167285779d672cd286793c1334898547fcc08f78a9751062793a7a2ee2a01ea"}});
  ExpectDigests({mge::testing::kReshapeFile,
                 ReadCorpusFile(mge::testing::kReshapeFile),
                 {"8d295d77f5c1599bd41adf96c72b61b7f70f7bdf74007efcb0d8504055cfd5b1",
                  "1e07a8bc82473c450181b9b5b2e73481559418d1014fcb9b9c87209a95abf1c9",
                  "66a40f22aa12d7959a7b1ae3d0d6a455e0cb6fff7951668ba5671da3a467b58f",
                  "eb63a95294f1f30a8f71a9419e0a2986df81e210a75e0d7ecb640aa4ef79cbe4",
                  "c7633e5d578eaad5aa979bd1dac4117b5cfcdc698cbef9bd86582b23b965baeb",
                  "f0e81180548548f89c6b50c4883f6e038f81d184b9412c2134d941397754cbfe",
                  "45973e5fdf28dbab229ab7ef050a9a0980fab3a8ff8c1dfb6f1c403a38c5d362"}});
}

TEST(OptimizedDumpDigest, BlocksModel) {
  const std::vector<std::string> passes =
      ExpectDigests({"blocks",
                     BlocksModel(3000),
                     {"6a90aef2030d5a4b1b404cf5e99828f0a61f23f0220b5251fb706b5d0d5fa8b7",
                      "82bba47dfa726339e3141082338c409d4c54186cfff994a86ce7e90f8d705eff",
                      "7ae64583417f26e84a457aac2b6b3b370ede69647c3196b98c197b262ee37a2c",
                      "1afddc6a6f82339914c2db78e15bcf5b685731664d2d8491f726e72eaab955b0",
                      "2dd52ba30c4a3533e421a9dd878f07dda7e7def8ceb18e5ddae3ba3f7bbd99db",
                      "1a8f3cba62019f197fd1aa47d6e8f1cf1614941e2fa070213c5785112004d75f",
                      "456f71017bb6406dd983399cb5805e0487c0e5cec36f7cf63e09cdefd29ecd93"}});
  EXPECT_EQ(passes, (std::vector<std::string>{"ReorderArithChain", "ArithFuse", "ParamMerge"}));
}

TEST(OptimizedDumpDigest, MotifModel) {
  const std::vector<std::string> passes =
      ExpectDigests({"motifs",
                     MotifModel(12),
                     {"d9f03832dca9fb1a3e35149aff63a0cacb122117670f2dc6931d6f2639b8c916",
                      "c47df80de9547ff569e7a9f6bf7db39307fc725612a0318f6ef077783f66a0c6",
                      "56197e4264edb5709624b2ae1ceebb25f28b93a7e2bc815182df4e64891a0e94",
                      "73d38143666023fc3318f7f3cc9a8bab120bc5b46b401729f5e33813b631fc0a",
                      "fd754a9cb40844a6225645e0fa9fa56d74c432323c238049db449d45ea15e8a4",
                      "efb8c534941a0aaf9fd4a40e6d510966c0376f50ada551467056a7e87ef9ad1b",
                      "cee65a05889a748540fc0432ed62d2161bb20efa2cfcad014d2c64b8f0694700"}});
  EXPECT_EQ(passes, (std::vector<std::string>{
                        "ConvertBatchNormToElemwise", "NormalizeArithChain", "ParamRedistribute",
                        "ParamFuse", "ReorderArithChain", "ArithFuse", "ReorderArithChain",
                        "FinalArithTransform", "RemoveRedundantTypeCvt", "ParamMerge"}));
}

}  // namespace
}  // namespace graphport::mge::opt
