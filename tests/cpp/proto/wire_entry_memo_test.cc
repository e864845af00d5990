// proto::WireEntryMemo remembers a walk's result only for bytes met twice, and answers only
// for the very bytes it remembered: a wrong answer would let a checker vouch for bytes it never
// walked.
#include "proto/wire_entry_memo.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"

namespace graphport::proto {
namespace {

// A lookup; a miss must hand back the bytes' hash, which the caller's Offer is given.
const WireEntryMemo::Result* Find(WireEntryMemo& memo, const std::string& s) {
  uint64_t hash = 0;
  const WireEntryMemo::Result* known = memo.Find(testing::Data(s), s.size(), &hash);
  if (known == nullptr) {
    EXPECT_EQ(hash, WireEntryMemo::Hash(testing::Data(s), s.size())) << s;
  }
  return known;
}

bool Offer(WireEntryMemo* memo, const std::string& s, uint64_t parsed) {
  WireEntryMemo::Result result;
  result.parsed_bytes = parsed;
  result.depth = 3;
  result.first_extra = 7;
  result.extra_count = 2;
  return memo->Offer(testing::Data(s), s.size(), WireEntryMemo::Hash(testing::Data(s), s.size()),
                     result);
}

TEST(WireEntryMemoTest, RemembersOnTheSecondSightingOnly) {
  WireEntryMemo memo;
  const std::string entry = "\n\x01T\x12\x02\x30\x01";  // attr T: DT_FLOAT
  EXPECT_EQ(Find(memo, entry), nullptr);
  EXPECT_FALSE(Offer(&memo, entry, 40));
  EXPECT_EQ(Find(memo, entry), nullptr);
  EXPECT_TRUE(Offer(&memo, entry, 40));
  const WireEntryMemo::Result* known = Find(memo, entry);
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->parsed_bytes, 40u);
  EXPECT_EQ(known->depth, 3);
  EXPECT_TRUE(known->canonical);
  EXPECT_EQ(known->first_extra, 7u);  // what the caller keeps beside it comes back as given
  EXPECT_EQ(known->extra_count, 2u);
}

TEST(WireEntryMemoTest, SizesOutsideTheRangeAreNotForIt) {
  EXPECT_FALSE(WireEntryMemo::Fits(WireEntryMemo::kMinBytes - 1));
  EXPECT_TRUE(WireEntryMemo::Fits(WireEntryMemo::kMinBytes));
  EXPECT_TRUE(WireEntryMemo::Fits(WireEntryMemo::kMaxBytes));
  EXPECT_FALSE(WireEntryMemo::Fits(WireEntryMemo::kMaxBytes + 1));
}

// Many entries of every size the memo takes, each differing from the others in one byte
// anywhere (first, middle, last): each is found with its own result, and bytes never offered,
// or offered once, are not found. Many share their size and the words the first guess is keyed
// by (their one byte is elsewhere), so that guess names another entry and must not answer.
TEST(WireEntryMemoTest, AnswersOnlyForTheBytesItRemembered) {
  std::mt19937 random(7);
  WireEntryMemo memo;
  std::vector<std::string> kept, unseen;
  std::set<std::string> all;
  for (size_t size = WireEntryMemo::kMinBytes; size <= 40; ++size) {
    for (int k = 0; k < 60; ++k) {
      std::string s(size, 'a');
      s[random() % size] = static_cast<char>(random());
      if (!all.insert(s).second) continue;
      (k % 3 == 0 ? unseen : kept).push_back(s);
    }
  }
  for (size_t i = 0; i < kept.size(); ++i) {
    Offer(&memo, kept[i], i);
    Offer(&memo, kept[i], i);
  }
  for (size_t i = 0; i < unseen.size(); i += 2) Offer(&memo, unseen[i], 1);  // once only
  for (size_t i = 0; i < kept.size(); ++i) {
    const WireEntryMemo::Result* known = Find(memo, kept[i]);
    ASSERT_NE(known, nullptr) << i;
    EXPECT_EQ(known->parsed_bytes, i);
  }
  for (const std::string& s : unseen) EXPECT_EQ(Find(memo, s), nullptr);
}

// A graph with more distinct repeated entries than the memo keeps: it stops growing, and still
// answers rightly for what it kept.
TEST(WireEntryMemoTest, StopsGrowingAndStaysRight) {
  WireEntryMemo memo;
  std::vector<std::string> entries;
  for (int i = 0; i < 40000; ++i) entries.push_back("entry-" + std::to_string(i));
  std::vector<bool> kept;
  for (const std::string& s : entries) {
    Offer(&memo, s, s.size());
    kept.push_back(Offer(&memo, s, s.size()));  // true: the memo had room for it
  }
  size_t found = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string& s = entries[i];
    const WireEntryMemo::Result* known = Find(memo, s);
    EXPECT_EQ(known != nullptr, kept[i]) << s;
    if (known == nullptr) continue;
    ++found;
    EXPECT_EQ(known->parsed_bytes, s.size());
  }
  EXPECT_GT(found, 1000u);
  EXPECT_LT(found, entries.size());
}

}  // namespace
}  // namespace graphport::proto
