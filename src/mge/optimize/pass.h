// What one optimize_for_inference pass reports: its MegEngine name, whether it changed the
// graph, and what it did in words (info.optimized lists these).
#ifndef GRAPHPORT_MGE_OPTIMIZE_PASS_H_
#define GRAPHPORT_MGE_OPTIMIZE_PASS_H_

#include <string>

#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

struct PassReport {
  std::string pass;
  bool changed = false;
  std::string summary;
  double ms = 0;  // how long it ran (the benchmark prints it; info does not)
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_PASS_H_
