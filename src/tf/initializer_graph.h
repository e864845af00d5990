// A model's table initializers (TF.js's modelInitializer, or the tables a freeze builds) held in
// the TensorFlow graph as a TF1 SavedModel holds its tables: the initializer's nodes in the
// graph, the init ops in the "table_initializer" collection and one NoOp over them in
// "saved_model_main_op", which TensorFlow's SavedModel loader runs after loading. A table the
// graph reads through a resource input (TF2, resourceId in TF.js) becomes an Identity of the
// initializer's output, marked so that a TF.js export makes it the input again
// (tfjs/model_initializer.h cuts the initializer back out).
#ifndef GRAPHPORT_TF_INITIALIZER_GRAPH_H_
#define GRAPHPORT_TF_INITIALIZER_GRAPH_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"

namespace graphport::tf {

inline constexpr char kTableInitializerCollection[] = "table_initializer";
inline constexpr char kMainOpCollection[] = "saved_model_main_op";
inline constexpr char kLegacyInitOpCollection[] = "legacy_init_op";
inline constexpr char kInitOpSignatureKey[] = "__saved_model_init_op";

// The node names of collection `key`'s node_list; empty when there is none.
std::vector<std::string> CollectionNodeList(const tensorflow::MetaGraphDef& meta, const char* key);

// The init op TensorFlow's SavedModel loader runs, in the order it looks for one: the
// "__saved_model_init_op" signature's output, else the first node of "saved_model_main_op",
// else of "legacy_init_op"; "" when there is none. A node name ("^a" and "a:0" name "a").
std::string LoaderInitOp(const tensorflow::MetaGraphDef& meta);

// A TF2 model's table: the model's graph takes the table's handle as an input (a resource
// Placeholder, its signature input with a resourceId) that TF.js feeds from the initializer's
// output of the same resourceId.
struct ResourceLink {
  std::string placeholder;  // the model's node
  std::string tensor;       // the initializer's output, "node:index"
  int64_t resource_id = 0;
  // The input's key in the TF.js signature; empty: "<placeholder>:0", the key tfjs-converter
  // gives a resource input (no SavedModel signature key names one).
  std::string signature_key;
};

// The attr that marks the Identity a linked Placeholder became, holding the resourceId, so
// that a TF.js export makes it the Placeholder again.
inline constexpr char kResourceIdAttr[] = "_tfjs_resource_id";
// And its signature key, when the link has one.
inline constexpr char kSignatureKeyAttr[] = "_tfjs_signature_key";

// The attr that keeps an initializer node's own name when a node of the model's graph had it
// and the merge renamed it: the TF.js initializer graph is a graph of its own, so an export
// gives the name back (tfjs-converter's initializer returns "Identity:0", as models do).
inline constexpr char kInitializerNameAttr[] = "_tfjs_initializer_name";

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
// "initializer/<name>" (its inputs follow) and marked kInitializerNameAttr. The init ops are the
// initializer's nodes that no other of its nodes reads. Each link's Placeholder becomes an Identity
// of the initializer's output, so the graph reads the very table the init op fills, as TensorFlow
// needs (the caller drops it from the signature's inputs); a link whose ends are not there is
// ignored.
MergedInitializer MergeInitializer(const tensorflow::GraphDef& initializer,
                                   const std::vector<ResourceLink>& links,
                                   tensorflow::MetaGraphDef* meta_graph);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_INITIALIZER_GRAPH_H_
