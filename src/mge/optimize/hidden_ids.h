// The ids MegEngine spends on an operator beyond the operator and the outputs a file numbers
// (one counter serves operators and vars: research megengine_optimize.md §2.4). Read off
// MegEngine v1.13.4 itself (scripts/megengine-reference/network_dump.cpp --trace):
// - a workspace output, volatile and never dumped, is a var and takes an id;
// - the first operator of the graph whose workspace size is bounded by the workspace limit
//   (the convolutions, matrix products, pooling, batch normalization: MegEngine's fast-run
//   classes and BatchNorm) makes WorkspaceLimitGetter's Host2DeviceCopy when it registers its
//   static inference, which takes two ids (the operator and its var), once per graph.
// These ids show in what MegEngine writes: graph outputs' original_id, the priorities that
// keepOprPriority keeps, and the default names of the operators a pass makes.
#ifndef GRAPHPORT_MGE_OPTIMIZE_HIDDEN_IDS_H_
#define GRAPHPORT_MGE_OPTIMIZE_HIDDEN_IDS_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "mge/opr_registry.h"

namespace graphport::mge::opt {

class HiddenIds {
 public:
  // The ids spent after operator `cls`'s numbered outputs, as it is added to the graph.
  uint32_t After(const OprClass* cls);
  // The workspace's id alone (1 or 0): all that an operator found in the graph already spends
  // beyond its numbered outputs (static inference, and so the limit, is never registered).
  static uint32_t Workspace(std::string_view key);

 private:
  struct ClassIds {
    bool workspace = false;        // a volatile workspace output
    bool workspace_limit = false;  // registers the graph's workspace limit
  };
  ClassIds Of(const OprClass* cls);

  // Per class seen so far: a graph has a few dozen classes, asked about 100k times.
  std::vector<std::pair<const OprClass*, ClassIds>> classes_;
  bool limit_registered_ = false;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_HIDDEN_IDS_H_
