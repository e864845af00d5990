// A TF.js model's initializer graph (model.json's modelInitializer: the hash tables' init ops)
// in the TensorFlow graph, held as a TF1 SavedModel holds its tables: the initializer's nodes
// in the graph, the init ops in the "table_initializer" collection and one NoOp over them in
// "saved_model_main_op", which TensorFlow's SavedModel loader runs after loading. And the way
// back: the initializer graph that tfjs-converter would cut from such a graph.
#ifndef GRAPHPORT_TFJS_MODEL_INITIALIZER_H_
#define GRAPHPORT_TFJS_MODEL_INITIALIZER_H_

#include <cstdint>
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

// A TF2 model's table: the model's graph takes the table's handle as an input (a resource
// Placeholder, its signature input with a resourceId) that TF.js feeds from the initializer's
// output of the same resourceId.
struct ResourceLink {
  std::string placeholder;  // the model's node
  std::string tensor;       // the initializer's output, "node:index"
  int64_t resource_id = 0;
};

// The attr that marks the Identity a linked Placeholder became, holding the resourceId, so
// that a TF.js export makes it the Placeholder again.
inline constexpr char kResourceIdAttr[] = "_tfjs_resource_id";

struct MergedInitializer {
  int nodes = 0;   // nodes of the initializer graph
  int shared = 0;  // of them, identical to a node of the model's graph (its tables): kept once
  // Initializer nodes whose name a different node of the model's graph has: old -> new name.
  std::map<std::string, std::string> renamed;
  std::vector<std::string> init_ops;  // the "table_initializer" collection
  std::string main_op;                // the NoOp the loader runs
  // Placeholders that became an Identity of the initializer's output (see ResourceLink).
  std::vector<std::string> linked;
};

// Moves the nodes of `initializer` into meta_graph's graph and adds the collections. A node
// that has the same name and the same content as one of the graph is the same node (TF.js
// shares hash tables by node name); another one of the same name is renamed
// "initializer/<name>" (its inputs follow). The init ops are the initializer's nodes that no
// other of its nodes reads. Each link's Placeholder becomes an Identity of the initializer's
// output, so the graph reads the very table the init op fills, as TensorFlow needs (the
// caller drops it from the signature's inputs); a link whose ends are not there is ignored.
MergedInitializer MergeInitializer(const tensorflow::GraphDef& initializer,
                                   const std::vector<ResourceLink>& links,
                                   tensorflow::MetaGraphDef* meta_graph);

// The inverse, for a TF.js export: when `meta_graph` names init ops ("table_initializer", or
// else the inputs of the loader's init op from "saved_model_main_op", "legacy_init_op" or the
// "__saved_model_init_op" signature), *initializer gets every node of `graph` they need, and
// *main every other node plus those of them the rest of the graph reads (the tables). A NoOp
// init op is in neither. An Identity marked kResourceIdAttr that reads the initializer is a
// resource Placeholder again in *main, listed in *links. Returns false, touching nothing,
// when there are no init ops.
bool SplitInitializer(const tensorflow::GraphDef& graph, const tensorflow::MetaGraphDef* meta_graph,
                      tensorflow::GraphDef* main, tensorflow::GraphDef* initializer,
                      std::vector<ResourceLink>* links);

// False when `meta_graph` names no init op at all (it may be null), so that SplitInitializer
// would find none whatever the graph's nodes are: the export then need not parse them to ask.
bool NamesInitOps(const tensorflow::MetaGraphDef* meta_graph);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_MODEL_INITIALIZER_H_
