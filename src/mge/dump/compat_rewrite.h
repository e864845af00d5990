// MegEngine's compatibility rewrite (PassConvertToCompatible, no_change_graph=False), run
// before every dump: Elemwise modes, ElemwiseMultiType comparisons and Where that older
// loaders lack are decomposed into older primitives exactly as MegEngine's converters build
// them (research megengine_dump_details.md §1.2-§1.5): constants of shape (1,) on the input's
// comp node, deduplicated; commutative inputs ordered by creation; then the operators are
// renumbered in the dumper's DFS order from the outputs.
#ifndef GRAPHPORT_MGE_DUMP_COMPAT_REWRITE_H_
#define GRAPHPORT_MGE_DUMP_COMPAT_REWRITE_H_

#include <flatbuffers/flatbuffers.h>

#include <memory>
#include <string>
#include <vector>

#include "mge/mge_model.h"

namespace graphport::mge {

struct RewrittenGraph {
  Graph graph;  // its operators point into the input's bytes and into `storage`
  std::vector<std::unique_ptr<flatbuffers::DetachedBuffer>> storage;  // new param tables
  std::vector<std::unique_ptr<std::string>> values;                   // new constant values
  uint32_t rewritten = 0;                                             // operators replaced
  std::vector<std::string> notes;  // operators MegEngine would convert that are kept
};

// Fills `out` and returns true when `graph` has operators the target's converters replace;
// false (and `out` untouched) when the graph dumps as it is. Throws Error(kUnsupported)
// naming an operator that needs a converter graphport does not implement (FBS v1: Softmax,
// LayerNorm, Dropout, GroupNorm, InstanceNorm, CheckNonFinite) or whose dtypes it does not
// handle.
bool RewriteForCompat(const Graph& graph, DumpFormat target, RewrittenGraph* out);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_COMPAT_REWRITE_H_
