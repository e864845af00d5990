#include "mge/optimize/remove_non_computing/remove_non_computing.h"

#include "mge/optimize/rewriter.h"

namespace graphport::mge::opt {

PassReport RemoveNonComputingOpr(OptGraph* g) {
  Rewriter rw(g);
  uint32_t removed = 0;
  rw.ForEachOperator([&](uint32_t node) {
    const std::string_view key = g->Key(node);
    const bool bypass = key == "Identity" || key == "MarkNoBroadcastElemwise" || key == "SetGrad";
    if (!bypass || g->node(node).inputs.empty()) {
      rw.AutoReplaceOutputs(node);
      return;
    }
    rw.Replace({node, 0}, rw.Get(g->node(node).inputs[0]));
    ++removed;
  });
  rw.Apply();
  PassReport report{"RemoveNonComputingOpr", removed != 0, ""};
  if (removed) report.summary = std::to_string(removed) + " operators removed";
  return report;
}

}  // namespace graphport::mge::opt
