// A SavedModel folder in, the whole folder out: every corpus SavedModel with a variables/
// folder exports to a SavedModel whose variables (and assets) are the input's bytes, beside
// the exported saved_model.pb.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "api/model.h"
#include "test_util.h"

namespace graphport::testing {
namespace {

struct Folder {
  fs::path path;
  std::map<std::string, std::string> files;  // relative name -> bytes
};

Folder ReadFolder(const fs::path& path) {
  Folder folder{path, {}};
  for (const auto& entry : fs::recursive_directory_iterator(path)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    folder.files[fs::relative(entry.path(), path).generic_string()] =
        std::string(std::istreambuf_iterator<char>(in), {});
  }
  return folder;
}

std::vector<fs::path> SavedModelFoldersWithVariables() {
  std::vector<fs::path> out;
  if (!CorpusPresent()) return {CorpusDir() / "missing-corpus"};
  for (const auto& entry : fs::recursive_directory_iterator(CorpusDir() / "tf")) {
    if (entry.path().filename() == "saved_model.pb" &&
        fs::is_directory(entry.path().parent_path() / "variables")) {
      out.push_back(entry.path().parent_path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<Model> LoadFolder(const Folder& folder) {
  auto inputs = std::make_unique<MemoryInputSet>(folder.path.string());
  for (const auto& [name, bytes] : folder.files) inputs->Add(name, bytes);
  return Model::Load(std::move(inputs), nlohmann::json::object());
}

class SavedModelFolderTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(SavedModelFolderTest, ExportsWholeWithVariablesByteForByte) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  Folder folder = ReadFolder(GetParam());
  std::unique_ptr<Model> model = LoadFolder(folder);
  nlohmann::json summary = nlohmann::json::parse(model->InspectJson());
  EXPECT_EQ(summary["format"], "saved-model");
  EXPECT_FALSE(summary["savedModelFiles"].empty());
  EXPECT_TRUE(model->ExportWritesFolder(R"({"to": "saved-model"})"));
  EXPECT_FALSE(model->ExportWritesFolder(R"({"to": "meta-graph"})"));

  MemoryOutputSet out;
  nlohmann::json info = nlohmann::json::parse(
      model->ExportJson(R"({"to": "saved-model", "clearDevices": true})", &out));
  std::map<std::string, std::string> written;
  for (const auto& f : out.files()) written[f.name] = f.bytes;
  ASSERT_EQ(out.files()[0].name, "saved_model.pb");
  size_t passed = 0;
  for (const auto& [name, bytes] : folder.files) {
    bool part = name.rfind("variables/", 0) == 0 || name.rfind("assets/", 0) == 0 ||
                name.rfind("assets.extra/", 0) == 0;
    if (!part) {
      EXPECT_EQ(written.count(name), name == "saved_model.pb" ? 1u : 0u) << name;
      continue;
    }
    ASSERT_EQ(written.count(name), 1u) << name << " was not passed through";
    EXPECT_TRUE(written[name] == bytes) << name << " changed";
    ++passed;
  }
  EXPECT_GT(passed, 0u);
  EXPECT_EQ(info["files"].size(), passed + 1);
  // The exported graph is what the same export of saved_model.pb alone writes.
  MemorySource alone(folder.files["saved_model.pb"]);
  std::unique_ptr<Model> single = Model::Load(&alone, LoadOptions{});
  MemoryOutputSet single_out;
  nlohmann::json single_info = nlohmann::json::parse(
      single->ExportJson(R"({"to": "saved-model", "clearDevices": true})", &single_out));
  ASSERT_EQ(single_out.files().size(), 1u);
  EXPECT_TRUE(single_out.files()[0].bytes == written["saved_model.pb"]);
  EXPECT_NE(single_info["notes"].dump().find("no variables/"), std::string::npos)
      << single_info.dump();
  if (folder.files.count("fingerprint.pb")) {
    EXPECT_NE(info["notes"].dump().find("fingerprint.pb is left out"), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, SavedModelFolderTest, ::testing::ValuesIn(SavedModelFoldersWithVariables()),
    [](const ::testing::TestParamInfo<fs::path>& info) {
      std::string name =
          fs::relative(info.param, CorpusDir() / "tf" / "serving" / "servables").generic_string();
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(SavedModelFolderTest, SeveralSavedModelsSideBySideAreNotGuessed) {
  auto inputs = std::make_unique<MemoryInputSet>("two");
  static const std::string bytes = ReadCorpus(kSessionBundleMeta);
  inputs->Add("a/saved_model.pb", bytes);
  inputs->Add("b/saved_model.pb", bytes);
  try {
    Model::Load(std::move(inputs), nlohmann::json::object());
    ADD_FAILURE() << "one of two SavedModels was picked";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnknownFormat);
    EXPECT_NE(std::string(e.what()).find("several SavedModels"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace graphport::testing
