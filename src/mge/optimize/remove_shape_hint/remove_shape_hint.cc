#include "mge/optimize/remove_shape_hint/remove_shape_hint.h"

#include "mge/optimize/rewriter.h"

namespace graphport::mge::opt {

PassReport RemoveShapeHint(OptGraph* g) {
  if (!g->Holds("ShapeHint")) return {"RemoveShapeHint", false, ""};  // nothing to rewrite
  Rewriter rw(g);
  uint32_t removed = 0;
  rw.ForEachOperator([&](uint32_t node) {
    if (g->Key(node) != "ShapeHint" || g->node(node).inputs.empty()) {
      rw.AutoReplaceOutputs(node);
      return;
    }
    rw.Replace({node, 0}, rw.Get(g->node(node).inputs[0]));
    ++removed;
  });
  rw.Apply();
  PassReport report{"RemoveShapeHint", removed != 0, ""};
  if (removed) report.summary = std::to_string(removed) + " ShapeHint removed";
  return report;
}

}  // namespace graphport::mge::opt
