// A TF.js model's initializer graph (model.json's modelInitializer: the hash tables' init ops)
// in the TensorFlow graph: a reader merges it in as tf/initializer_graph.h holds it, and an
// export cuts out the initializer graph that tfjs-converter would cut from such a graph.
#ifndef GRAPHPORT_TFJS_MODEL_INITIALIZER_H_
#define GRAPHPORT_TFJS_MODEL_INITIALIZER_H_

#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tf/initializer_graph.h"
#include "tf/meta_graph/graph_nodes.h"

namespace graphport::tfjs {

using tf::kInitializerNameAttr;
using tf::kMainOpCollection;
using tf::kResourceIdAttr;
using tf::kSignatureKeyAttr;
using tf::kTableInitializerCollection;
using tf::MergedInitializer;
using tf::MergeInitializer;
using tf::ResourceLink;

using tf::kInitOpSignatureKey;
using tf::kLegacyInitOpCollection;

// The inverse, for a TF.js export: when `meta_graph` names init ops ("table_initializer", or
// else the inputs of the loader's init op from "saved_model_main_op", "legacy_init_op" or the
// "__saved_model_init_op" signature), *initializer gets every node of `graph` they need, and
// *main every other node plus those of them the rest of the graph reads (the tables). A NoOp
// init op is in neither. An Identity marked kResourceIdAttr that reads the initializer is a
// resource Placeholder again in *main, listed in *links. Returns false, touching nothing,
// when there are no init ops; then the nodes are not read. `graph` is the export's nodes in
// whichever form holds them (tf/meta_graph/graph_nodes.h): each is read, then copied into
// *main or *initializer, so both are parsed graphs whatever `graph` was.
bool SplitInitializer(tf::GraphNodes* graph, const tensorflow::MetaGraphDef* meta_graph,
                      tensorflow::GraphDef* main, tensorflow::GraphDef* initializer,
                      std::vector<ResourceLink>* links);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_MODEL_INITIALIZER_H_
