// The order MegEngine's passes visit a graph's output operators in. A pass walks the graph
// from SubGraph::m_endpoint_oprs, a std::unordered_set keyed by operator id
// (framework.h, StableOprHash), which every Rewriter::apply_inplace clears and fills again in
// the outputs' order: so a graph of several outputs is walked in the set's iteration order,
// which is libstdc++'s (the builds MegEngine ships): a prime number of buckets that only grows
// (13 to start with; clear() keeps them), each new element at the head of its bucket, a
// bucket met first put at the head of the whole list. This emulates that table.
#ifndef GRAPHPORT_MGE_OPTIMIZE_ENDPOINT_ORDER_H_
#define GRAPHPORT_MGE_OPTIMIZE_ENDPOINT_ORDER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace graphport::mge::opt {

class EndpointOrder {
 public:
  // Clears the set, inserts `ids` in their order (repeats ignored) and returns them in the
  // order the set iterates them.
  std::vector<uint64_t> Refill(const std::vector<uint64_t>& ids);

 private:
  // _Prime_rehash_policy: whether inserting one more into `elements` needs more buckets.
  bool NeedRehash(size_t elements, size_t* buckets);
  size_t NextBuckets(size_t n);

  size_t buckets_ = 1;      // a default-constructed set's
  size_t next_resize_ = 0;  // 0: nothing allocated yet
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_ENDPOINT_ORDER_H_
