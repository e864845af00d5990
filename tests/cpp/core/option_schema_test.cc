#include "core/option_schema.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"

namespace graphport {
namespace {

using nlohmann::json;

OptionSchema TestSchema() {
  OptionSchema s;
  s.family = "test";
  s.title = "Test";
  OptionSpec b;
  b.name = "flag";
  b.type = OptionType::kBool;
  b.default_value = true;
  OptionSpec i;
  i.name = "level";
  i.type = OptionType::kInt;
  i.default_value = 1;
  i.choices = {0, 1, 2};
  OptionSpec c;
  c.name = "kind";
  c.type = OptionType::kChoice;
  c.default_value = "a";
  c.choices = {"a", "b"};
  OptionSpec l;
  l.name = "list";
  l.type = OptionType::kStringList;
  OptionSpec t;
  t.name = "text";
  t.type = OptionType::kString;
  OptionSpec bytes;
  bytes.name = "blob";
  bytes.type = OptionType::kBytes;
  OptionSpec m;
  m.name = "message";
  m.type = OptionType::kMessage;
  s.options = {b, i, c, l, t, bytes, m};
  return s;
}

void ExpectInvalid(const OptionSchema& schema, const std::string& given,
                   const std::string& needle) {
  try {
    OptionValues::Read(schema, json::parse(given), "export");
    ADD_FAILURE() << given << " was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(OptionValuesTest, UnsetOptionsAnswerTheirDefault) {
  OptionSchema schema = TestSchema();
  OptionValues v = OptionValues::Read(schema, json::object(), "export");
  EXPECT_TRUE(v.Bool("flag"));
  EXPECT_EQ(v.Int("level"), 1);
  EXPECT_EQ(v.String("kind"), "a");
  EXPECT_TRUE(v.StringList("list").empty());
  EXPECT_FALSE(v.Has("flag"));
  EXPECT_TRUE(v.GivenNames().empty());
}

TEST(OptionValuesTest, GivenValuesAreRead) {
  OptionSchema schema = TestSchema();
  OptionValues v = OptionValues::Read(
      schema,
      json::parse(R"({"flag": false, "level": 2, "kind": "b", "list": ["x", "y"], "text": "t",
                      "blob": {"$bytes": "AAEC"}})"),
      "export");
  EXPECT_FALSE(v.Bool("flag"));
  EXPECT_EQ(v.Int("level"), 2);
  EXPECT_EQ(v.String("kind"), "b");
  EXPECT_EQ(v.StringList("list"), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(v.String("text"), "t");
  EXPECT_EQ(v.Bytes("blob"), std::string("\0\1\2", 3));
  EXPECT_EQ(v.GivenNames(),
            (std::vector<std::string>{"flag", "level", "kind", "list", "text", "blob"}));
}

TEST(OptionValuesTest, NullIsNotSet) {
  OptionSchema schema = TestSchema();
  OptionValues v = OptionValues::Read(schema, json::parse(R"({"flag": null})"), "export");
  EXPECT_FALSE(v.Has("flag"));
  EXPECT_TRUE(v.Bool("flag"));
}

TEST(OptionValuesTest, AStringIsBytesOfItsUtf8) {
  OptionSchema schema = TestSchema();
  OptionValues v = OptionValues::Read(schema, json::parse(R"({"blob": "héllo"})"), "export");
  EXPECT_EQ(v.Bytes("blob"), "h\xc3\xa9llo");
}

TEST(OptionValuesTest, WrongTypesAndValuesAreNamed) {
  OptionSchema schema = TestSchema();
  ExpectInvalid(schema, R"({"flag": "yes"})", "'flag' must be true or false");
  ExpectInvalid(schema, R"({"level": 1.5})", "'level' must be an integer");
  ExpectInvalid(schema, R"({"level": 3})", "'level' must be 0, 1 or 2, got 3");
  ExpectInvalid(schema, R"({"kind": "c"})", "'kind' must be a or b");
  ExpectInvalid(schema, R"({"list": "x"})", "'list' must be a list of strings");
  ExpectInvalid(schema, R"({"list": ["x", 1]})", "'list'");
  ExpectInvalid(schema, R"({"text": 3})", "'text' must be a string");
  ExpectInvalid(schema, R"({"blob": 3})", "'blob' must be bytes or a string");
  ExpectInvalid(schema, R"({"blob": {"$bytes": "not base64!"}})", "'blob'");
  ExpectInvalid(schema, R"({"message": "x"})", "'message'");
  ExpectInvalid(schema, R"({"typo": 1})", "unknown export option 'typo' for a Test model");
  ExpectInvalid(schema, R"([1])", "export options must be an object");
}

TEST(OptionValuesTest, MessagesQuoteAtMostAFewWordsOfAValue) {
  OptionSchema schema = TestSchema();
  std::string huge(100000, 'x');
  try {
    OptionValues::Read(schema, json{{"level", huge}}, "export");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u) << e.what();
    EXPECT_NE(std::string(e.what()).find("100002 characters"), std::string::npos) << e.what();
  }
}

TEST(OptionSchemaTest, ToJsonListsEveryOption) {
  OptionSchema schema = TestSchema();
  json j = schema.ToJson();
  EXPECT_EQ(j["family"], "test");
  ASSERT_EQ(j["options"].size(), schema.options.size());
  EXPECT_EQ(j["options"][1]["name"], "level");
  EXPECT_EQ(j["options"][1]["type"], "int");
  EXPECT_EQ(j["options"][1]["choices"], json::parse("[0, 1, 2]"));
  EXPECT_EQ(j["options"][0]["default"], true);
}

TEST(OptionValuesTest, BinaryValuesAreBytes) {
  OptionSchema schema = TestSchema();
  json given = json::object();
  given["blob"] = BytesOption(std::string("\x01\x02", 2));
  OptionValues v = OptionValues::Read(schema, given, "export");
  EXPECT_EQ(v.Bytes("blob"), std::string("\x01\x02", 2));
}

// The test schema with rules: `text` needs kind "b" or flag off, and a value other than
// `other`'s (as a second file name must differ from the first); `list` needs `text` set;
// `blob` is only used with kind "b".
OptionSchema RuleSchema() {
  OptionSchema s = TestSchema();
  OptionSpec other;
  other.name = "other";
  other.type = OptionType::kString;
  other.default_value = "same";
  s.options.push_back(other);
  for (OptionSpec& spec : s.options) {
    if (spec.name == "text") {
      spec.rules = {{RuleKind::kNeeds, {{"kind", {"b"}}, {"flag", {false}}}, "text needs kind b"},
                    {RuleKind::kNeeds, {{"other", {}, true}}, "text must differ from other"}};
    }
    if (spec.name == "list") spec.rules = {{RuleKind::kNeeds, {{"text"}}, "list needs text"}};
    if (spec.name == "blob") {
      spec.rules = {{RuleKind::kUsedWhen, {{"kind", {"b"}}}, "blob is used with kind b only"}};
    }
  }
  return s;
}

TEST(OptionRulesTest, ANeedsRuleThatFailsIsAnErrorNamingTheOption) {
  OptionSchema s = RuleSchema();
  ExpectInvalid(s, R"({"text": "x"})", "text needs kind b");
  try {
    OptionValues::Read(s, json::parse(R"({"text": "x"})"), "export");
  } catch (const Error& e) {
    EXPECT_EQ(e.where().option, "text");
  }
  // Any condition of the rule will do, read at the value given or the default.
  EXPECT_NO_THROW(OptionValues::Read(s, json::parse(R"({"text": "x", "kind": "b"})"), "export"));
  EXPECT_NO_THROW(OptionValues::Read(s, json::parse(R"({"text": "x", "flag": false})"), "export"));
  // Blank text is no value: its rules are not asked.
  EXPECT_NO_THROW(OptionValues::Read(s, json::parse(R"({"text": "  "})"), "export"));
  ExpectInvalid(s, R"({"text": "same", "kind": "b"})", "text must differ from other");
  ExpectInvalid(s, R"({"list": ["a"]})", "list needs text");
  ExpectInvalid(s, R"({"list": ["a"], "text": " "})", "list needs text");
  EXPECT_NO_THROW(
      OptionValues::Read(s, json::parse(R"({"list": ["a"], "text": "y", "kind": "b"})"), "export"));
}

TEST(OptionRulesTest, AUsedWhenRuleIsOnlyDescribed) {
  OptionSchema s = RuleSchema();
  // The core ignores such an option; the page says so from the same rule.
  EXPECT_NO_THROW(OptionValues::Read(s, json::parse(R"({"blob": "x"})"), "export"));
  json rule = s.ToJson()["options"][5]["rules"][0];
  EXPECT_EQ(rule["kind"], "usedWhen");
  EXPECT_EQ(rule["anyOf"],
            json::parse(R"([{"option": "kind", "values": ["b"], "differs": false}])"));
  EXPECT_EQ(rule["message"], "blob is used with kind b only");
}

TEST(OptionRulesTest, DerivedDefaultsAreListedInOrder) {
  OptionSchema s = TestSchema();
  s.options[4].derived_defaults = {{{{"kind", {"b"}}}, "b.txt"}, {{{"flag", {false}}}, "off.txt"}};
  json j = s.ToJson()["options"][4]["defaultWhen"];
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["value"], "b.txt");
  EXPECT_EQ(j[1]["when"][0]["option"], "flag");
  EXPECT_EQ(s.ToJson()["options"][0]["defaultWhen"], json::array());
}

// Bounds the page reads from the schema and the core enforces: a least int, a file name.
TEST(OptionBoundsTest, AnIntUnderItsMinimumIsRefusedNamingTheOption) {
  OptionSchema s = TestSchema();
  s.options[1].choices.clear();
  s.options[1].minimum = 1;
  EXPECT_NO_THROW(OptionValues::Read(s, json::parse(R"({"level": 1})"), "export"));
  try {
    OptionValues::Read(s, json::parse(R"({"level": 0})"), "export");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_STREQ(e.what(), "export option 'level' must be at least 1, got 0");
    EXPECT_EQ(e.where().option, "level");
  }
  EXPECT_EQ(s.ToJson()["options"][1]["minimum"], 1);
  EXPECT_TRUE(s.ToJson()["options"][0]["minimum"].is_null());
}

TEST(OptionBoundsTest, AFileNameIsNoPath) {
  OptionSchema s = TestSchema();
  s.options[4].file_name = true;
  EXPECT_NO_THROW(OptionValues::Read(s, json::parse(R"({"text": "model.meta"})"), "export"));
  EXPECT_NO_THROW(OptionValues::Read(s, json::parse(R"({"text": ".hidden"})"), "export"));
  ExpectInvalid(s, R"({"text": "dir/model.meta"})", "must be a file name, not a path");
  ExpectInvalid(s, R"({"text": "dir\\model.meta"})", "not a path");
  ExpectInvalid(s, R"({"text": ".."})", "'text' must be a file name, got \"..\"");
  EXPECT_EQ(s.ToJson()["options"][4]["fileName"], true);
  EXPECT_EQ(s.ToJson()["options"][3]["fileName"], false);
}

TEST(OptionBoundsTest, AnAddedFileIsNamedByItsPattern) {
  EXPECT_EQ(AddedFileName("{stem}_debug{ext}", "model.meta"), "model_debug.meta");
  EXPECT_EQ(AddedFileName("{stem}_debug{ext}", "a.tar.gz"), "a.tar_debug.gz");
  EXPECT_EQ(AddedFileName("{stem}_debug{ext}", "model"), "model_debug");
  EXPECT_EQ(AddedFileName("{stem}_debug{ext}", ".meta"), ".meta_debug");
  EXPECT_EQ(AddedFileName("{stem}_debug{ext}", "ckpt-100.meta"), "ckpt-100_debug.meta");
  EXPECT_EQ(AddedFileName("{stem}_debug{ext}", "dir/x.y/model"), "dir/x.y/model_debug");
  EXPECT_EQ(AddedFileName("{stem}_debug{ext}", "dir/model.pbtxt"), "dir/model_debug.pbtxt");
  EXPECT_EQ(AddedFileName("{stem}_debug{ext}", "dir/.meta"), "dir/.meta_debug");
  EXPECT_EQ(AddedFileName("{stem}.json", "ckpt-100.mge"), "ckpt-100.json");
  OptionSchema s = TestSchema();
  s.options[0].adds_file = "{stem}_x{ext}";
  EXPECT_EQ(s.ToJson()["options"][0]["addsFile"], "{stem}_x{ext}");
  EXPECT_TRUE(s.ToJson()["options"][1]["addsFile"].is_null());
}

TEST(OptionBoundsTest, OfALastWinsSetTheLastOneOnApplies) {
  OptionSchema s = TestSchema();
  for (const char* name : {"a", "b", "c"}) {
    OptionSpec spec;
    spec.name = name;
    spec.type = OptionType::kBool;
    spec.default_value = false;
    s.options.push_back(spec);
  }
  s.last_wins = {{"letters", {"c", "a", "b"}}};
  auto last = [&](const char* given) {
    return OptionValues::Read(s, json::parse(given), "export").LastSet("letters");
  };
  EXPECT_EQ(last(R"({"a": true, "c": true})"), "a");
  EXPECT_EQ(last(R"({"a": true, "b": true, "c": true})"), "b");
  EXPECT_EQ(last(R"({"b": false})"), "");
  EXPECT_EQ(last(R"({"a": true})"), "a");
  EXPECT_EQ(OptionValues::Read(s, json::object(), "export").LastSet("other"), "");
  EXPECT_EQ(s.ToJson()["lastWins"],
            json::parse(R"([{"id": "letters", "options": ["c", "a", "b"]}])"));
  EXPECT_EQ(TestSchema().ToJson()["lastWins"], json::array());
}

TEST(BytesOptionTest, RoundTrips) {
  std::string bytes("\0\xff\x10", 3);
  std::string back;
  // The bytes themselves, as the CLI and the binding give them: no base64 on the way.
  ASSERT_TRUE(BytesOption(bytes).is_binary());
  ASSERT_TRUE(IsBytesOption(BytesOption(bytes), &back));
  EXPECT_EQ(back, bytes);
  ASSERT_TRUE(IsBytesOption(json::parse(R"({"$bytes": "AP8Q"})"), &back));
  EXPECT_EQ(back, bytes) << "JSON text gives bytes as base64";
  EXPECT_FALSE(IsBytesOption(json::parse(R"({"$bytes": 1})"), &back));
  EXPECT_FALSE(IsBytesOption(json::parse(R"({"$bytes": "AA==", "x": 1})"), &back));
}

}  // namespace
}  // namespace graphport
