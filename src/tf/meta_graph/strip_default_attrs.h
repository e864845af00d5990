// export_meta_graph(strip_default_attrs=True): removes every attr whose value equals its op's
// default, in top-level nodes and in function bodies, so older consumers can load the graph.
#ifndef GRAPHPORT_TF_META_GRAPH_STRIP_DEFAULT_ATTRS_H_
#define GRAPHPORT_TF_META_GRAPH_STRIP_DEFAULT_ATTRS_H_

#include <set>
#include <string>

#include "tensorflow/graph.pb.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

struct StripDefaultAttrsResult {
  int removed = 0;                    // attrs removed
  std::set<std::string> unknown_ops;  // ops no registry layer knows; their attrs are kept
};

// Nodes whose op is a library function name are skipped (functions have no OpDef defaults),
// as are attrs starting with "_" (never in an OpDef).
void StripDefaultAttrs(tensorflow::GraphDef* graph, const OpRegistry& registry,
                       StripDefaultAttrsResult* result);

// The same for one node (a graph's nodes written one at a time); `functions` names the
// library's functions.
void StripNodeDefaults(tensorflow::NodeDef* node, const std::set<std::string>& functions,
                       const OpRegistry& registry, StripDefaultAttrsResult* result);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_STRIP_DEFAULT_ATTRS_H_
