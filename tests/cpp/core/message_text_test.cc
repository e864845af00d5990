#include "core/message_text.h"

#include <gtest/gtest.h>

#include "core/utf8.h"

namespace graphport {
namespace {

TEST(MessageTextTest, ShortTextIsQuotedWhole) { EXPECT_EQ(CapForMessage("tower_0"), "tower_0"); }

TEST(MessageTextTest, LongTextIsCutAndSaysHowMuchWasLeftOut) {
  std::string capped = CapForMessage(std::string(100000, 'a'));
  EXPECT_EQ(capped, std::string(kMaxQuotedBytes, 'a') + "... (99800 more bytes)");
}

TEST(MessageTextTest, CutNeverSplitsAUtf8Character) {
  // 'é' is two bytes; at an odd cap the cut backs up to the character's start.
  std::string text;
  for (int i = 0; i < 300; ++i) text += "\xc3\xa9";
  std::string capped = CapForMessage(text, 5);
  EXPECT_EQ(capped, "\xc3\xa9\xc3\xa9... (596 more bytes)");
  EXPECT_TRUE(IsValidUtf8(capped));
}

TEST(MessageTextTest, LongListsSayHowManyWereLeftOut) {
  std::vector<std::string> items;
  for (int i = 0; i < 10000; ++i) items.push_back("t" + std::to_string(i));
  std::string joined = JoinForMessage(items, ", ");
  EXPECT_EQ(joined.rfind("t0, t1, ", 0), 0u) << joined;
  EXPECT_NE(joined.find("t9, ... and 9990 more"), std::string::npos) << joined;
  EXPECT_EQ(JoinForMessage({"a", "b"}, "; "), "a; b");
}

TEST(Utf8Test, AcceptsWellFormedText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));  // é € 😀
  EXPECT_TRUE(IsValidUtf8("\xf4\x8f\xbf\xbf"));                      // U+10FFFF
}

TEST(Utf8Test, RefusesMalformedTextAtItsFirstBadByte) {
  struct Case {
    std::string text;
    size_t offset;
  };
  for (const Case& c : std::vector<Case>{
           {"\xff", 0},
           {"ab\x80", 2},            // a lone continuation byte
           {"a\xc0\xaf", 1},         // overlong '/'
           {"\xe0\x80\xaf", 0},      // overlong, three bytes
           {"\xed\xa0\x80", 0},      // a surrogate
           {"\xf4\x90\x80\x80", 0},  // past U+10FFFF
           {"ok\xe2\x82", 2},        // cut inside a character
           {std::string("x\0\xc3", 3), 2},
       }) {
    size_t offset = 99;
    EXPECT_FALSE(IsValidUtf8(c.text, &offset)) << c.text;
    EXPECT_EQ(offset, c.offset) << c.text;
  }
}

TEST(MessageTextTest, PathStepsJoinWithTheirMiddleCut) {
  EXPECT_EQ(JoinPathSteps({}), "");
  EXPECT_EQ(JoinPathSteps({"node[3]", "attr[\"T\"]", "s"}), "node[3].attr[\"T\"].s");
  std::vector<std::string> steps;
  for (int i = 0; i < 12; ++i) steps.push_back("s" + std::to_string(i));
  EXPECT_EQ(JoinPathSteps(steps), "s0.s1.s2.s3.s4.s5.s6.s7.s8.s9.s10.s11") << "12 are shown";
  steps.push_back("s12");
  EXPECT_EQ(JoinPathSteps(steps), "s0.s1.s2.s3.s4.s5.(1 more).s7.s8.s9.s10.s11.s12");
  EXPECT_EQ(JoinPathSteps(steps, 2), "s0.s1.(9 more).s11.s12");
}

}  // namespace
}  // namespace graphport
