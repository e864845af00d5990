// Keeps what the outputs need: the nodes their data and control edges reach, and the library
// functions those nodes call (control flow's branches and bodies, transitively).
#ifndef GRAPHPORT_TF_FREEZE_PRUNE_H_
#define GRAPHPORT_TF_FREEZE_PRUNE_H_

#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

// `outputs` are graph tensors ("node", "node:1"). Returns the number of nodes dropped.
int PruneToOutputs(tensorflow::GraphDef* graph, const std::vector<std::string>& outputs);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_PRUNE_H_
