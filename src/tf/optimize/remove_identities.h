// Identity and NoOp removal, as far as Grappler's pruning, in-place constant folding and
// dependency optimizer decide tfjs-converter's output (research: savedmodel_freeze.md §4.3):
// - an Identity chain that starts at a Const folds onto its last node: that node becomes the
//   Const, under its own name (which is how the converter's weights are named);
// - other Identity, Snapshot, StopGradient and single-input IdentityN nodes are bypassed: their
//   consumers read their input and inherit their control inputs;
// - NoOps go, their control inputs passed on to what they ordered;
// - control edges that order nothing in an inference graph go: those from a Const, and those
//   between two stateless nodes;
// - then everything the outputs do not reach (data or control) goes.
// Nodes named in `keep` (the graph's inputs and outputs) are never removed or renamed.
#ifndef GRAPHPORT_TF_OPTIMIZE_REMOVE_IDENTITIES_H_
#define GRAPHPORT_TF_OPTIMIZE_REMOVE_IDENTITIES_H_

#include <set>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

struct IdentityRemoval {
  int folded_into_consts = 0;  // Identities that became the Const they forwarded
  int bypassed = 0;            // Identity-like nodes removed
  int noops = 0;               // NoOps removed
  int control_edges = 0;       // control inputs dropped
  int pruned = 0;              // nodes no output reaches
};

// True for ops whose order matters in an inference graph (random draws, asserts and prints,
// variables, tables, stacks, queues, stateful calls and control flow).
bool IsStatefulOp(const std::string& op);

// `roots` are graph tensors ("node", "node:i") that must survive: the graph's outputs and
// inputs; the pruning keeps what they reach.
IdentityRemoval RemoveIdentities(tensorflow::GraphDef* graph,
                                 const std::vector<std::string>& roots);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_REMOVE_IDENTITIES_H_
