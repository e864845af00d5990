// EndpointOrder against the table it emulates: a std::unordered_set keyed by the ids
// themselves, as MegEngine's SubGraph keys its output operators (built with libstdc++, as this
// test is): filled, cleared and filled again, the same orders.
#include "mge/optimize/endpoint_order.h"

#include <gtest/gtest.h>

#include <unordered_set>
#include <vector>

namespace graphport::mge::opt {
namespace {

struct IdHash {
  size_t operator()(uint64_t id) const { return static_cast<size_t>(id); }
};

std::vector<uint64_t> Iterated(const std::unordered_set<uint64_t, IdHash>& set) {
  return {set.begin(), set.end()};
}

TEST(EndpointOrder, IteratesAsTheUnorderedSetOfOperatorIds) {
  const std::vector<std::vector<uint64_t>> fills = {
      {93, 88, 53},     // three outputs: 13 buckets
      {7, 20, 33, 46},  // one bucket for all (7 mod 13)
      {5, 5, 18, 2},    // a repeat, ignored
      {},               // cleared, nothing in
      {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 100, 200, 300},  // grows
      {300, 17, 4},  // fewer again: the grown table keeps its buckets
  };
  std::unordered_set<uint64_t, IdHash> set;
  EndpointOrder order;
  for (const std::vector<uint64_t>& ids : fills) {
    set.clear();
    for (uint64_t id : ids) set.insert(id);
    EXPECT_EQ(order.Refill(ids), Iterated(set)) << ::testing::PrintToString(ids);
  }
}

}  // namespace
}  // namespace graphport::mge::opt
