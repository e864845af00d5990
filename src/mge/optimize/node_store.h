// The nodes of an OptGraph, by index, in chunks that never move: a pass that re-makes every
// operator of a 100k-operator graph appends 100k nodes, and a growing vector moved all of them
// to fresh memory at each doubling (a fifth of such a pass's time). A node's address stays
// valid while others are appended.
#ifndef GRAPHPORT_MGE_OPTIMIZE_NODE_STORE_H_
#define GRAPHPORT_MGE_OPTIMIZE_NODE_STORE_H_

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace graphport::mge::opt {

template <typename T>
class NodeStore {
 public:
  size_t size() const { return size_; }
  T& operator[](size_t i) { return chunks_[i >> kChunkBits][i & kChunkMask]; }
  const T& operator[](size_t i) const { return chunks_[i >> kChunkBits][i & kChunkMask]; }
  // Room in the chunk table for `n` elements (the chunks come as they fill).
  void reserve(size_t n) { chunks_.reserve((n >> kChunkBits) + 1); }
  void push_back(T&& value) {
    if ((size_ & kChunkMask) == 0) chunks_.push_back(std::make_unique<T[]>(kChunkSize));
    chunks_.back()[size_ & kChunkMask] = std::move(value);
    ++size_;
  }

 private:
  static constexpr size_t kChunkBits = 10;
  static constexpr size_t kChunkSize = size_t{1} << kChunkBits;
  static constexpr size_t kChunkMask = kChunkSize - 1;
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_NODE_STORE_H_
