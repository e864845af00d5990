// OrderedJson against nlohmann::ordered_json, the type it replaces in the module (tests may
// still use it): the same text for the same value, byte for byte, for every escape, number and
// nesting; member order and operator[] as it has them; Parse as its parse() reads.
#include "core/ordered_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"

namespace graphport {
namespace {

using nlohmann::ordered_json;

std::string DumpOf(const OrderedJson& v) {
  std::string out;
  EXPECT_TRUE(v.Dump(&out));
  return out;
}

TEST(OrderedJsonTest, DoublesPrintAsNlohmannDoes) {
  const double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.5,
                                0.1,
                                1.0 / 3,
                                static_cast<double>(0.1f),
                                1e15,
                                1e16,
                                123456789012345678.0,
                                1e-4,
                                1e-5,
                                9007199254740993.0,
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::lowest(),
                                std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::denorm_min(),
                                std::nan(""),
                                kInf,
                                -kInf};
  for (double d : values) {
    EXPECT_EQ(DumpOf(OrderedJson(d)), ordered_json(d).dump()) << d;
  }
  EXPECT_EQ(DumpOf(OrderedJson(-0.0)), "-0.0");
  EXPECT_EQ(DumpOf(OrderedJson(std::nan(""))), "null");
  EXPECT_EQ(DumpOf(OrderedJson(1e16)), "1e+16");
}

TEST(OrderedJsonTest, IntegersPrintWhole) {
  EXPECT_EQ(DumpOf(OrderedJson(std::numeric_limits<int64_t>::min())), "-9223372036854775808");
  EXPECT_EQ(DumpOf(OrderedJson(std::numeric_limits<uint64_t>::max())), "18446744073709551615");
  EXPECT_EQ(DumpOf(OrderedJson((int64_t{1} << 53) + 1)), "9007199254740993");
  EXPECT_EQ(DumpOf(OrderedJson(int32_t{-7})), ordered_json(int32_t{-7}).dump());
  EXPECT_EQ(OrderedJson(uint32_t{7}).kind(), OrderedJson::Kind::kUInt);
  EXPECT_EQ(OrderedJson(size_t{7}).kind(), OrderedJson::Kind::kUInt);
  EXPECT_EQ(OrderedJson(7).kind(), OrderedJson::Kind::kInt);
  EXPECT_EQ(DumpOf(OrderedJson(true)), "true");
  EXPECT_EQ(DumpOf(OrderedJson(nullptr)), "null");
}

TEST(OrderedJsonTest, StringsEscapeAsNlohmannDoes) {
  std::vector<std::string> strings = {"",
                                      "plain",
                                      "a\"b\\c/d",
                                      "\xc3\xa9t\xc3\xa9",
                                      "\xe2\x82\xac",
                                      "\xf0\x9f\x98\x80 smile",
                                      "tab\tend\x7f"};
  for (int c = 0; c < 0x80; ++c) strings.push_back(std::string(1, static_cast<char>(c)) + "x");
  strings.push_back(std::string("nul\0inside", 10));
  for (const std::string& s : strings) {
    EXPECT_EQ(DumpOf(OrderedJson(s)), ordered_json(s).dump()) << s;
    OrderedJson object = OrderedJson::Object({{s, s}});
    EXPECT_EQ(DumpOf(object), ordered_json({{s, s}}).dump()) << s;
  }
  EXPECT_EQ(DumpOf(OrderedJson("\x01\x1f")), "\"\\u0001\\u001f\"");
}

TEST(OrderedJsonTest, StringsThatAreNotUtf8AreRefusedAsNlohmannRefusesThem) {
  // Lone bytes, a cut sequence, an overlong form, a surrogate, past U+10FFFF.
  for (std::string bad : {"\xff", "ab\xc3", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
    std::string out;
    EXPECT_FALSE(OrderedJson(bad).Dump(&out)) << bad;
    EXPECT_FALSE(OrderedJson::Object({{bad, 1}}).Dump(&out)) << bad;
    EXPECT_THROW(ordered_json(bad).dump(), nlohmann::json::type_error) << bad;
  }
}

TEST(OrderedJsonTest, MembersKeepTheirOrderAndOperatorBracketsActAsNlohmannDoes) {
  OrderedJson v;
  ordered_json n;
  v["zeta"] = 1;
  n["zeta"] = 1;
  v["alpha"]["inner"] = "x";  // null -> object twice
  n["alpha"]["inner"] = "x";
  v["zeta"] = OrderedJson::Array();  // a replaced value keeps its place
  n["zeta"] = ordered_json::array();
  v["zeta"].PushBack(2.5);
  n["zeta"].push_back(2.5);
  v["list"].PushBack("first");  // null -> array
  n["list"].push_back("first");
  EXPECT_EQ(DumpOf(v), n.dump());
  EXPECT_EQ(DumpOf(v), "{\"zeta\":[2.5],\"alpha\":{\"inner\":\"x\"},\"list\":[\"first\"]}");
  ASSERT_NE(v.Find("alpha"), nullptr);
  EXPECT_EQ(v.Find("missing"), nullptr);
  EXPECT_EQ(v["list"].Find("first"), nullptr);  // not an object
}

TEST(OrderedJsonTest, AMemberOfAnArrayIsABugOfTheCaller) {
  OrderedJson v = OrderedJson::Array();
  try {
    v["key"] = 1;
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
  }
  OrderedJson s("text");
  EXPECT_THROW(s.PushBack(1), Error);
}

TEST(OrderedJsonTest, CopiesAreDeepAndAValueCanTakeItsOwnChild) {
  OrderedJson v = OrderedJson::Object({{"a", OrderedJson::Object({{"b", "deep"}})}, {"c", 3}});
  OrderedJson copy = v;
  copy["a"]["b"] = "changed";
  EXPECT_EQ(DumpOf(v), "{\"a\":{\"b\":\"deep\"},\"c\":3}");
  v = v["a"];
  EXPECT_EQ(DumpOf(v), "{\"b\":\"deep\"}");
  v = std::move(v["b"]);
  EXPECT_EQ(DumpOf(v), "\"deep\"");
  OrderedJson moved = std::move(copy);
  EXPECT_TRUE(copy.is_null());  // NOLINT(bugprone-use-after-move): moved-from is null
  EXPECT_EQ(DumpOf(moved), "{\"a\":{\"b\":\"changed\"},\"c\":3}");
}

TEST(OrderedJsonTest, FromJsonGivesNlohmannsOrder) {
  nlohmann::json j = nlohmann::json::parse(
      R"({"b": [1, -2, 3.25, "s", null, true], "a": {"y": {}, "x": []}, "big": 18446744073709551615})");
  EXPECT_EQ(DumpOf(OrderedJson::FromJson(j)), j.dump());
  EXPECT_EQ(DumpOf(OrderedJson::FromJson(j)), ordered_json(j).dump());
}

TEST(OrderedJsonTest, ParseKeepsOrderAsOrderedJsonParseDoes) {
  for (
      const char* text :
      {R"({"z": 1, "a": {"q": [1, 2.5, -0.0, 1e300, "\u00e9\ud83d\ude00"], "b": null}, "m": false})",
       R"({"k": 1, "j": 2, "k": {"x": 1}, "i": 3, "j": [4]})",  // repeats: first place, last value
       R"([{"b": 1, "a": 2}, [], {}, "x", -9223372036854775808, 18446744073709551615])",
       "\xef\xbb\xbf{\"bom\": 1}", "  7  ", "\"s\"", "null"}) {
    std::optional<OrderedJson> parsed = OrderedJson::Parse(text, 10);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(DumpOf(*parsed), ordered_json::parse(text).dump()) << text;
  }
  EXPECT_EQ(DumpOf(*OrderedJson::Parse(R"({"k": 1, "j": 2, "k": 3})", 10)), R"({"k":3,"j":2})");
}

TEST(OrderedJsonTest, ParseRefusesBadTextAndDeepNestingAndSaysWhy) {
  std::string why;
  EXPECT_FALSE(OrderedJson::Parse("{\"a\": }", 10, &why).has_value());
  EXPECT_NE(why.find("syntax error"), std::string::npos) << why;
  EXPECT_FALSE(OrderedJson::Parse("[1] [2]", 10, &why).has_value());
  EXPECT_FALSE(OrderedJson::Parse("[1e400]", 10, &why).has_value());  // as nlohmann refuses it
  EXPECT_THROW((void)ordered_json::parse("[1e400]"), nlohmann::json::exception);
  EXPECT_FALSE(OrderedJson::Parse("\"\xff\"", 10, &why).has_value());
  EXPECT_TRUE(OrderedJson::Parse("[[[[1]]]]", 4).has_value());
  EXPECT_FALSE(OrderedJson::Parse("[[[[1]]]]", 3, &why).has_value());
  EXPECT_EQ(why, "JSON values nest more than 3 levels deep");
  // A hostile depth is refused while parsing, before anything recursive sees it.
  EXPECT_FALSE(OrderedJson::Parse(std::string(1000000, '['), 100, &why).has_value());
}

// Random values built both ways print the same.
void Grow(std::mt19937* rng, int depth, OrderedJson* v, ordered_json* n) {
  static const std::vector<std::string> kKeys = {"a", "b", "\xc3\xa9", "a", "\n", "key"};
  std::uniform_int_distribution<int> pick(0, depth > 3 ? 5 : 7);
  switch (pick(*rng)) {
    case 0:
      *v = OrderedJson();
      *n = nullptr;
      break;
    case 1: {
      bool b = (*rng)() % 2;
      *v = b;
      *n = b;
      break;
    }
    case 2: {
      int64_t i = (static_cast<int64_t>((*rng)()) << ((*rng)() % 31)) * ((*rng)() % 2 ? 1 : -1);
      *v = i;
      *n = i;
      break;
    }
    case 3: {
      double d =
          std::ldexp(static_cast<double>((*rng)()) - 2e9, static_cast<int>((*rng)() % 80) - 40);
      *v = d;
      *n = d;
      break;
    }
    case 4:
    case 5: {
      std::string s;
      for (uint32_t k = (*rng)() % 6; k > 0; --k) s += kKeys[(*rng)() % kKeys.size()];
      *v = s;
      *n = s;
      break;
    }
    case 6: {
      *v = OrderedJson::Array();
      *n = ordered_json::array();
      for (uint32_t k = (*rng)() % 4; k > 0; --k) {
        OrderedJson vi;
        ordered_json ni;
        Grow(rng, depth + 1, &vi, &ni);
        v->PushBack(std::move(vi));
        n->push_back(std::move(ni));
      }
      break;
    }
    default: {
      *v = OrderedJson::Object();
      *n = ordered_json::object();
      for (uint32_t k = (*rng)() % 5; k > 0; --k) {
        const std::string& key = kKeys[(*rng)() % kKeys.size()];
        Grow(rng, depth + 1, &(*v)[key], &(*n)[key]);
      }
    }
  }
}

TEST(OrderedJsonTest, RandomValuesPrintAndParseAsOrderedJsonDoes) {
  std::mt19937 rng(20261201);
  for (int round = 0; round < 3000; ++round) {
    OrderedJson v;
    ordered_json n;
    Grow(&rng, 0, &v, &n);
    std::string text = DumpOf(v);
    ASSERT_EQ(text, n.dump()) << round;
    std::optional<OrderedJson> back = OrderedJson::Parse(text, 20);
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(DumpOf(*back), text);
  }
}

}  // namespace
}  // namespace graphport
