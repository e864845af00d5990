// MegEngine's RelayoutPlaceholder (tensor_reformat.cpp), the operator the layout passes put
// where a var changes layout before they emit the relayout itself: constructing one takes an
// operator id, builds its relayout once (to tell its output shape: ids, and operators the graph
// keeps), then takes its var's id; the graph finds a placeholder of the same input and key
// again. A placeholder is never dumped: the pass that made it replaces it before it ends.
#ifndef GRAPHPORT_MGE_OPTIMIZE_RELAYOUT_PLACEHOLDERS_H_
#define GRAPHPORT_MGE_OPTIMIZE_RELAYOUT_PLACEHOLDERS_H_

#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "mge/optimize/relayout/reformat.h"

namespace graphport::mge::opt {

class RelayoutPlaceholders {
 public:
  struct Key {
    Reformat reformat;
    uint32_t pack;
  };

  explicit RelayoutPlaceholders(OptGraph* g) : g_(g) {}

  // RelayoutPlaceholder::make(x, key), its relayout built through `maker`. x's shape must be
  // known.
  VarRef Make(OprMaker* maker, VarRef x, Key key);
  // The key of node `node` if it is a placeholder made here.
  std::optional<Key> KeyOf(uint32_t node) const;
  // TensorReformatPass::translate_pass: each placeholder replaced by its relayout of its input
  // as it stands, the operators reading it made again.
  void Translate();

 private:
  OptGraph* g_;
  std::map<std::tuple<VarRef, Reformat, uint32_t>, VarRef> made_;
  std::unordered_map<uint32_t, Key> keys_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_RELAYOUT_PLACEHOLDERS_H_
