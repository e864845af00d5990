// The inputs of an OptNode, and the inputs a pass hands to OprMaker: up to three vars held in
// place, more on the heap. Nearly every operator has at most three inputs, and a pass that
// re-makes a 100k-operator graph made a std::vector for each (and another for each
// `{a, b}` it passed), a million small blocks to allocate and free per optimization.
#ifndef GRAPHPORT_MGE_OPTIMIZE_VAR_LIST_H_
#define GRAPHPORT_MGE_OPTIMIZE_VAR_LIST_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "mge/optimize/var_ref.h"

namespace graphport::mge::opt {

class VarList {
 public:
  using value_type = VarRef;
  using iterator = VarRef*;
  using const_iterator = const VarRef*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  VarList() = default;
  VarList(std::initializer_list<VarRef> vars) { Assign(vars.begin(), vars.size()); }
  VarList(const std::vector<VarRef>& vars) { Assign(vars.data(), vars.size()); }  // NOLINT
  template <typename It>
  VarList(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }
  VarList(const VarList& o) { Assign(o.data(), o.size()); }
  VarList(VarList&& o) noexcept { Take(&o); }
  VarList& operator=(const VarList& o) {
    if (this != &o) Assign(o.data(), o.size());
    return *this;
  }
  VarList& operator=(VarList&& o) noexcept {
    if (this != &o) {
      Free();
      Take(&o);
    }
    return *this;
  }
  VarList& operator=(const std::vector<VarRef>& vars) {
    Assign(vars.data(), vars.size());
    return *this;
  }
  VarList& operator=(std::initializer_list<VarRef> vars) {
    Assign(vars.begin(), vars.size());
    return *this;
  }
  ~VarList() { Free(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  VarRef* data() { return heap() ? u_.heap : u_.small; }
  const VarRef* data() const { return heap() ? u_.heap : u_.small; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
  VarRef& operator[](size_t i) { return data()[i]; }
  const VarRef& operator[](size_t i) const { return data()[i]; }
  const VarRef& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("VarList::at");
    return data()[i];
  }
  VarRef& front() { return data()[0]; }
  const VarRef& front() const { return data()[0]; }
  VarRef& back() { return data()[size_ - 1]; }
  const VarRef& back() const { return data()[size_ - 1]; }

  void reserve(size_t n) {
    if (n > capacity_) Grow(n);
  }
  void clear() { size_ = 0; }
  void push_back(VarRef v) {
    if (size_ == capacity_) Grow(2 * size_t{capacity_});
    data()[size_++] = v;
  }
  void pop_back() { --size_; }
  std::vector<VarRef> ToVector() const { return std::vector<VarRef>(begin(), end()); }

  friend bool operator==(const VarList& a, const VarList& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const VarList& a, const VarList& b) { return !(a == b); }

 private:
  static constexpr uint32_t kSmall = 3;
  bool heap() const { return capacity_ > kSmall; }
  void Assign(const VarRef* from, size_t n) {
    size_ = 0;
    reserve(n);
    std::copy(from, from + n, data());
    size_ = static_cast<uint32_t>(n);
  }
  void Grow(size_t n) {
    VarRef* grown = new VarRef[n];
    std::copy(begin(), end(), grown);
    Free();
    u_.heap = grown;
    capacity_ = static_cast<uint32_t>(n);
  }
  void Free() {
    if (heap()) delete[] u_.heap;
    capacity_ = kSmall;
  }
  // Leaves `o` empty, its heap block (if any) now this one's.
  void Take(VarList* o) {
    size_ = o->size_;
    capacity_ = o->capacity_;
    if (o->heap()) {
      u_.heap = o->u_.heap;
    } else {
      std::copy(o->u_.small, o->u_.small + o->size_, u_.small);
    }
    o->size_ = 0;
    o->capacity_ = kSmall;
  }

  union Storage {
    VarRef small[kSmall];
    VarRef* heap;
    Storage() {}
  } u_;
  uint32_t size_ = 0;
  uint32_t capacity_ = kSmall;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_VAR_LIST_H_
