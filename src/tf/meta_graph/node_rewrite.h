// The per-node part of export_meta_graph when export_scope, clear_devices or
// clear_extraneous_savers is set (TensorFlow's _node_def): names and inputs stripped of the
// scope, inputs from outside it made unbound, colocation and frame names scoped. The node
// passes (clear_devices.h, ...) then edit the result.
#ifndef GRAPHPORT_TF_META_GRAPH_NODE_REWRITE_H_
#define GRAPHPORT_TF_META_GRAPH_NODE_REWRITE_H_

#include <string>
#include <vector>

#include "tensorflow/node_def.pb.h"
#include "tf/meta_graph/scope.h"

namespace graphport::tf {

// Whether `node` belongs in a scoped export: inside the scope, or an unbound-input
// placeholder of an earlier scoped export.
bool NodeInExport(const tensorflow::NodeDef& node, const Scope& scope);
bool NodeInExport(std::string_view node_name, const Scope& scope);

// Writes the rewritten `in` into `out`, which must be arena-allocated: the tensors, lists,
// shapes and functions in `in`'s attrs are not copied but lent to `out` (weights stay where
// they are), so `out`'s arena must die before `in`, and `out`'s attr values must not be
// changed in place (erasing an attr is fine). Inputs from outside the scope are renamed and
// appended to `unbound`.
void RewriteNode(const tensorflow::NodeDef& in, const Scope& scope, tensorflow::NodeDef* out,
                 std::vector<std::string>* unbound);

// A copy of `in` in `out` (arena-allocated) that lends `in`'s attr submessages, as
// RewriteNode does, instead of copying them.
void LendNode(const tensorflow::NodeDef& in, tensorflow::NodeDef* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_NODE_REWRITE_H_
