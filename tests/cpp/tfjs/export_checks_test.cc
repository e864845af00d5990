// What an export checks before it writes, and says after: a TF.js model written to a
// TensorFlow format against TensorFlow's op registry (refused with unfuseOps, a warning
// without), a check (CheckOutputSet) that runs the whole export into nothing, and the size
// change of weights quantized again (info.quantization).
#include <gtest/gtest.h>

#include <cmath>

#include "core/check_output_set.h"
#include "core/error.h"
#include "tfjs/family.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;
using testing::OwnedInputSet;

struct Loaded {
  OwnedInputSet inputs;
  std::unique_ptr<Probe> probe;
  std::unique_ptr<FamilyModel> model;
};

std::unique_ptr<Loaded> Read(std::unique_ptr<Loaded> loaded, const json& load_options) {
  loaded->probe = std::make_unique<Probe>(loaded->inputs.set());
  const Family& family = TfjsFamily();
  Detection d = family.Detect(loaded->probe.get(), "");
  EXPECT_GT(d.score, 0) << d.reason;
  loaded->model = family.Read(loaded->probe.get(), d,
                              OptionValues::Read(family.load_options(), load_options, "load"));
  return loaded;
}

std::unique_ptr<Loaded> LoadCorpus(const std::string& folder) {
  auto loaded = std::make_unique<Loaded>();
  loaded->inputs.AddFolder(testing::CorpusDir() / "tfjs/tfjs-to-tf" / folder);
  return Read(std::move(loaded), json::object());
}

// A model.json of `nodes` whose one weight `w` is `weight` (its manifest entry) with `bytes`.
std::unique_ptr<Loaded> LoadBuilt(const json& nodes, const json& weight, const std::string& bytes,
                                  const json& load_options = json::object()) {
  json model = {{"format", "graph-model"},
                {"generatedBy", "2.14.0"},
                {"convertedBy", "a test"},
                {"modelTopology", {{"node", nodes}, {"library", json::object()}}},
                {"weightsManifest",
                 json::array({{{"paths", {"group1-shard1of1.bin"}}, {"weights", {weight}}}})}};
  auto loaded = std::make_unique<Loaded>();
  loaded->inputs.Add("model.json", model.dump());
  loaded->inputs.Add("group1-shard1of1.bin", bytes);
  return Read(std::move(loaded), load_options);
}

json Placeholder(const std::string& name) {
  return {{"name", name}, {"op", "Placeholder"}, {"attr", {{"dtype", {{"type", "DT_FLOAT"}}}}}};
}

// x (Placeholder) and w (3 floats) into Conv1D: an op TF.js runs and TensorFlow's registry
// lacks, which unfuseOps does not rewrite.
std::unique_ptr<Loaded> LoadConv1D() {
  json nodes = {Placeholder("x"),
                testing::ConstNode("w", "DT_FLOAT", {3, 1, 1}),
                {{"name", "y"},
                 {"op", "Conv1D"},
                 {"input", {"x", "w"}},
                 {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}}};
  json weight = {{"name", "w"}, {"shape", {3, 1, 1}}, {"dtype", "float32"}};
  return LoadBuilt(nodes, weight, testing::Bytes(std::vector<float>{1, 2, 3}));
}

json Export(FamilyModel* model, const json& options, OutputSet* out) {
  return model->Export(OptionValues::Read(TfjsFamily().export_options(), options, "export"), out);
}

Error ExportError(FamilyModel* model, const json& options) {
  MemoryOutputSet out;
  try {
    Export(model, options, &out);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << options.dump();
  return Error(ErrorCode::kInternal, "no error");
}

// A check's output set that remembers the files the writer wrote into it.
class RecordingCheckOutputSet : public CheckOutputSet {
 public:
  ByteSink* Open(const std::string& name) override {
    opened.push_back(name);
    return CheckOutputSet::Open(name);
  }
  std::vector<std::string> opened;
};

TEST(TensorflowRegistryExport, TfjsFusedOpsAreListedAndWarnedWithoutUnfuseOps) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto loaded = LoadCorpus("prelu");
  MemoryOutputSet out;
  json info = Export(loaded->model.get(), {{"to", "graph-def"}}, &out);
  ASSERT_EQ(out.files().size(), 1u);
  ASSERT_TRUE(info.contains("unsupportedOps")) << info.dump();
  ASSERT_EQ(info["unsupportedOps"].size(), 1u);
  const json& fused = info["unsupportedOps"][0];
  EXPECT_EQ(fused["op"], "_FusedMatMul");
  EXPECT_EQ(fused["count"], 2);
  EXPECT_EQ(fused["nodes"].size(), 2u);
  EXPECT_EQ(fused["hint"], "unfuseOps fixes this");
  ASSERT_EQ(info["warnings"].size(), 1u);
  EXPECT_NE(info["warnings"][0].get<std::string>().find(
                "TensorFlow's op registry lacks _FusedMatMul x2 ("),
            std::string::npos)
      << info["warnings"];

  // With unfuseOps every op is TensorFlow's own: no list, no warning.
  MemoryOutputSet unfused;
  info = Export(loaded->model.get(), {{"to", "graph-def"}, {"unfuseOps", true}}, &unfused);
  EXPECT_FALSE(info.contains("unsupportedOps")) << info.dump();
  EXPECT_FALSE(info.contains("warnings"));
}

TEST(TensorflowRegistryExport, UnfuseOpsRefusesAnOpTheRegistryLacksUnlessAllowed) {
  auto loaded = LoadConv1D();
  for (const char* to : {"graph-def", "meta-graph", "saved-model"}) {
    Error e = ExportError(loaded->model.get(), {{"to", to}, {"unfuseOps", true}});
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported) << to;
    EXPECT_NE(std::string(e.what()).find("TensorFlow's op registry lacks this graph's ops Conv1D "
                                         "x1 (y), so TensorFlow cannot import it"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.where().node, "y");
  }
  MemoryOutputSet out;
  json info =
      Export(loaded->model.get(),
             {{"to", "graph-def"}, {"unfuseOps", true}, {"allowUnsupportedOps", true}}, &out);
  EXPECT_EQ(out.files().size(), 1u);
  EXPECT_EQ(info["unsupportedOps"], json::parse(R"([{"op":"Conv1D","count":1,"nodes":["y"],
                                                    "hint":null}])"));
  // An op registry the user gives names ops TensorFlow runs too (a custom op).
  json registry = {{"op", {{{"name", "Conv1D"}}}}};
  info = Export(loaded->model.get(),
                {{"to", "graph-def"}, {"unfuseOps", true}, {"opRegistry", registry}}, &out);
  EXPECT_FALSE(info.contains("unsupportedOps")) << info.dump();
  // Without unfuseOps the export writes it and warns.
  info = Export(loaded->model.get(), {{"to", "graph-def"}}, &out);
  EXPECT_EQ(info["unsupportedOps"][0]["op"], "Conv1D");
  EXPECT_EQ(info["warnings"].size(), 1u);
}

TEST(ExportCheck, ACheckRunsTheWholeExportIntoNothingButWhatItRefuses) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto loaded = LoadCorpus("prelu");
  RecordingCheckOutputSet check;
  json info = Export(loaded->model.get(), {{"to", "tfjs"}}, &check);
  EXPECT_EQ(info["check"]["target"], "tfjs");
  EXPECT_EQ(info["check"]["runs"], true);
  EXPECT_EQ(info["check"]["ops"], 5);  // Const, _FusedMatMul, Placeholder, Sigmoid, Identity
  EXPECT_EQ(info["check"]["nodes"], 10);
  EXPECT_EQ(info["check"]["unsupportedOps"], json::array());
  EXPECT_EQ(check.opened, std::vector<std::string>({"group1-shard1of1.bin", "model.json"}));

  for (const char* to : {"graph-def", "meta-graph", "saved-model"}) {
    info = Export(loaded->model.get(), {{"to", to}}, &check);
    EXPECT_EQ(info["check"]["target"], "tensorflow") << to;
    EXPECT_EQ(info["check"]["runs"], false);
    EXPECT_EQ(info["check"]["exportFails"], false);
    EXPECT_EQ(info["check"]["unsupportedOps"][0]["op"], "_FusedMatMul");
    info = Export(loaded->model.get(), {{"to", to}, {"unfuseOps", true}}, &check);
    EXPECT_EQ(info["check"]["runs"], true) << info.dump();
    EXPECT_EQ(info["unfusedOps"].size(), 2u);
  }

  // What the export refuses, the check reports, with exportFails, and writes nothing of.
  auto conv = LoadConv1D();
  check.opened.clear();
  info = Export(conv->model.get(), {{"to", "graph-def"}, {"unfuseOps", true}}, &check);
  EXPECT_EQ(info["check"]["runs"], false);
  EXPECT_EQ(info["check"]["exportFails"], true);
  EXPECT_EQ(check.opened, std::vector<std::string>());
  info = Export(conv->model.get(),
                {{"to", "graph-def"}, {"unfuseOps", true}, {"allowUnsupportedOps", true}}, &check);
  EXPECT_EQ(info["check"]["exportFails"], false);
  EXPECT_EQ(check.opened, std::vector<std::string>({"graph.pb"}));
}

// What only the writer refuses is the check's error too: uint8 cannot hold a NaN.
TEST(ExportCheck, TheWritersErrorsAreTheChecks) {
  json nodes = {Placeholder("x"),
                testing::ConstNode("w", "DT_FLOAT", {3}),
                {{"name", "y"},
                 {"op", "AddV2"},
                 {"input", {"x", "w"}},
                 {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}}};
  json weight = {{"name", "w"}, {"shape", {3}}, {"dtype", "float32"}};
  auto loaded = LoadBuilt(nodes, weight, testing::Bytes(std::vector<float>{1, NAN, 3}));
  CheckOutputSet check;
  try {
    Export(loaded->model.get(), {{"to", "tfjs"}, {"quantize", "uint8"}}, &check);
    ADD_FAILURE() << "the check passed a weight uint8 cannot hold";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_NE(std::string(e.what()).find("holds NaN or infinity"), std::string::npos) << e.what();
  }
  EXPECT_EQ(Export(loaded->model.get(), {{"to", "tfjs"}, {"quantize", "float16"}},
                   &check)["check"]["runs"],
            true);
}

// 1000 weights held as uint8 codes (1000 bytes) read and written again.
std::unique_ptr<Loaded> LoadUint8Quantized(const json& load_options = json::object()) {
  json nodes = {Placeholder("x"),
                testing::ConstNode("w", "DT_FLOAT", {1000}),
                {{"name", "y"},
                 {"op", "AddV2"},
                 {"input", {"x", "w"}},
                 {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}}};
  json weight = {{"name", "w"},
                 {"shape", {1000}},
                 {"dtype", "float32"},
                 {"quantization", {{"dtype", "uint8"}, {"min", -1.0}, {"scale", 0.01}}}};
  std::string codes(1000, '\0');
  for (size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<char>(i % 251);
  return LoadBuilt(nodes, weight, codes, load_options);
}

TEST(QuantizationChange, Float16OfUint8WeightsDoublesThemAndInfoSaysSo) {
  auto loaded = LoadUint8Quantized();
  MemoryOutputSet out;
  json info = Export(loaded->model.get(), {{"to", "tfjs"}, {"quantize", "float16"}}, &out);
  const json& q = info["quantization"];
  EXPECT_EQ(q["quantize"], "float16");
  EXPECT_EQ(q["sourceQuantized"], json({{"uint8", 1}}));
  EXPECT_EQ(q["sourceWeightBytes"], 1000);
  EXPECT_EQ(q["writtenWeightBytes"], 2000);
  EXPECT_EQ(out.files()[0].bytes.size(), 2000u);  // the one shard
  ASSERT_TRUE(q["note"].is_string()) << q.dump();
  EXPECT_NE(q["note"].get<std::string>().find("the source held 1 weights as uint8 codes (1000 "
                                              "bytes); read as float32 and quantized to float16 "
                                              "again, the weights take 2000 bytes instead of "
                                              "1000"),
            std::string::npos)
      << q["note"];

  // uint8 again keeps the size: the block is there, without a note.
  info = Export(loaded->model.get(), {{"to", "tfjs"}, {"quantize", "uint8"}}, &out);
  EXPECT_EQ(info["quantization"]["writtenWeightBytes"], 1000);
  EXPECT_TRUE(info["quantization"]["note"].is_null());
  // No quantize: nothing to say.
  info = Export(loaded->model.get(), {{"to", "tfjs"}}, &out);
  EXPECT_FALSE(info.contains("quantization"));

  // dequantize: false keeps the codes, whatever quantize says.
  auto kept = LoadUint8Quantized({{"dequantize", false}});
  info = Export(kept->model.get(), {{"to", "tfjs"}, {"quantize", "float16"}}, &out);
  EXPECT_EQ(info["quantization"]["writtenWeightBytes"], 1000);
  EXPECT_TRUE(info["quantization"]["note"].is_null());
}

TEST(QuantizationChange, AModelWithoutQuantizedWeightsGetsNoBlock) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto loaded = LoadCorpus("simple");
  MemoryOutputSet out;
  json info = Export(loaded->model.get(), {{"to", "tfjs"}, {"quantize", "float16"}}, &out);
  EXPECT_FALSE(info.contains("quantization")) << info.dump();
}

}  // namespace
}  // namespace graphport::tfjs
