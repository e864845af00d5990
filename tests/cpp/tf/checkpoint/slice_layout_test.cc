#include "tf/checkpoint/slice_layout.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

namespace graphport::tf::checkpoint {
namespace {

using Runs = std::vector<std::tuple<uint64_t, uint64_t, uint64_t>>;

Runs RunsOf(const std::vector<int64_t>& shape, const std::vector<SliceExtent>& extents) {
  Runs out;
  ForEachSliceRun(shape, extents, [&](uint64_t whole, uint64_t slice, uint64_t count) {
    out.emplace_back(whole, slice, count);
  });
  return out;
}

TEST(SliceLayoutTest, RowsAreOneRunEach) {
  // Rows 1-2 of a 4 x 3 tensor.
  EXPECT_EQ(RunsOf({4, 3}, {{1, 2}, {0, -1}}), (Runs{{3, 0, 3}, {6, 3, 3}}));
}

TEST(SliceLayoutTest, ColumnsOfAThreeDimensionalTensor) {
  // [2, 2, 4], last dimension 1-2: four runs of 2.
  EXPECT_EQ(RunsOf({2, 2, 4}, {{0, -1}, {0, -1}, {1, 2}}),
            (Runs{{1, 0, 2}, {5, 2, 2}, {9, 4, 2}, {13, 6, 2}}));
  EXPECT_EQ(SliceShape({2, 2, 4}, {{0, -1}, {0, -1}, {1, 2}}), (std::vector<int64_t>{2, 2, 2}));
}

TEST(SliceLayoutTest, EmptySlicesHaveNoRuns) {
  EXPECT_TRUE(RunsOf({4, 0}, {{0, 2}, {0, -1}}).empty());
}

TEST(SliceLayoutTest, CoverChecks) {
  EXPECT_EQ(CheckSliceCover({4, 3}, {{{0, 1}, {0, -1}}, {{1, 3}, {0, -1}}}), "");
  EXPECT_EQ(CheckSliceCover({4}, {{{0, 2}}}), "has slices covering 2 of its 4 elements");
  EXPECT_EQ(CheckSliceCover({4}, {{{0, 3}}, {{2, 2}}}), "has two slices that overlap");
  EXPECT_EQ(CheckSliceCover({4}, {{{3, 2}}}), "has a slice [3, +2) outside dimension 0 of size 4");
  EXPECT_EQ(CheckSliceCover({4}, {{{-1, 2}}}),
            "has a slice [-1, +2) outside dimension 0 of size 4");
  EXPECT_EQ(CheckSliceCover({4, 3}, {{{0, 4}}}), "has a slice of rank 1 for a tensor of rank 2");
  // Volumes that add up but overlap and leave a gap are still refused.
  EXPECT_EQ(CheckSliceCover({2, 2}, {{{0, 1}, {0, -1}}, {{0, 1}, {0, -1}}}),
            "has two slices that overlap");
}

}  // namespace
}  // namespace graphport::tf::checkpoint
