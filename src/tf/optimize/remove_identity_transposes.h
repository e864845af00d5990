// Grappler's arithmetic optimizer as far as the converter's output shows it for transposes:
// a Transpose whose permutation is a Const [0, 1, ..., n-1] changes nothing and goes, its
// consumers reading its input (and taking its control inputs). Keras's Dense on a 3-D input
// (Tensordot) leaves one such transpose per layer once its permutation is folded.
// Nodes named in `roots` (the graph's inputs and outputs) stay.
#ifndef GRAPHPORT_TF_OPTIMIZE_REMOVE_IDENTITY_TRANSPOSES_H_
#define GRAPHPORT_TF_OPTIMIZE_REMOVE_IDENTITY_TRANSPOSES_H_

#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

// Returns how many transposes went.
int RemoveIdentityTransposes(tensorflow::GraphDef* graph, const std::vector<std::string>& roots);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_REMOVE_IDENTITY_TRANSPOSES_H_
