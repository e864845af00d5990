// Strings that are not UTF-8: libprotobuf 3.21's text parser takes a proto3 one, graphport
// refuses it where the string is, naming the field and the path to it (text_parse.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text_parse_reference.h"

namespace graphport::proto {
namespace {

using namespace text_parse_testing;  // NOLINT: the shared helpers of these tests

struct Utf8Case {
  const char* type;
  std::string text;
  int line;
  int column;
  std::string names;  // in the message: the field and the path to it
};

void PrintTo(const Utf8Case& c, std::ostream* os) { *os << c.type << " <<" << c.text << ">>"; }

class TextParseUtf8 : public ::testing::TestWithParam<Utf8Case> {};

// libprotobuf 3.21 takes these; graphport refuses them where the string is, naming the field.
TEST_P(TextParseUtf8, RefusedAtTheStringNamingTheField) {
  const Utf8Case& c = GetParam();
  const Outcome want = Reference(c.type, c.text);
  ASSERT_TRUE(want.ok) << "libprotobuf takes it";
  EXPECT_TRUE(want.bad_utf8) << "and then logs it";
  for (std::vector<int> chunks : {std::vector<int>{}, std::vector<int>{1}}) {
    Outcome got = Ours(c.type, c.text, chunks);
    ASSERT_FALSE(got.ok);
    EXPECT_EQ(got.line, c.line) << got;
    EXPECT_EQ(got.column, c.column) << got;
    EXPECT_NE(got.message.find(c.names), std::string::npos) << got;
    EXPECT_NE(got.message.find("not valid UTF-8"), std::string::npos) << got;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fields, TextParseUtf8,
    ::testing::Values(
        Utf8Case{"tensorflow.GraphDef", "node {\n  name: \"\\377\"\n}", 2, 9,
                 "'tensorflow.NodeDef.name' (node[0].name)"},
        Utf8Case{"tensorflow.GraphDef",
                 "node { attr { key: 'k' value { list { s: 'ok' } } } }\nnode { attr { key: "
                 "'\\377' } }",
                 2, 20, "(node[1].attr[#0].key)"},
        Utf8Case{"tensorflow.GraphDef", "node { attr { key: 'T' value { placeholder: '\\300' } } }",
                 1, 45, "(node[0].attr[\"T\"].value.placeholder)"},
        Utf8Case{"tensorflow.GraphDef", "node { attr { value { placeholder: '\\300' } key: 'T' } }",
                 1, 36, "(node[0].attr[#0].value.placeholder)"},
        Utf8Case{"tensorflow.GraphDef", "node { name: '\\ud800' }", 1, 14, "node[0].name"},
        Utf8Case{"tensorflow.MetaGraphDef",
                 "collection_def { key: 'c' value { any_list { value { "
                 "[type.googleapis.com/tensorflow.NodeDef] { name: '\\377' } } } } }",
                 1, 103, "(collection_def[\"c\"].value.any_list.value[0].value.name)"},
        Utf8Case{kEvery, "r_str: ['ok', '\\377']", 1, 15,
                 "'graphport.text_test.EveryField.r_str' (r_str[1])"},
        Utf8Case{kEvery, "by_int { key: -1 value: '\\377' }", 1, 25, "(by_int[-1].value)"},
        Utf8Case{kEvery, "str: '\\xc0\\xaf'", 1, 6, "(str)"},
        Utf8Case{kEvery, "str: 'a' '\\xed\\xa0\\x80'", 1, 6, "at byte 1 of the string"},
        Utf8Case{kEvery, "children {} children { child { str: '\\xff' } }", 1, 37,
                 "(children[1].child.str)"},
        Utf8Case{kEvery, AnyOf(kEveryUrl, "{ str: '\\377' }"), 1, 67, "(any.value.str)"}));

TEST(TextParseUtf8Rules, SplitSequencesAreOneStringAndBytesAreFree) {
  // Adjacent literals make one value: a sequence split across two of them is valid.
  EXPECT_TRUE(Ours("tensorflow.GraphDef", "node { name: '\\303' '\\251' }").ok);
  EXPECT_TRUE(Ours(kEvery, "by: '\\377' r_by: '\\300'").ok);
  EXPECT_TRUE(Ours(kLegacy, "s: '\\377'").ok) << "proto2 strings are not held to UTF-8";
}

TEST(TextParseUtf8Rules, AnyOtherErrorComesFirst) {
  // libprotobuf refuses these for another reason, later in the text: that error is reported.
  for (const char* text : {"node { name: '\\377' } node { name: 'a' op: }",
                           "node { name: '\\377' }\n}", "node { name: '\\377' } 1x"}) {
    const Outcome want = Reference("tensorflow.GraphDef", text);
    ASSERT_FALSE(want.ok) << text;
    EXPECT_TRUE(Same(want, Ours("tensorflow.GraphDef", text))) << text;
  }
}

}  // namespace
}  // namespace graphport::proto
