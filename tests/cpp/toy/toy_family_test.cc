#include <gtest/gtest.h>

#include "api/command_line.h"
#include "api/families.h"
#include "api/model.h"
#include "api/summary_text.h"
#include "core/error.h"

namespace graphport::testing {
namespace {

class NoFiles : public OptionFileReader {
 public:
  std::string Read(const std::string&, const std::string&) override { return ""; }
};

std::unique_ptr<Model> LoadToy(const std::string& text) {
  auto inputs = std::make_unique<MemoryInputSet>("words");
  static std::string keep;
  keep = text;
  inputs->Add("words.txt", keep);
  return Model::Load(std::move(inputs), nlohmann::json::object());
}

TEST(ToyFamilyTest, IsListedAfterTheBuiltInFamilies) {
  ASSERT_NE(FindFamily("toy"), nullptr);
  EXPECT_EQ(Families().front()->id(), "tensorflow");
  EXPECT_EQ(Families().back()->id(), "toy");
}

TEST(ToyFamilyTest, LoadsInspectsAndExportsThroughTheFacade) {
  std::unique_ptr<Model> model = LoadToy("TOY1\nhello\nworld\n");
  EXPECT_EQ(model->family().id(), "toy");
  nlohmann::json summary = nlohmann::json::parse(model->InspectJson());
  EXPECT_EQ(summary["words"], nlohmann::json::parse(R"(["hello", "world"])"));
  EXPECT_EQ(SummaryText(model->InspectJson()),
            "family:      toy\nformat:      toy-text (text, 0 bytes)\nwords:       2\n"
            "letters:     10\n");
  MemoryOutputSet out;
  model->ExportJson(R"({"shout": true})", &out);
  ASSERT_EQ(out.files().size(), 1u);
  EXPECT_EQ(out.files()[0].bytes, "TOY1\nHELLO\nWORLD\n");
  // The new option reaches the toy's options struct through the facade's JSON.
  MemoryOutputSet suffixed;
  model->ExportJson(R"({"suffix": "!"})", &suffixed);
  EXPECT_EQ(suffixed.files()[0].bytes, "TOY1\nhello!\nworld!\n");
  MemoryOutputSet plain;
  model->ExportJson("{}", &plain);
  EXPECT_EQ(plain.files()[0].bytes, "TOY1\nhello\nworld\n");
}

TEST(ToyFamilyTest, ItsOptionsAreCheckedByItsSchema) {
  std::unique_ptr<Model> model = LoadToy("TOY1\nx\n");
  MemoryOutputSet out;
  try {
    model->ExportJson(R"({"clearDevices": true})", &out);
    ADD_FAILURE() << "a TensorFlow option was accepted for a toy model";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_NE(std::string(e.what()).find("for a Toy model"), std::string::npos) << e.what();
  }
}

TEST(ToyFamilyTest, TheCommandLineKnowsItsFlagAndHelp) {
  NoFiles files;
  CommandLine cl = ParseCommandLine({"export", "w.txt", "-o", "out.txt", "--shout"}, &files);
  EXPECT_EQ(cl.export_, nlohmann::json::parse(R"({"shout": true})"));
  cl = ParseCommandLine({"export", "w.txt", "--no-shout"}, &files);
  EXPECT_EQ(cl.export_, nlohmann::json::parse(R"({"shout": false})"));
  cl = ParseCommandLine({"export", "w.txt", "--suffix", "!"}, &files);
  EXPECT_EQ(cl.export_, nlohmann::json::parse(R"({"suffix": "!"})"));
  std::string usage = UsageText();
  EXPECT_NE(usage.find("export options for Toy models (as toy.save"), std::string::npos) << usage;
  EXPECT_NE(usage.find("  --shout"), std::string::npos);
  EXPECT_NE(usage.find("[shout_words]"), std::string::npos);
  EXPECT_NE(usage.find("  --suffix TEXT"), std::string::npos) << usage;
  EXPECT_NE(usage.find("[word_suffix]"), std::string::npos);
}

TEST(ToyFamilyTest, OtherFamiliesStillDetectTheirOwn) {
  auto inputs = std::make_unique<MemoryInputSet>("g");
  static const std::string text = "node { name: \"a\" op: \"Const\" }\n";
  inputs->Add("g.pbtxt", text);
  std::unique_ptr<Model> model = Model::Load(std::move(inputs), nlohmann::json::object());
  EXPECT_EQ(model->family().id(), "tensorflow");
}

}  // namespace
}  // namespace graphport::testing
