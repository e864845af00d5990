// Where the elements of a slice of a partitioned tensor go in the whole tensor (row-major),
// and whether a partition's slices cover it exactly once.
#ifndef GRAPHPORT_TF_CHECKPOINT_SLICE_LAYOUT_H_
#define GRAPHPORT_TF_CHECKPOINT_SLICE_LAYOUT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tf/checkpoint/checkpoint.h"

namespace graphport::tf::checkpoint {

// The shape of the slice `extents` of a tensor of `shape` (the same rank, checked before).
std::vector<int64_t> SliceShape(const std::vector<int64_t>& shape,
                                const std::vector<SliceExtent>& extents);

// "" when every slice has the tensor's rank and lies inside it, no two overlap, and together
// they cover it; otherwise what is wrong.
std::string CheckSliceCover(const std::vector<int64_t>& shape,
                            const std::vector<std::vector<SliceExtent>>& slices);

// Calls `run(whole_index, slice_index, count)` for each row-major run of `count` elements
// that sit side by side both in the slice and in the whole tensor, in slice order.
void ForEachSliceRun(
    const std::vector<int64_t>& shape, const std::vector<SliceExtent>& extents,
    const std::function<void(uint64_t whole_index, uint64_t slice_index, uint64_t count)>& run);

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_SLICE_LAYOUT_H_
