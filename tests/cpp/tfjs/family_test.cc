// The TensorFlow.js family through the seam: detect, read, inspect, export, option schemas.
#include "tfjs/family.h"

#include <gtest/gtest.h>

#include "tfjs/options.h"
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

std::unique_ptr<Loaded> Load(const std::string& folder, const json& load_options = {}) {
  auto loaded = std::make_unique<Loaded>();
  loaded->inputs.AddFolder(testing::CorpusDir() / "tfjs/tfjs-to-tf" / folder);
  loaded->probe = std::make_unique<Probe>(loaded->inputs.set());
  const Family& family = TfjsFamily();
  Detection d = family.Detect(loaded->probe.get(), "");
  EXPECT_EQ(d.score, Detection::kByStructure) << d.reason;
  EXPECT_EQ(d.format, kFormatName);
  loaded->model = family.Read(loaded->probe.get(), d,
                              OptionValues::Read(family.load_options(), load_options, "load"));
  return loaded;
}

json Export(FamilyModel* model, const json& options, MemoryOutputSet* out) {
  return model->Export(OptionValues::Read(TfjsFamily().export_options(), options, "export"), out);
}

TEST(TfjsFamilyTest, InspectSaysItCameFromTfjsAndShowsTheManifest) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto loaded = Load("simple");
  json summary = loaded->model->Inspect();
  EXPECT_EQ(summary["family"], "tfjs");
  EXPECT_FALSE(summary.contains("source"));  // `family` says it
  EXPECT_EQ(summary["format"], kFormatName);
  EXPECT_EQ(summary["nodeCount"], 5);
  EXPECT_EQ(summary["inputs"], json({"model.json", "group1-shard1of1.bin"}));
  EXPECT_EQ(summary["inputBytes"], loaded->inputs.bytes("model.json").size() + 8);
  EXPECT_EQ(summary["tfjs"]["weights"].size(), 2u);
  EXPECT_EQ(summary["producerText"], "TensorFlow.js Converter v1.7.2, from 2.1.0");
  std::string text = TfjsFamily().SummaryText(summary);
  EXPECT_NE(text.find("TensorFlow.js: 2 weights (0 quantized) in 1 shards"), std::string::npos)
      << text;
}

// to: 'graph-def' with unfuseOps: TensorFlow's own frozen graph, node for node (only the
// order differs); to: 'tfjs' and back.
TEST(TfjsFamilyTest, ExportsToTensorFlowAndBackToTfjs) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto loaded = Load("simple");
  MemoryOutputSet out;
  json info = Export(loaded->model.get(), {{"to", "graph-def"}, {"unfuseOps", true}}, &out);
  ASSERT_EQ(out.files().size(), 1u);
  EXPECT_EQ(info["unfusedOps"].size(), 1u);
  tensorflow::GraphDef ours, frozen;
  ASSERT_TRUE(ours.ParseFromString(out.files()[0].bytes));
  ASSERT_TRUE(frozen.ParseFromString(testing::ReadCorpus(testing::kFrozenGraph)));
  ASSERT_EQ(ours.node_size(), frozen.node_size());
  std::map<std::string, const tensorflow::NodeDef*> theirs;
  for (const auto& node : frozen.node()) theirs[node.name()] = &node;
  for (const auto& node : ours.node()) {
    ASSERT_EQ(theirs.count(node.name()), 1u) << node.name();
    EXPECT_TRUE(testing::MessagesEqual(*theirs[node.name()], node)) << node.name();
  }

  MemoryOutputSet tfjs;
  info = Export(loaded->model.get(), {{"to", "tfjs"}, {"shardSize", 4}}, &tfjs);
  EXPECT_EQ(info["files"], json({"group1-shard1of2.bin", "group1-shard2of2.bin", "model.json"}));
  EXPECT_TRUE(loaded->model->WritesFolder(
      OptionValues::Read(TfjsFamily().export_options(), {{"to", "tfjs"}}, "export")));
  json model = json::parse(tfjs.files().back().bytes);
  EXPECT_EQ(model["generatedBy"], "2.1.0");
  EXPECT_EQ(model["userDefinedMetadata"]["signature"]["outputs"]["Identity"]["name"], "Identity");
  EXPECT_EQ(model["signature"]["outputs"]["Identity"]["name"], "Identity:0");

  // export_meta_graph's options apply before the TF.js writer.
  MemoryOutputSet cleared;
  Export(loaded->model.get(), {{"to", "tfjs"}, {"clearDevices", true}}, &cleared);
  EXPECT_EQ(cleared.files().back().bytes.find("/device:CPU:0"), std::string::npos);
  EXPECT_NE(tfjs.files().back().bytes.find("/device:CPU:0"), std::string::npos);
}

// filename, the TensorFlow family's name of the main output file, names the model JSON of a
// TF.js export; the result reads back under that name.
TEST(TfjsFamilyTest, FilenameNamesTheModelJson) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto loaded = Load("simple");
  MemoryOutputSet out;
  json info = Export(loaded->model.get(), {{"to", "tfjs"}, {"filename", "face.json"}}, &out);
  EXPECT_EQ(info["files"], json({"group1-shard1of1.bin", "face.json"}));
  ASSERT_EQ(out.files().size(), 2u);
  EXPECT_EQ(out.files()[1].name, "face.json");
  OwnedInputSet again;
  testing::AddOutputs(out, &again);
  Probe probe(again.set());
  Detection d = TfjsFamily().Detect(&probe, "");
  EXPECT_EQ(d.primary, "face.json");
  EXPECT_EQ(d.score, Detection::kByStructure) << d.reason;

  MemoryOutputSet plain;
  Export(loaded->model.get(), {{"to", "tfjs"}, {"filename", ""}}, &plain);
  EXPECT_EQ(plain.files().back().name, "model.json");

  for (const char* bad :
       {"model.bin", "../model.json", "sub/model.json", "/tmp/model.json", "a\\b.json", ".json"}) {
    MemoryOutputSet refused;
    try {
      Export(loaded->model.get(), {{"to", "tfjs"}, {"filename", bad}}, &refused);
      ADD_FAILURE() << bad << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidOption) << bad;
      EXPECT_EQ(e.where().option, "filename") << bad;
      // A path is refused by the schema's fileName rule, for every family alike; a bare name
      // that is no model JSON by the TF.js writer.
      const bool path = std::string(bad).find_first_of("/\\") != std::string::npos;
      EXPECT_NE(std::string(e.what()).find(path ? "not a path" : "ending in .json"),
                std::string::npos)
          << e.what();
    }
    EXPECT_TRUE(refused.files().empty()) << bad;
  }
  EXPECT_NE(TfjsFamily().export_options().Find("filename")->help.find("to: 'tfjs'"),
            std::string::npos);
}

TEST(TfjsFamilyTest, TfjsOnlyOptionsNeedToTfjs) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto loaded = Load("simple");
  MemoryOutputSet out;
  try {
    Export(loaded->model.get(), {{"to", "graph-def"}, {"quantize", "uint8"}}, &out);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_EQ(e.where().option, "quantize");
  }
}

TEST(TfjsFamilyTest, DequantizeFalseThroughTheLoadOptions) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto loaded = Load("simple", {{"dequantize", false}});
  EXPECT_EQ(loaded->model->Inspect()["tfjs"]["dequantized"], false);
}

TEST(TfjsFamilyTest, OptionSchemas) {
  const OptionSchema& load = TfjsFamily().load_options();
  ASSERT_NE(load.Find("dequantize"), nullptr);
  EXPECT_EQ(load.Find("dequantize")->default_value, true);
  const OptionSchema& s = TfjsFamily().export_options();
  struct Expected {
    const char* name;
    const char* cli;
    const char* seed;
  };
  for (const Expected& e :
       {Expected{"quantize", "quantize", "quantize_{float16,uint8,uint16}"},
        Expected{"quantizeWeights", "quantize-weights", "quantize_{float16,uint8,uint16}=PATTERNS"},
        Expected{"shardSize", "shard-size", "weight_shard_size_bytes"},
        Expected{"unfuseOps", "unfuse-ops", ""}}) {
    const OptionSpec* spec = s.Find(e.name);
    ASSERT_NE(spec, nullptr) << e.name;
    EXPECT_EQ(spec->cli, e.cli);
    EXPECT_EQ(spec->seed, e.seed);
    EXPECT_EQ(spec->group, kOptionGroup);
    EXPECT_FALSE(spec->help.empty());
  }
  EXPECT_EQ(s.Find("shardSize")->default_value, 4194304);
  const auto& to = s.Find("to")->choices;
  EXPECT_NE(std::find(to.begin(), to.end(), json("tfjs")), to.end());
  EXPECT_NE(s.Find("clearDevices"), nullptr);  // the TensorFlow options are all there
  bool group = false;
  for (const auto& g : s.groups)
    group = group || (g.id == kOptionGroup && g.title == "TensorFlow.js");
  EXPECT_TRUE(group);
}

}  // namespace
}  // namespace graphport::tfjs
