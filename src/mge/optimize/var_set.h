// A set of vars of an OptGraph: a bit per output of each node (a pass marks a var of most of
// the nodes of a large graph, where a tree set allocated once per var), and a tree set for
// the rare output numbered 64 or more.
#ifndef GRAPHPORT_MGE_OPTIMIZE_VAR_SET_H_
#define GRAPHPORT_MGE_OPTIMIZE_VAR_SET_H_

#include <cstdint>
#include <set>
#include <vector>

#include "mge/optimize/var_ref.h"

namespace graphport::mge::opt {

class VarSet {
 public:
  // Adds `v`; false when it was there already.
  bool Insert(VarRef v) {
    if (v.output >= 64) return wide_.insert(v).second;
    if (v.node >= bits_.size()) bits_.resize(v.node + v.node / 2 + 1, 0);
    const uint64_t bit = uint64_t{1} << v.output;
    if (bits_[v.node] & bit) return false;
    bits_[v.node] |= bit;
    return true;
  }

 private:
  std::vector<uint64_t> bits_;
  std::set<VarRef> wide_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_VAR_SET_H_
