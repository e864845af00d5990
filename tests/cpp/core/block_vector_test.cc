#include "core/block_vector.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace graphport {
namespace {

struct Entry {
  uint32_t offset = 0;
  uint32_t length = 0;
};

TEST(BlockVectorTest, KeepsElementsInOrderAcrossBlocks) {
  BlockVector<Entry, 3> entries;  // blocks of 8
  EXPECT_TRUE(entries.empty());
  for (uint32_t i = 0; i < 21; ++i) entries.push_back({i, i * 10});
  ASSERT_EQ(entries.size(), 21u);
  EXPECT_FALSE(entries.empty());
  for (uint32_t i = 0; i < 21; ++i) {
    EXPECT_EQ(entries[i].offset, i);
    EXPECT_EQ(entries[i].length, i * 10);
  }
  entries[9].length = 7;
  EXPECT_EQ(entries[9].length, 7u);
  EXPECT_EQ(entries[8].length, 80u);
}

TEST(BlockVectorTest, TakesWholeBlocksAndNeverMovesAnElement) {
  BlockVector<Entry, 3> entries;
  EXPECT_EQ(entries.capacity(), 0u);
  entries.push_back({1, 1});
  const Entry* first = &entries[0];
  EXPECT_EQ(entries.capacity(), 8u);
  for (uint32_t i = 1; i < 8; ++i) entries.push_back({i, i});
  EXPECT_EQ(entries.capacity(), 8u);
  entries.push_back({8, 8});
  EXPECT_EQ(entries.capacity(), 16u);
  for (uint32_t i = 9; i < 100; ++i) entries.push_back({i, i});
  EXPECT_EQ(entries.capacity(), 104u);  // 13 blocks of 8
  EXPECT_EQ(&entries[0], first);        // growth added blocks; it moved nothing
  EXPECT_EQ(entries[99].offset, 99u);
}

}  // namespace
}  // namespace graphport
