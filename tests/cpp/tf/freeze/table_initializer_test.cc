// The tables of a TF2 SavedModel frozen with their initializer graph: tf.Transform's
// tfx_tft_tf2_hashtables (../shared/savedmodels), whose serving signature reads two hash tables
// filled from vocabulary files in assets/. Exported through the facade as a user meets it.
#include "tf/freeze/table_initializer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "api/model.h"
#include "core/error.h"
#include "freeze_test_util.h"
#include "tf/initializer_graph.h"

namespace graphport::testing {
namespace {

using nlohmann::json;

fs::path HashTablesDir() { return SavedModelsDir() / "tfx_tft_tf2_hashtables/saved_model"; }

const char kPaymentVocabulary[] = "vocab_compute_and_apply_vocabulary_vocabulary";
const char kCompanyVocabulary[] = "vocab_compute_and_apply_vocabulary_1_vocabulary";

// The folder's files, less those whose name starts with `leave_out`; *keep holds their bytes,
// which the input set reads in place.

std::map<std::string, std::string> Export(Model* model, const json& options, json* info) {
  MemoryOutputSet out;
  *info = model->Export(options, &out);
  std::map<std::string, std::string> files;
  for (const auto& f : out.files()) files[f.name] = f.bytes;
  return files;
}

// The vocabulary file's lines, as the test reads them itself.
std::vector<std::string> VocabularyLines(const char* asset) {
  std::istringstream text(ReadFile(HashTablesDir() / "assets" / asset));
  std::vector<std::string> lines;
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

const tensorflow::NodeDef& Input(const tensorflow::GraphDef& graph, const tensorflow::NodeDef& node,
                                 int k) {
  std::string name = node.input(k);
  if (name[0] == '^') name = name.substr(1);
  name = name.substr(0, name.find(':'));
  const tensorflow::NodeDef* found = NodeNamed(graph, name);
  if (found == nullptr) throw std::runtime_error("no node " + name);
  return *found;
}

// Follows Identities back to the node that makes a tensor.
const tensorflow::NodeDef& Source(const tensorflow::GraphDef& graph,
                                  const tensorflow::NodeDef& node, int k) {
  const tensorflow::NodeDef* at = &Input(graph, node, k);
  while (at->op() == "Identity") at = &Input(graph, *at, 0);
  return *at;
}

TEST(TableInitializer, TheFrozenGraphHoldsItsTablesFilledFromTheAssetsAsTensorflowLoadsThem) {
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(HashTablesDir(), &files);
  json info;
  std::map<std::string, std::string> out =
      Export(model.get(), {{"to", "meta-graph"}, {"freeze", true}}, &info);
  tensorflow::MetaGraphDef meta;
  ASSERT_TRUE(meta.ParseFromString(out.begin()->second));
  const tensorflow::GraphDef& graph = meta.graph_def();

  // The two tables the signature captures: unknown_6 (object 7) and unknown_9 (object 9).
  // Objects 6 and 8 are resources whose _initialize fills 7 and 9: the converter leaves them.
  const json& tables = info["frozen"]["tables"];
  ASSERT_EQ(tables["tables"].size(), 2u) << tables.dump();
  EXPECT_EQ(tables["tables"][0]["input"], "unknown_6");
  EXPECT_EQ(tables["tables"][0]["object"], 7);
  EXPECT_EQ(tables["tables"][0]["output"], "Identity:0");
  EXPECT_EQ(tables["tables"][1]["input"], "unknown_9");
  EXPECT_EQ(tables["tables"][1]["output"], "Identity_1:0");
  ASSERT_EQ(tables["resourcesLeftOut"].size(), 2u);
  EXPECT_EQ(tables["resourcesLeftOut"][0]["object"], 6);
  EXPECT_EQ(tables["resourcesLeftOut"][1]["object"], 8);

  // As a TF1 SavedModel holds tables: init ops in table_initializer, a NoOp over them that
  // the loader runs, each resource input an Identity of the table's handle.
  ASSERT_EQ(meta.collection_def().count(tf::kTableInitializerCollection), 1u);
  const auto& init_ops = meta.collection_def().at(tf::kTableInitializerCollection).node_list();
  ASSERT_EQ(init_ops.value_size(), 2);
  EXPECT_EQ(meta.collection_def().at(tf::kMainOpCollection).node_list().value(0),
            "init_all_tables");
  std::map<std::string, int> ops = OpHistogram(graph);
  EXPECT_EQ(ops["HashTableV2"], 2);
  EXPECT_EQ(ops["LookupTableImportV2"], 2);
  EXPECT_EQ(ops.count("InitializeTableFromTextFileV2"), 0u);
  EXPECT_EQ(ops.count("StatefulPartitionedCall"), 0u);

  std::map<std::string, std::vector<std::string>> expected = {
      {"unknown_6", VocabularyLines(kPaymentVocabulary)},
      {"unknown_9", VocabularyLines(kCompanyVocabulary)}};
  ASSERT_EQ(expected["unknown_6"].size(), 10u);
  ASSERT_EQ(expected["unknown_9"].size(), 150u);
  for (const auto& [input, lines] : expected) {
    SCOPED_TRACE(input);
    const tensorflow::NodeDef* link = NodeNamed(graph, input);
    ASSERT_NE(link, nullptr);
    EXPECT_EQ(link->op(), "Identity");
    EXPECT_EQ(link->attr().at(tf::kResourceIdAttr).i(), input == "unknown_6" ? 7 : 9);
    const tensorflow::NodeDef& table = Source(graph, *link, 0);
    EXPECT_EQ(table.op(), "HashTableV2");
    // The LookupTableImportV2 that fills that very table, from Consts of the file's lines.
    const tensorflow::NodeDef* import = nullptr;
    for (const auto& node : graph.node()) {
      if (node.op() == "LookupTableImportV2" && Source(graph, node, 0).name() == table.name()) {
        import = &node;
      }
    }
    ASSERT_NE(import, nullptr);
    const auto& keys = Input(graph, *import, 1).attr().at("value").tensor();
    const auto& values = Input(graph, *import, 2).attr().at("value").tensor();
    EXPECT_EQ(std::vector<std::string>(keys.string_val().begin(), keys.string_val().end()), lines);
    ASSERT_EQ(values.int64_val_size(), static_cast<int>(lines.size()));
    for (int k = 0; k < values.int64_val_size(); ++k) EXPECT_EQ(values.int64_val(k), k);
    EXPECT_EQ(import->attr().at("Tin").type(), tensorflow::DT_STRING);
    EXPECT_EQ(import->attr().at("Tout").type(), tensorflow::DT_INT64);
  }
  EXPECT_EQ(tables["fromTextFiles"].size(), 2u);
  EXPECT_EQ(tables["fromTextFiles"][0]["asset"], kPaymentVocabulary);
  EXPECT_EQ(tables["fromTextFiles"][0]["entries"], 10);
}

TEST(TableInitializer, TfjsGetsTheConvertersModelInitializerAndResourceIds) {
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(HashTablesDir(), &files);
  json info;
  // BoostedTreesBucketize (4 nodes) has no TF.js kernel: the rest of the graph runs.
  std::map<std::string, std::string> out =
      Export(model.get(), {{"to", "tfjs"}, {"allowUnsupportedOps", true}}, &info);
  ASSERT_EQ(info["unsupportedOps"].size(), 1u) << info["unsupportedOps"].dump();
  EXPECT_EQ(info["unsupportedOps"][0]["op"], "BoostedTreesBucketize");
  json model_json = json::parse(out.at("model.json"));

  std::map<std::string, int> ops;
  for (const auto& node : model_json["modelInitializer"]["node"]) ++ops[node["op"]];
  EXPECT_EQ(ops, (std::map<std::string, int>{{"Const", 4},
                                             {"HashTableV2", 2},
                                             {"Identity", 8},
                                             {"LookupTableImportV2", 2},
                                             {"NoOp", 2}}));
  // The initializer's outputs as the converter names them, paired with the model's resource
  // inputs by resourceId; TF.js runs the initializer for the outputs its signature lists.
  const json& outputs = model_json["initializerSignature"]["outputs"];
  ASSERT_EQ(outputs.size(), 2u) << outputs.dump();
  EXPECT_EQ(outputs["Identity:0"]["resourceId"], 7);
  EXPECT_EQ(outputs["Identity_1:0"]["resourceId"], 9);
  // Keyed by tensor name, as the converter keys an input no SavedModel signature key names.
  const json& inputs = model_json["signature"]["inputs"];
  EXPECT_EQ(inputs["unknown_6:0"]["resourceId"], 7);
  EXPECT_EQ(inputs["unknown_6:0"]["name"], "unknown_6:0");
  EXPECT_EQ(inputs["unknown_9:0"]["resourceId"], 9);
  bool placeholder = false;
  for (const auto& node : model_json["modelTopology"]["node"]) {
    EXPECT_NE(node["op"], "HashTableV2") << "the tables live in the initializer only";
    if (node["name"] == "unknown_6") placeholder = node["op"] == "Placeholder";
    EXPECT_EQ(node.value("attr", json::object()).count(tf::kResourceIdAttr), 0u);
  }
  EXPECT_TRUE(placeholder);
  for (const auto& node : model_json["modelInitializer"]["node"]) {
    EXPECT_EQ(node.value("attr", json::object()).count(tf::kInitializerNameAttr), 0u);
  }
  // The initializer's Consts after the model's, in the one group (research §4.2 step 9).
  const json& weights = model_json["weightsManifest"][0]["weights"];
  ASSERT_EQ(model_json["weightsManifest"].size(), 1u);
  std::string last = weights.back()["name"];
  EXPECT_EQ(last, "StatefulPartitionedCall_3/text_file_init/InitializeTableFromTextFileV2/values");
  EXPECT_EQ(weights.back()["shape"], json::array({150}));

  // graphport reads back what it wrote, tables and all, and writes it again the same way.
  auto again = std::make_unique<MemoryInputSet>("tfjs");
  for (const auto& [name, bytes] : out) again->Add(name, bytes);
  std::unique_ptr<Model> reread = Model::Load(std::move(again), json::object());
  json reread_info;
  std::map<std::string, std::string> rewritten =
      Export(reread.get(), {{"to", "tfjs"}, {"allowUnsupportedOps", true}}, &reread_info);
  json rewritten_json = json::parse(rewritten.at("model.json"));
  EXPECT_EQ(rewritten_json["initializerSignature"], model_json["initializerSignature"]);
  EXPECT_EQ(rewritten_json["signature"], model_json["signature"]);
  EXPECT_EQ(rewritten_json["modelInitializer"]["node"].size(),
            model_json["modelInitializer"]["node"].size());
  EXPECT_EQ(rewritten.at("group1-shard1of1.bin"), out.at("group1-shard1of1.bin"));
}

TEST(TableInitializer, ATableWhoseAssetIsMissingIsUnsupportedAndNamed) {
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(HashTablesDir(), &files, "assets/");
  MemoryOutputSet out;
  try {
    model->ExportJson(R"({"to": "tfjs", "allowUnsupportedOps": true})", &out);
    FAIL() << "exported without the vocabulary files";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    std::string message = e.what();
    EXPECT_NE(message.find("of 'unknown_6' (resource object 7)"), std::string::npos) << message;
    EXPECT_NE(message.find(kPaymentVocabulary), std::string::npos) << message;
    EXPECT_NE(message.find("was not given"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace graphport::testing
