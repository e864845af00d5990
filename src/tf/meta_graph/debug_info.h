// export_meta_graph(save_debug_info=True): the GraphDebugInfo (stack traces) of the exported
// nodes, written beside the MetaGraphDef.
#ifndef GRAPHPORT_TF_META_GRAPH_DEBUG_INFO_H_
#define GRAPHPORT_TF_META_GRAPH_DEBUG_INFO_H_

#include <set>
#include <string>

#include "tensorflow/graph_debug_info.pb.h"

namespace graphport::tf {

// Keeps the traces of the top-level nodes named in `node_names` (their names before scope
// stripping, which is how TensorFlow keys them: "name" or "name@"), in both the old
// (traces + files) and the new (name_to_trace_id + traces_by_id + frames_by_id) layouts.
// Returns how many nodes have a trace.
int FilterDebugInfo(const tensorflow::GraphDebugInfo& in, const std::set<std::string>& node_names,
                    tensorflow::GraphDebugInfo* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_DEBUG_INFO_H_
