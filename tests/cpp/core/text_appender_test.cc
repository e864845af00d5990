// TextAppender: what it appends is what std::string::append would give, across its growth,
// after text already there, and when it is left by an exception.
#include "core/text_appender.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace graphport {
namespace {

TEST(TextAppenderTest, AppendsAfterWhatIsThereAcrossGrowth) {
  for (const std::string& start : {std::string(), std::string("head:"), std::string(70000, 'x')}) {
    std::string text = start, expected = start;
    {
      TextAppender out(&text);
      for (int i = 0; i < 50000; ++i) {
        const std::string piece = std::to_string(i * 7919) + (i % 3 == 0 ? "\"" : "");
        out.Put(piece);
        out.Put(',');
        expected += piece;
        expected += ',';
      }
      out.Put(std::string(100000, 'y'));  // one piece larger than anything before
      expected += std::string(100000, 'y');
    }
    EXPECT_EQ(text.size(), expected.size());
    EXPECT_EQ(text, expected);
  }
}

TEST(TextAppenderTest, ReserveTakesTheRoomAtOnceAndKeepsTheText) {
  std::string text = "start";
  {
    TextAppender out(&text);
    out.Put(std::string(5000, 'a'));
    out.Reserve((1 << 20) + 16);
    const size_t capacity = text.capacity();
    EXPECT_GE(capacity, out.size() + (1u << 20) + 16);
    for (int i = 0; i < (1 << 20) / 8; ++i) out.Put("01234567");
    EXPECT_EQ(text.capacity(), capacity);  // no regrowth within what was reserved
    out.Reserve(16);                       // already there: nothing moves
    EXPECT_EQ(text.capacity(), capacity);
    EXPECT_EQ(out.size(), 5 + 5000 + (1u << 20));
  }
  ASSERT_EQ(text.size(), 5 + 5000 + (1u << 20));
  EXPECT_EQ(text.substr(0, 6), "starta");
  EXPECT_EQ(text.substr(5005, 8), "01234567");
  EXPECT_EQ(text.substr(text.size() - 8), "01234567");
}

TEST(TextAppenderTest, NothingAppendedLeavesTheTextAsItWas) {
  std::string text = "kept";
  text.reserve(1000);
  { TextAppender out(&text); }
  EXPECT_EQ(text, "kept");
  {
    TextAppender out(&text);
    out.Put(std::string_view());
  }
  EXPECT_EQ(text, "kept");
}

TEST(TextAppenderTest, AnExceptionLeavesWhatWasAppendedBeforeIt) {
  std::string text = "a";
  try {
    TextAppender out(&text);
    out.Put('b');
    out.Put("cd");
    throw std::runtime_error("stop");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(text, "abcd");
}

}  // namespace
}  // namespace graphport
