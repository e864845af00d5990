// The graph a freeze starts from: what one signature of a SavedModel (or MetaGraphDef)
// computes, with its inputs as Placeholders.
//
// TF2: the signature's outputs all come from one call of a library function (the signature's
// concrete function). As tfjs-converter does, that function's body becomes the graph: each
// user argument a Placeholder named after the argument, each captured resource (a variable)
// a Placeholder of DT_RESOURCE that the freeze turns into a Const, the outputs the body's
// return tensors ("Identity:0").
// TF1: the top-level graph itself, the signature's input nodes turned into Placeholders.
#ifndef GRAPHPORT_TF_FREEZE_SIGNATURE_GRAPH_H_
#define GRAPHPORT_TF_FREEZE_SIGNATURE_GRAPH_H_

#include <string>
#include <utility>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

struct SignatureGraph {
  tensorflow::GraphDef graph;  // nodes, library and versions
  std::string method_name;
  // Signature key -> tensor info; names are graph tensors ("x:0", "Identity:0"). Output
  // names are rewritten as the graph changes (inlining moves them).
  std::vector<std::pair<std::string, tensorflow::TensorInfo>> inputs;
  std::vector<std::pair<std::string, tensorflow::TensorInfo>> outputs;
  // A captured resource of the TF2 function: its Placeholder in `graph`, the object graph
  // node bound to it (-1 when the SavedModel has no object graph entry for it) and the
  // top-level node that fed it to the call.
  struct Capture {
    std::string node;
    int object_id = -1;
    std::string outer;
  };
  std::vector<Capture> captures;
  std::string function;  // the TF2 concrete function, "" for a TF1 graph
};

// Throws Error(kNotFound) for a signature the meta graph lacks (naming those it has) and
// Error(kUnsupported) for a signature whose inputs are not node outputs it can feed.
SignatureGraph BuildSignatureGraph(const tensorflow::MetaGraphDef& meta_graph,
                                   const tensorflow::GraphDef& graph, const std::string& key,
                                   const OpRegistry& registry);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_SIGNATURE_GRAPH_H_
