// proto::WireTextMemo hands back a map entry's text only for the very bytes, map field, indent
// and depth it was printed for (wire_text_test.cc prints through it, against libprotobuf).
#include "proto/wire_text_memo.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "test_util.h"

namespace graphport::proto {
namespace {

std::string_view Find(const WireTextMemo& memo, const std::string& s,
                      const WireTextMemo::Context& at) {
  return memo.Find(testing::Data(s), s.size(), WireTextMemo::Hash(testing::Data(s), s.size(), at),
                   at);
}

void Offer(WireTextMemo* memo, const std::string& s, const WireTextMemo::Context& at,
           const std::string& text) {
  memo->Offer(testing::Data(s), s.size(), WireTextMemo::Hash(testing::Data(s), s.size(), at), at,
              text);
}

const int kFieldA = 1, kFieldB = 2;  // two map fields, named by their addresses

TEST(WireTextMemoTest, RemembersOnTheSecondSightingOnly) {
  WireTextMemo memo;
  const std::string entry = "\n\x01T\x12\x02\x30\x01";  // attr T: DT_FLOAT
  const WireTextMemo::Context at{&kFieldA, 1, 1};
  const std::string text =
      "  attr {\n    key: \"T\"\n    value {\n      type: DT_FLOAT\n    }\n  }\n";
  EXPECT_TRUE(Find(memo, entry, at).empty());
  Offer(&memo, entry, at, text);
  EXPECT_TRUE(Find(memo, entry, at).empty());
  Offer(&memo, entry, at, text);
  std::string_view known = Find(memo, entry, at);
  EXPECT_EQ(known, text);
  // Whole-word copies read up to kPadding bytes past the text: after the last text kept they
  // are the buffer's zeroed padding (and under ASan, reading them is checked to be in bounds).
  EXPECT_EQ(std::string(known.data() + known.size(), WireTextMemo::kPadding),
            std::string(WireTextMemo::kPadding, '\0'));
}

TEST(WireTextMemoTest, TheFieldTheIndentAndTheDepthArePartOfTheKey) {
  WireTextMemo memo;
  const std::string entry = "\n\x01k\x12\x01v";
  const WireTextMemo::Context at{&kFieldA, 2, 1};
  Offer(&memo, entry, at, "a");
  Offer(&memo, entry, at, "a");
  ASSERT_EQ(Find(memo, entry, at), "a");
  EXPECT_TRUE(Find(memo, entry, {&kFieldB, 2, 1}).empty());
  EXPECT_TRUE(Find(memo, entry, {&kFieldA, 3, 1}).empty());
  EXPECT_TRUE(Find(memo, entry, {&kFieldA, 2, 2}).empty());
  // The same bytes remembered in a second place keep both texts apart.
  Offer(&memo, entry, {&kFieldA, 3, 2}, "b");
  Offer(&memo, entry, {&kFieldA, 3, 2}, "b");
  EXPECT_EQ(Find(memo, entry, at), "a");
  EXPECT_EQ(Find(memo, entry, {&kFieldA, 3, 2}), "b");
}

// Entries of every size the memo takes, each differing from the others in one byte: each is
// found with its own text, and bytes offered once or never are not found. Past its fixed
// sizes the memo keeps what it has and takes no more.
TEST(WireTextMemoTest, AnswersOnlyForTheBytesItRememberedAndStopsWhenFull) {
  std::mt19937 random(11);
  WireTextMemo memo;
  const WireTextMemo::Context at{&kFieldA, 1, 1};
  std::vector<std::string> kept, unseen;
  for (size_t size = 4; size <= 400; size += 7) {
    for (int k = 0; k < 30; ++k) {
      std::string s(size, 'a');
      s[random() % size] = static_cast<char>('b' + k);
      (k % 3 == 0 ? unseen : kept).push_back(s);
    }
  }
  for (const std::string& s : unseen) Offer(&memo, s, at, "once " + s);
  for (const std::string& s : kept) {
    Offer(&memo, s, at, "text of " + s);
    Offer(&memo, s, at, "text of " + s);
  }
  size_t found = 0;
  for (const std::string& s : kept) {
    std::string_view known = Find(memo, s, at);
    if (known.empty()) continue;  // offered after the memo was full
    EXPECT_EQ(known, "text of " + s);
    ++found;
  }
  EXPECT_GT(found, 100u);
  EXPECT_LT(found, kept.size());  // 128 KiB of entries: the later, larger ones did not fit
  for (const std::string& s : unseen) EXPECT_TRUE(Find(memo, s, at).empty()) << s.size();
}

}  // namespace
}  // namespace graphport::proto
