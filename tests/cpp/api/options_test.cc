#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

#include "api/load_options.h"
#include "api/model.h"
#include "core/error.h"
#include "test_util.h"

namespace graphport {
namespace {

// Runs `f`, which must throw graphport::Error(kInvalidOption) with `needle` in its message.
template <typename F>
void ExpectInvalidOption(F f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one naming '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(LoadOptionsTest, CommonAndFamilyKeysAreToldApart) {
  SplitLoadOptions split =
      SplitLoad(nlohmann::json::parse(R"({"format": "saved-model-text", "tags": ["serve", "gpu"],
                                          "name": "m.pbtxt"})"));
  EXPECT_EQ(split.common.String("format"), "saved-model-text");
  EXPECT_EQ(split.common.String("name"), "m.pbtxt");
  EXPECT_EQ(split.per_family, nlohmann::json::parse(R"({"tags": ["serve", "gpu"]})"));
  SplitLoadOptions defaults = SplitLoad(nlohmann::json::object());
  EXPECT_EQ(defaults.common.String("format"), "auto");
  EXPECT_EQ(defaults.common.String("name"), "input");
  EXPECT_TRUE(defaults.per_family.empty());
}

TEST(LoadOptionsTest, UnknownKeyIsInvalid) {
  ExpectInvalidOption([] { SplitLoad(nlohmann::json::parse(R"({"fromat": "auto"})")); }, "fromat");
}

TEST(LoadOptionsTest, AnotherFamilysOptionNamesItsFamily) {
  SplitLoadOptions split = SplitLoad(nlohmann::json::parse(R"({"tags": ["serve"]})"));
  class Toy : public Family {
   public:
    Toy() { schema_.title = "Toy"; }
    const std::string& id() const override { return id_; }
    const std::string& title() const override { return schema_.title; }
    std::vector<std::string> formats() const override { return {}; }
    const OptionSchema& load_options() const override { return schema_; }
    const OptionSchema& export_options() const override { return schema_; }
    Detection Detect(Probe*, const std::string&) const override { return {}; }
    std::unique_ptr<FamilyModel> Read(Probe*, const Detection&,
                                      const OptionValues&) const override {
      return nullptr;
    }

   private:
    std::string id_ = "toy";
    OptionSchema schema_;
  } toy;
  try {
    FamilyLoadValues(toy, split.per_family);
    ADD_FAILURE() << "tags were accepted for a family without them";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_NE(std::string(e.what()).find("for TensorFlow models; this is a Toy model"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.where().option, "tags");
  }
}

class ExportOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = testing::ReadCorpus(testing::kSessionBundleMeta);
    MemorySource source(bytes_);
    model_ = Model::Load(&source, LoadOptions{});
  }
  // Expects kInvalidOption naming `needle`, and that nothing was written.
  void ExpectRejected(const std::string& options_json, const std::string& needle) {
    MemoryOutputSet out;
    ExpectInvalidOption([&] { model_->ExportJson(options_json, &out); }, needle);
    EXPECT_TRUE(out.files().empty()) << options_json;
  }
  std::string bytes_;
  std::unique_ptr<Model> model_;
};

TEST_F(ExportOptionsTest, UnknownKeyIsInvalidAndNamed) {
  ExpectRejected(R"({"to": "graph-def", "clearDevicez": true})", "clearDevicez");
}

TEST_F(ExportOptionsTest, BadToIsInvalid) {
  ExpectRejected(R"({"to": "onnx"})", "onnx");
  ExpectRejected(R"({"to": "graph-def-text"})", "graph-def-text");
  ExpectRejected(R"({"to": 3})", "'to'");
}

TEST_F(ExportOptionsTest, BadAsTextAndFilenameAreInvalid) {
  ExpectRejected(R"({"asText": "true"})", "asText");
  ExpectRejected(R"({"filename": false})", "filename");
}

TEST_F(ExportOptionsTest, MalformedJsonIsInvalid) {
  ExpectRejected("{to: graph-def}", "export options");
  ExpectRejected("[]", "export options");
}

TEST_F(ExportOptionsTest, ValidOptionsStillWorkAfterRejectedOnes) {
  MemoryOutputSet bad;
  EXPECT_THROW(model_->ExportJson(R"({"bogus": 1})", &bad), Error);
  MemoryOutputSet out;
  model_->ExportJson(R"({"to": "graph-def", "asText": true, "filename": "g.txt"})", &out);
  ASSERT_EQ(out.files().size(), 1u);
  EXPECT_EQ(out.files()[0].name, "g.txt");
  tensorflow::MetaGraphDef input;
  ASSERT_TRUE(input.ParseFromString(bytes_));
  const std::string expected = testing::ReferenceText(input.graph_def());
  EXPECT_EQ(out.files()[0].bytes, expected);
}

}  // namespace
}  // namespace graphport
