#include "tf/checkpoint/slice_layout.h"

namespace graphport::tf::checkpoint {
namespace {

int64_t StartOf(const SliceExtent& e) { return e.length < 0 ? 0 : e.start; }
int64_t LengthOf(const SliceExtent& e, int64_t dim) { return e.length < 0 ? dim : e.length; }

}  // namespace

std::vector<int64_t> SliceShape(const std::vector<int64_t>& shape,
                                const std::vector<SliceExtent>& extents) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < extents.size() && d < shape.size(); ++d) {
    out.push_back(LengthOf(extents[d], shape[d]));
  }
  return out;
}

std::string CheckSliceCover(const std::vector<int64_t>& shape,
                            const std::vector<std::vector<SliceExtent>>& slices) {
  // Element counts fit int64: the whole shape's did, and each slice lies inside it.
  int64_t total = 1;
  for (int64_t d : shape) total *= d;
  int64_t covered = 0;
  for (size_t i = 0; i < slices.size(); ++i) {
    const auto& extents = slices[i];
    if (extents.size() != shape.size()) {
      return "has a slice of rank " + std::to_string(extents.size()) + " for a tensor of rank " +
             std::to_string(shape.size());
    }
    int64_t volume = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      const SliceExtent& e = extents[d];
      if (e.length < -1 ||
          (e.length >= 0 && (e.start < 0 || e.start > shape[d] || e.length > shape[d] - e.start))) {
        return "has a slice [" + std::to_string(e.start) + ", +" + std::to_string(e.length) +
               ") outside dimension " + std::to_string(d) + " of size " + std::to_string(shape[d]);
      }
      volume *= LengthOf(e, shape[d]);
    }
    // Two boxes overlap when their ranges overlap in every dimension.
    for (size_t j = 0; j < i && volume > 0; ++j) {
      bool overlap = true;
      for (size_t d = 0; d < shape.size() && overlap; ++d) {
        int64_t a0 = StartOf(extents[d]), a1 = a0 + LengthOf(extents[d], shape[d]);
        int64_t b0 = StartOf(slices[j][d]), b1 = b0 + LengthOf(slices[j][d], shape[d]);
        overlap = a0 < b1 && b0 < a1;
      }
      if (overlap) return "has two slices that overlap";
    }
    covered += volume;
  }
  // Disjoint boxes inside the tensor cover it when their volumes add up to it.
  if (covered != total) {
    return "has slices covering " + std::to_string(covered) + " of its " + std::to_string(total) +
           " elements";
  }
  return "";
}

void ForEachSliceRun(
    const std::vector<int64_t>& shape, const std::vector<SliceExtent>& extents,
    const std::function<void(uint64_t whole_index, uint64_t slice_index, uint64_t count)>& run) {
  size_t rank = shape.size();
  std::vector<int64_t> lengths = SliceShape(shape, extents);
  for (int64_t length : lengths) {
    if (length == 0) return;
  }
  if (rank == 0) {
    run(0, 0, 1);
    return;
  }
  // Row-major strides of the whole tensor.
  std::vector<uint64_t> stride(rank, 1);
  for (size_t d = rank - 1; d > 0; --d) stride[d - 1] = stride[d] * shape[d];
  uint64_t inner = static_cast<uint64_t>(lengths[rank - 1]);
  std::vector<int64_t> at(rank, 0);  // position inside the slice, last dimension unused
  uint64_t slice_index = 0;
  for (;;) {
    uint64_t whole = 0;
    for (size_t d = 0; d < rank; ++d) {
      whole += static_cast<uint64_t>(StartOf(extents[d]) + at[d]) * stride[d];
    }
    run(whole, slice_index, inner);
    slice_index += inner;
    // The next row: count up the outer dimensions, last first.
    size_t d = rank - 1;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++at[d] < lengths[d]) break;
      at[d] = 0;
    }
  }
}

}  // namespace graphport::tf::checkpoint
