// A sequence that grows by blocks of fixed size instead of by reallocation. An index built in
// one pass over an input of unknown length (a graph's nodes) needs no count first, and growing
// it never holds the old and the new storage at once: a std::vector's doubling takes, for a
// moment, up to three times what it keeps, and counting first meant reading the whole input
// twice (on the 200k-node graph in WebAssembly, the counting walk was a sixth of the load).
#ifndef GRAPHPORT_CORE_BLOCK_VECTOR_H_
#define GRAPHPORT_CORE_BLOCK_VECTOR_H_

#include <cstddef>
#include <vector>

namespace graphport {

template <typename T, size_t kBlockBits = 10>
class BlockVector {
 public:
  static constexpr size_t kBlockSize = size_t{1} << kBlockBits;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T& operator[](size_t i) { return blocks_[i >> kBlockBits][i & (kBlockSize - 1)]; }
  const T& operator[](size_t i) const { return blocks_[i >> kBlockBits][i & (kBlockSize - 1)]; }

  void push_back(const T& value) {
    if ((size_ & (kBlockSize - 1)) == 0) {
      blocks_.emplace_back();
      blocks_.back().reserve(kBlockSize);  // a block is allocated once, at its full size
    }
    blocks_.back().push_back(value);
    ++size_;
  }

  // What the elements take, blocks counted whole (for memory reports and their tests).
  size_t capacity() const { return blocks_.size() * kBlockSize; }

 private:
  std::vector<std::vector<T>> blocks_;
  size_t size_ = 0;
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_BLOCK_VECTOR_H_
