// The table behind MegEngine's operator deduplication (opt_graph.h SameIndex): SameKey ->
// the var standing for it. Open addressing with linear probing, the hash's top half and the
// key's index in a table of 8-byte slots: a pass that re-makes 100k operators looks each one
// up, and a node-based hash map cost three cache misses per lookup (bucket, the node before,
// the node) where this costs about one, and one more for the key that matches.
#ifndef GRAPHPORT_MGE_OPTIMIZE_SAME_TABLE_H_
#define GRAPHPORT_MGE_OPTIMIZE_SAME_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "mge/optimize/var_ref.h"

namespace graphport::mge::opt {

// What makes two operators the same for MegEngine's deduplication: a key naming the class
// and params ("Elemwise:16"), and the inputs in order.
struct SameKey {
  std::string key;
  std::vector<VarRef> inputs;
  bool operator==(const SameKey& o) const { return key == o.key && inputs == o.inputs; }
};
struct SameKeyHash {
  size_t operator()(const SameKey& k) const;
};

class SameTable {
 public:
  // The value entered for `key`, or a new entry VarRef{} when there is none: {value, fresh}.
  // The pointer stays valid until the next TryEmplace or Reserve.
  std::pair<VarRef*, bool> TryEmplace(SameKey key);
  void Reserve(size_t keys);
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    SameKey key;
    VarRef value;
    size_t hash;
  };
  static constexpr uint32_t kFree = ~uint32_t{0};
  // Where entry `index` (hash `hash`) goes, or is: the slot of `key`, else a free one.
  uint64_t* Probe(const SameKey* key, size_t hash);

  // The entries in the order entered; the slots hold the upper 32 bits of each one's hash
  // and its index (kFree in the lower half: none), a power of two of them, at most half used.
  std::vector<Entry> entries_;
  std::vector<uint64_t> slots_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_SAME_TABLE_H_
