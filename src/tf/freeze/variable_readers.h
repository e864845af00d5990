// Which signatures read each checkpoint variable, and through which node: found as the freeze
// finds a signature's variables (its captures through the object graphs, TF2; its variable
// nodes through the restore subgraph, TF1), with no value read. inspect() lists it beside
// each variable, so a person sees what a signature's export will carry.
#ifndef GRAPHPORT_TF_FREEZE_VARIABLE_READERS_H_
#define GRAPHPORT_TF_FREEZE_VARIABLE_READERS_H_

#include <map>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tf/freeze/variable_store.h"

namespace graphport::tf {

struct VariableReader {
  std::string signature;
  std::string node;  // the capture's Placeholder (TF2) or the variable node (TF1)
};

// Checkpoint key -> its readers, signature by signature in key order. A signature the freeze
// could not take (one that needs a feature not supported yet) is left out, not an error:
// exporting it says why.
std::map<std::string, std::vector<VariableReader>> VariableReaders(
    const tensorflow::MetaGraphDef& meta_graph, const tensorflow::GraphDef& graph,
    VariableStore* store);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_VARIABLE_READERS_H_
