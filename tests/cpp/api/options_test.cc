#include "api/options.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>

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

TEST(OptionReaderTest, ReadsKnownKeys) {
  OptionReader reader(R"({"s": "x", "b": true, "l": ["a", "b"]})", "test");
  std::string s;
  bool b = false;
  std::vector<std::string> l;
  reader.String("s", &s);
  reader.Bool("b", &b);
  reader.StringList("l", &l);
  reader.RejectUnknown();
  EXPECT_EQ(s, "x");
  EXPECT_TRUE(b);
  EXPECT_EQ(l, (std::vector<std::string>{"a", "b"}));
}

TEST(OptionReaderTest, AbsentAndNullKeysKeepTheDefault) {
  OptionReader reader(R"({"s": null})", "test");
  std::string s = "default";
  bool b = true;
  reader.String("s", &s);
  reader.Bool("b", &b);
  reader.RejectUnknown();
  EXPECT_EQ(s, "default");
  EXPECT_TRUE(b);
}

TEST(OptionReaderTest, EmptyTextIsNoOptions) {
  OptionReader reader("", "test");
  reader.RejectUnknown();  // nothing to reject
  std::string s = "kept";
  reader.String("s", &s);
  EXPECT_EQ(s, "kept");
}

TEST(OptionReaderTest, UnknownKeyIsNamed) {
  ExpectInvalidOption(
      [] {
        OptionReader reader(R"({"known": "a", "typo_key": 1})", "export");
        std::string known;
        reader.String("known", &known);
        reader.RejectUnknown();
      },
      "typo_key");
}

TEST(OptionReaderTest, WrongTypesAreNamed) {
  ExpectInvalidOption(
      [] {
        std::string s;
        OptionReader(R"({"s": 3})", "t").String("s", &s);
      },
      "'s'");
  ExpectInvalidOption(
      [] {
        bool b;
        OptionReader(R"({"b": "yes"})", "t").Bool("b", &b);
      },
      "'b'");
  ExpectInvalidOption(
      [] {
        std::vector<std::string> l;
        OptionReader(R"({"l": "serve"})", "t").StringList("l", &l);
      },
      "'l'");
  ExpectInvalidOption(
      [] {
        std::vector<std::string> l;
        OptionReader(R"({"l": ["serve", 1]})", "t").StringList("l", &l);
      },
      "'l'");
}

TEST(OptionReaderTest, NotAnObjectIsInvalid) {
  for (const char* text : {"[1, 2]", "\"to\"", "42", "{not json", "null", "{\"a\": }"}) {
    ExpectInvalidOption([&] { OptionReader reader(text, "export"); }, "export options");
  }
}

TEST(ParseLoadOptionsTest, ReadsEveryField) {
  LoadOptions o = ParseLoadOptions(R"({"format": "saved-model-text", "tags": ["serve", "gpu"],
                                       "name": "m.pbtxt"})");
  EXPECT_EQ(o.format, "saved-model-text");
  EXPECT_EQ(o.tags, (std::vector<std::string>{"serve", "gpu"}));
  EXPECT_EQ(o.name, "m.pbtxt");
  LoadOptions defaults = ParseLoadOptions("{}");
  EXPECT_EQ(defaults.format, "auto");
  EXPECT_TRUE(defaults.tags.empty());
  EXPECT_EQ(defaults.name, "input");
}

TEST(ParseLoadOptionsTest, UnknownKeyIsInvalid) {
  ExpectInvalidOption([] { ParseLoadOptions(R"({"fromat": "auto"})"); }, "fromat");
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
  std::string expected;
  ASSERT_TRUE(google::protobuf::TextFormat::PrintToString(input.graph_def(), &expected));
  EXPECT_EQ(out.files()[0].bytes, expected);
}

}  // namespace
}  // namespace graphport
