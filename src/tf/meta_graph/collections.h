// Collections in an exported MetaGraphDef. TensorFlow serialises them from live Python
// objects; graphport starts from the already-encoded CollectionDefs and applies the same
// rules: items outside export_scope or excluded by clear_extraneous_savers are dropped, names
// are stripped of the scope, and proto-typed entries (VariableDef, SaverDef, QueueRunnerDef,
// CondContextDef, WhileContextDef) are decoded, scoped and encoded again.
#ifndef GRAPHPORT_TF_META_GRAPH_COLLECTIONS_H_
#define GRAPHPORT_TF_META_GRAPH_COLLECTIONS_H_

#include <set>
#include <string>

#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saver.pb.h"
#include "tf/meta_graph/scope.h"

namespace graphport::tf {

struct CollectionRules {
  const Scope* scope;
  const std::set<std::string>* excluded;  // node names removed by clear_extraneous_savers
};

// Fills `out` with `key`'s exported contents; false when nothing is left, and then the key is
// not written (TensorFlow's rule).
bool ExportCollection(const std::string& key, const tensorflow::CollectionDef& in,
                      const CollectionRules& rules, tensorflow::CollectionDef* out);

// TensorFlow's Saver.to_proto(export_scope): a copy with the three op and tensor names
// stripped, or false when any of them is outside the scope.
bool ScopeSaverDef(const tensorflow::SaverDef& in, const Scope& scope, tensorflow::SaverDef* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_COLLECTIONS_H_
