// inspect() of a SavedModel folder lists its checkpoint's variables from the index alone, and a
// checkpoint it cannot read is reported beside a summary that still works.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "api/model.h"
#include "test_util.h"
#include "tf/summary_text.h"

namespace graphport::testing {
namespace {

using nlohmann::json;

constexpr char kTf2Folder[] =
    "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123";

std::map<std::string, std::string> ReadFolderFiles(const fs::path& path) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(path)) {
    if (entry.is_regular_file()) {
      files[fs::relative(entry.path(), path).generic_string()] = ReadFile(entry.path());
    }
  }
  return files;
}

// The summary of a folder given as `files` (kept alive by the caller) under `root`.
json Inspect(const std::map<std::string, std::string>& files, const std::string& root = "") {
  auto inputs = std::make_unique<MemoryInputSet>("model");
  for (const auto& [name, bytes] : files) inputs->Add(root + name, bytes);
  return json::parse(Model::Load(std::move(inputs), json::object())->InspectJson());
}

TEST(VariablesSummaryTest, HalfPlusTwoTf2ListsItsThreeVariables) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  auto files = ReadFolderFiles(CorpusDir() / kTf2Folder);
  for (const std::string root : {"", "some/folder/"}) {
    SCOPED_TRACE(root);
    json summary = Inspect(files, root);
    ASSERT_TRUE(summary.contains("variables")) << summary.dump();
    const json& variables = summary["variables"];
    ASSERT_EQ(variables.size(), 3u);
    const char* keys[] = {"a/.ATTRIBUTES/VARIABLE_VALUE", "b/.ATTRIBUTES/VARIABLE_VALUE",
                          "c/.ATTRIBUTES/VARIABLE_VALUE"};
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(variables[i]["key"], keys[i]);
      EXPECT_EQ(variables[i]["dtype"], "DT_FLOAT");
      EXPECT_EQ(variables[i]["shape"], json::array());
      EXPECT_EQ(variables[i]["bytes"], 4);
      EXPECT_EQ(variables[i]["shard"], 0);
    }
    EXPECT_EQ(summary["variableBytes"], 12);
    EXPECT_EQ(summary["variableShards"], 1);
    EXPECT_FALSE(summary.contains("variablesError"));
    EXPECT_NE(tf::TfSummaryText(summary).find("variables:   3 (12 bytes) in 1 shard\n"),
              std::string::npos)
        << tf::TfSummaryText(summary);
  }
}

TEST(VariablesSummaryTest, NoDataFileIsReadForIt) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  auto files = ReadFolderFiles(CorpusDir() / kTf2Folder);
  // A data file that fails every crc: inspect() does not look at it.
  std::string& data = files["variables/variables.data-00000-of-00001"];
  data.assign(data.size(), '\0');
  json summary = Inspect(files);
  EXPECT_EQ(summary["variables"].size(), 3u);
  EXPECT_FALSE(summary.contains("variablesError"));
}

TEST(VariablesSummaryTest, AnUnreadableCheckpointDoesNotFailInspect) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  auto files = ReadFolderFiles(CorpusDir() / kTf2Folder);
  files["variables/variables.index"][5] ^= 0x01;
  json summary = Inspect(files);
  EXPECT_EQ(summary["nodeCount"], 29);
  EXPECT_FALSE(summary.contains("variables"));
  ASSERT_TRUE(summary.contains("variablesError"));
  std::string error = summary["variablesError"];
  EXPECT_NE(error.find("model/variables/variables.index"), std::string::npos) << error;
  EXPECT_NE(tf::TfSummaryText(summary).find("variables:   unreadable: model/variables/"),
            std::string::npos);
}

TEST(VariablesSummaryTest, AGraphWithoutCheckpointHasNoVariablesField) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  auto files = ReadFolderFiles(CorpusDir() / kTf2Folder);
  files.erase("variables/variables.index");
  json summary = Inspect(files);
  EXPECT_FALSE(summary.contains("variables"));
  EXPECT_FALSE(summary.contains("variablesError"));
  EXPECT_EQ(tf::TfSummaryText(summary).find("variables:"), std::string::npos);
}

// Every SavedModel of ../shared/savedmodels lists its variables, their bytes adding up.
TEST(VariablesSummaryTest, EverySavedModelListsItsVariables) {
  fs::path root = CorpusDir().parent_path() / "savedmodels";
  ASSERT_TRUE(fs::is_directory(root)) << root;
  int folders = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().filename() != "variables.index") continue;
    fs::path folder = entry.path().parent_path().parent_path();
    SCOPED_TRACE(folder.string());
    json summary = Inspect(ReadFolderFiles(folder));
    ASSERT_TRUE(summary.contains("variables")) << summary.value("variablesError", "");
    uint64_t total = 0;
    for (const auto& v : summary["variables"]) total += v["bytes"].get<uint64_t>();
    EXPECT_EQ(summary["variableBytes"].get<uint64_t>(), total);
    // The tf.Transform graph keeps its state in hash tables filled from assets: its
    // checkpoint holds the object graph alone.
    bool tables_only = folder.parent_path().filename() == "tfx_tft_tf2_hashtables";
    EXPECT_EQ(summary["variables"].empty(), tables_only);
    ++folders;
  }
  EXPECT_GE(folders, 13);
}

}  // namespace
}  // namespace graphport::testing
