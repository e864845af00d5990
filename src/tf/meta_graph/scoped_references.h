// export_scope for what refers to tensors by name outside the graph: the signatures and the
// saver. A reference inside the scope is stripped of it like a node name; a signature or saver
// that refers to anything outside cannot be exported (the output would name tensors it does
// not hold), so it is dropped, and the export's info says what and why.
#ifndef GRAPHPORT_TF_META_GRAPH_SCOPED_REFERENCES_H_
#define GRAPHPORT_TF_META_GRAPH_SCOPED_REFERENCES_H_

#include <nlohmann/json.hpp>

#include "tensorflow/meta_graph.pb.h"
#include "tf/meta_graph/scope.h"

namespace graphport::tf {

// Rewrites `meta_graph`'s signature_def and saver_def for `scope` (non-empty). Returns the
// dropped ones: [{"what": "signature_def 'serving_default'", "reason": "..."}].
nlohmann::json ScopeSignaturesAndSaver(const Scope& scope, tensorflow::MetaGraphDef* meta_graph);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_SCOPED_REFERENCES_H_
