// A TF.js model's initializer graph (model.json's modelInitializer: the hash tables' init ops)
// in the TensorFlow graph, held as a TF1 SavedModel holds its tables: the initializer's nodes
// in the graph, the init ops in the "table_initializer" collection and one NoOp over them in
// "saved_model_main_op", which TensorFlow's SavedModel loader runs after loading. And the way
// back: the initializer graph that tfjs-converter would cut from such a graph.
#ifndef GRAPHPORT_TFJS_MODEL_INITIALIZER_H_
#define GRAPHPORT_TFJS_MODEL_INITIALIZER_H_

#include <map>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"

namespace graphport::tfjs {

inline constexpr char kTableInitializerCollection[] = "table_initializer";
inline constexpr char kMainOpCollection[] = "saved_model_main_op";
inline constexpr char kLegacyInitOpCollection[] = "legacy_init_op";
inline constexpr char kInitOpSignatureKey[] = "__saved_model_init_op";

struct MergedInitializer {
  int nodes = 0;   // nodes of the initializer graph
  int shared = 0;  // of them, identical to a node of the model's graph (its tables): kept once
  // Initializer nodes whose name a different node of the model's graph has: old -> new name.
  std::map<std::string, std::string> renamed;
  std::vector<std::string> init_ops;  // the "table_initializer" collection
  std::string main_op;                // the NoOp the loader runs
};

// Moves the nodes of `initializer` into meta_graph's graph and adds the collections. A node
// that has the same name and the same content as one of the graph is the same node (TF.js
// shares hash tables by node name); another one of the same name is renamed
// "initializer/<name>" (its inputs follow). The init ops are the initializer's nodes that no
// other of its nodes reads.
MergedInitializer MergeInitializer(const tensorflow::GraphDef& initializer,
                                   tensorflow::MetaGraphDef* meta_graph);

// The inverse, for a TF.js export: when `meta_graph` names init ops ("table_initializer", or
// else the inputs of the loader's init op from "saved_model_main_op", "legacy_init_op" or the
// "__saved_model_init_op" signature), *initializer gets every node of `graph` they need, and
// *main every other node plus those of them the rest of the graph reads (the tables). A NoOp
// init op is in neither. Returns false, touching nothing, when there are no init ops.
bool SplitInitializer(const tensorflow::GraphDef& graph, const tensorflow::MetaGraphDef* meta_graph,
                      tensorflow::GraphDef* main, tensorflow::GraphDef* initializer);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_MODEL_INITIALIZER_H_
