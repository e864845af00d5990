// Replaces variables by constants, as TensorFlow's convert_variables_to_constants_v2 does: the
// node holding a variable (a captured resource's Placeholder, a VarHandleOp, a VariableV2)
// becomes a Const of the same name; following its data edges, a ReadVariableOp becomes an
// Identity of the value's dtype, a ResourceGather a GatherV2 and a ResourceGatherNd a GatherNd,
// and the Identities between them carry the value's dtype instead of a resource.
#ifndef GRAPHPORT_TF_FREEZE_VARIABLES_TO_CONSTS_H_
#define GRAPHPORT_TF_FREEZE_VARIABLES_TO_CONSTS_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tf/freeze/variable_values.h"

namespace graphport::tf {

struct VariablesToConstsResult {
  int variables = 0;  // nodes made Const
  int reads = 0;      // ReadVariableOps made Identity
  int gathers = 0;    // ResourceGather(Nd) made GatherV2 / GatherNd
  uint64_t value_bytes = 0;
  // Each Const made, with the checkpoint key its value came from ("" for a captured constant).
  std::vector<std::pair<std::string, std::string>> consts;
};

// `values` is keyed by node name; the values are moved into the graph.
VariablesToConstsResult VariablesToConsts(tensorflow::GraphDef* graph,
                                          std::map<std::string, VariableValue>* values);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_VARIABLES_TO_CONSTS_H_
