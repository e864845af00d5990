// MegEngine's compatibility rewrite (PassConvertToCompatible, no_change_graph=False), run
// before every dump: Elemwise modes, ElemwiseMultiType comparisons and Where that older
// loaders lack are decomposed into older primitives exactly as MegEngine's converters build
// them (research megengine_dump_details.md §1.2-§1.5): constants of shape (1,) on the input's
// comp node, deduplicated; commutative inputs ordered by creation; then the operators are
// renumbered in the dumper's DFS order from the outputs.
#ifndef GRAPHPORT_MGE_DUMP_COMPAT_REWRITE_H_
#define GRAPHPORT_MGE_DUMP_COMPAT_REWRITE_H_

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
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
  // optimize_for_inference (OptGraph::Emit): MegEngine's operator id of each of graph.oprs.
  std::vector<uint64_t> opr_ids;
};

// An operator of class `key` (a key of the registry) with no params, edges or name yet,
// registered as a dump of `graph`'s format and magic registers it, at `priority`. The
// operators the compatibility rewrite and optimize_for_inference make start here.
Operator NewOperatorFor(const Graph& graph, const std::string& key, int32_t priority);

// Finishes the param table built in `fbb`, keeps its bytes in out->storage and returns it.
Param OwnParamIn(RewrittenGraph* out, uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                 flatbuffers::Offset<void> table);

// Fills `out` and returns true when `graph` has operators the target's converters replace
// or change; false (and `out` untouched) when the graph dumps as it is. FBS v1 converts
// Softmax, LayerNorm and Dropout too, and keeps CheckNonFinite with only its last output
// numbered (`compat_814`: its param written as Empty); GroupNorm and InstanceNorm convert for
// both targets (the converters: compat_*.cc). Throws Error(kUnsupported) naming an operator
// whose converter graphport does not implement (GroupNormBackward, InstanceNormBackward, for
// FBS v1) or whose input it cannot convert as MegEngine would (dtype other than Float32, a
// shape it cannot infer, a constant MegEngine would fold).
bool RewriteForCompat(const Graph& graph, DumpFormat target, bool compat_814, RewrittenGraph* out);

namespace compat {

// The Elemwise and ElemwiseMultiType modes older loaders lack, which the rewrite decomposes
// (compat_elemwise.cc); an FBS v1 writer refuses them where the rewrite did not run.
bool ElemwiseNeedsRewrite(uint32_t mode);
bool MultiTypeNeedsRewrite(uint32_t mode);

}  // namespace compat

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_COMPAT_REWRITE_H_
