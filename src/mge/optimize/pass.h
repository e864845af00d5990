// What one optimize_for_inference pass reports: its MegEngine name, whether it changed the
// graph, and what it did in words (info.optimized lists these).
#ifndef GRAPHPORT_MGE_OPTIMIZE_PASS_H_
#define GRAPHPORT_MGE_OPTIMIZE_PASS_H_

#include <cstdint>
#include <string>
#include <utility>

#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

struct PassReport {
  std::string pass;
  bool changed = false;
  std::string summary;
  double ms = 0;  // how long it ran (the benchmark prints it; info does not)
};

// The report of a pass that did its one thing `count` times: "<count> <what>" when it did.
inline PassReport CountedReport(std::string pass, uint32_t count, const std::string& what) {
  PassReport report{std::move(pass), count != 0, ""};
  if (count != 0) report.summary = std::to_string(count) + " " + what;
  return report;
}

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_PASS_H_
