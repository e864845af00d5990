// The family registry through the facade: which family reads what, and what the user is told
// when none does.
#include "api/families.h"

#include <gtest/gtest.h>

#include "api/model.h"
#include "test_util.h"

namespace graphport {
namespace {

using nlohmann::json;

Error LoadError(std::unique_ptr<InputSet> inputs, const json& options = json::object()) {
  try {
    Model::Load(std::move(inputs), options);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "the load succeeded";
  return Error(ErrorCode::kInternal, "");
}

std::unique_ptr<MemoryInputSet> One(const std::string& name, const std::string& bytes) {
  auto set = std::make_unique<MemoryInputSet>(name);
  static std::vector<std::unique_ptr<std::string>> keep;
  keep.push_back(std::make_unique<std::string>(bytes));
  set->Add(name, *keep.back());
  return set;
}

TEST(FamiliesTest, TensorFlowComesFirstAndEveryIdIsFound) {
  ASSERT_GE(Families().size(), 3u);
  EXPECT_EQ(Families()[0]->id(), "tensorflow");
  for (const Family* family : Families()) EXPECT_EQ(FindFamily(family->id()), family);
  EXPECT_EQ(FindFamily("onnx"), nullptr);
}

TEST(FamiliesTest, EveryFormatBelongsToOneFamily) {
  std::map<std::string, std::string> owner;
  for (const Family* family : Families()) {
    for (const auto& format : family->formats()) {
      EXPECT_EQ(owner.count(format), 0u) << format << " is " << owner[format] << "'s too";
      owner[format] = family->id();
    }
  }
}

TEST(FamiliesTest, UnknownInputSaysWhyEachFamilyRefusedIt) {
  Error e = LoadError(One("notes.txt", "just some words\n"));
  EXPECT_EQ(e.code(), ErrorCode::kUnknownFormat);
  std::string message = e.what();
  EXPECT_EQ(message.rfind("notes.txt: not a model that graphport reads (", 0), 0u) << message;
  for (const Family* family : Families()) {
    EXPECT_NE(message.find(family->title() + ": "), std::string::npos) << message;
  }
  EXPECT_EQ(e.where().file, "notes.txt");
}

TEST(FamiliesTest, AnOpListIsPointedToTheOpRegistryOption) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  Error e = LoadError(One("ops.pbtxt", testing::ReadCorpus("tf/ops.pbtxt")));
  EXPECT_EQ(e.code(), ErrorCode::kUnknownFormat);
  EXPECT_NE(std::string(e.what()).find("looks like an OpList"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("--op-registry"), std::string::npos) << e.what();
}

TEST(FamiliesTest, AnEmptyInputIsEmptyInputNotUnknown) {
  Error e = LoadError(One("m.pb", ""));
  EXPECT_EQ(e.code(), ErrorCode::kEmptyInput);
  EXPECT_EQ(e.where().file, "m.pb");
  auto none = std::make_unique<MemoryInputSet>("folder");
  EXPECT_EQ(LoadError(std::move(none)).code(), ErrorCode::kEmptyInput);
}

TEST(FamiliesTest, AForcedFormatGoesToTheFamilyThatOwnsIt) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  std::string bytes = testing::ReadCorpus(testing::kSessionBundleMeta);
  auto set = One("export.meta", bytes);
  std::unique_ptr<Model> model = Model::Load(std::move(set), json{{"format", "meta-graph"}});
  EXPECT_EQ(model->family().id(), "tensorflow");
  EXPECT_EQ(json::parse(model->InspectJson())["detection"], "format given by the caller");
  Error e = LoadError(One("x", "y"), json{{"format", "onnx"}});
  EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
  EXPECT_NE(std::string(e.what()).find("unknown format 'onnx'"), std::string::npos);
}

TEST(FamiliesTest, ALoadOptionOfNoFamilyIsRefused) {
  Error e = LoadError(One("x", "y"), json{{"tagz", json::array({"serve"})}});
  EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
  EXPECT_EQ(e.where().option, "tagz");
}

TEST(FamiliesTest, TheSummaryHasTheCommonHeader) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  std::string bytes = testing::ReadCorpus(testing::kSessionBundleMeta);
  std::unique_ptr<Model> model = Model::Load(One("export.meta", bytes), json::object());
  json s = json::parse(model->InspectJson());
  for (const char* key : {"family", "familyTitle", "format", "encoding", "detection", "inputBytes",
                          "producerText", "counts"}) {
    EXPECT_TRUE(s.contains(key)) << key;
  }
  EXPECT_EQ(s["familyTitle"], "TensorFlow");
  EXPECT_EQ(s["counts"][0][0], "nodes");
  EXPECT_EQ(s["counts"][0][1], s["nodeCount"]);
  EXPECT_FALSE(s.contains("inputs")) << "one input given alone lists no inputs";
}

// The place of a parse error is in the error's fields, not only in its text: the page and the
// JS API read it from there.
TEST(ErrorLocationTest, ABinaryParseErrorCarriesItsByteOffset) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  std::string bytes = testing::ReadCorpus(testing::kSessionBundleMeta).substr(0, 1000);
  Error e = LoadError(One("cut.meta", bytes), json{{"format", "meta-graph-binary"}});
  ASSERT_EQ(e.code(), ErrorCode::kParseError) << e.what();
  EXPECT_EQ(e.where().file, "cut.meta");
  std::string message = e.what();
  size_t at = message.find("at byte ");
  ASSERT_NE(at, std::string::npos) << message;
  EXPECT_EQ(e.where().offset, std::stoll(message.substr(at + 8))) << message;
}

TEST(ErrorLocationTest, ATextParseErrorCarriesItsLineAndColumn) {
  Error e = LoadError(One("g.pbtxt", "node {\n  name: \"a\"\n  bogus: 1\n}\n"),
                      json{{"format", "graph-def-text"}});
  ASSERT_EQ(e.code(), ErrorCode::kParseError) << e.what();
  EXPECT_EQ(e.where().file, "g.pbtxt");
  EXPECT_EQ(e.where().line, 3) << e.what();
  EXPECT_GT(e.where().column, 0);
}

}  // namespace
}  // namespace graphport
