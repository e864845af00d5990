// Which checkpoint value each variable of a frozen graph takes.
//
// TF2: a captured resource is bound to a node of the SavedModel's object graph; the same node
// of the checkpoint's object graph names its checkpoint key (attribute VARIABLE_VALUE). The key
// is read, never rebuilt from names: TensorFlow chose it along the path it saved.
// TF1: the restore subgraph says it: Assign(variable, RestoreV2:i) takes tensor_names[i].
#ifndef GRAPHPORT_TF_FREEZE_VARIABLE_VALUES_H_
#define GRAPHPORT_TF_FREEZE_VARIABLE_VALUES_H_

#include <map>
#include <string>
#include <string_view>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/tensor.pb.h"
#include "tf/freeze/signature_graph.h"
#include "tf/freeze/variable_store.h"

namespace graphport::tf {

// Op names of the nodes that hold a variable in a graph.
bool IsVariableOp(std::string_view op);

// A variable of the frozen graph: its node, the checkpoint key and the value read.
struct VariableValue {
  std::string key;
  tensorflow::TensorProto value;
};

// The values of the TF2 function's captured resources, keyed by their Placeholder's name. A
// TrackableResource (a hash table) has none: it stays a resource input, which the table
// initializer (table_initializer.h) feeds. Throws Error(kUnsupported) for a capture that is
// no variable, constant or resource and Error(kNotFound) for one the checkpoint lacks.
std::map<std::string, VariableValue> CapturedValues(const SignatureGraph& signature,
                                                    const tensorflow::MetaGraphDef& meta_graph,
                                                    const tensorflow::GraphDef& top_graph,
                                                    VariableStore* store);

// The values of the variable nodes (IsVariableOp) of `graph`, keyed by node name, their keys
// found in `top_graph`'s restore subgraph (else the node's name, or a resource's shared_name).
std::map<std::string, VariableValue> GraphVariableValues(const tensorflow::GraphDef& graph,
                                                         const tensorflow::GraphDef& top_graph,
                                                         VariableStore* store);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_VARIABLE_VALUES_H_
