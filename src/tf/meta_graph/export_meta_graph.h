// tf.train.export_meta_graph over a loaded model: builds the MetaGraphDef that TensorFlow
// would export from the same graph with the same options. The result lives on a scratch arena
// and borrows the model's tensors, so it costs memory for names and attrs, not for weights.
#ifndef GRAPHPORT_TF_META_GRAPH_EXPORT_META_GRAPH_H_
#define GRAPHPORT_TF_META_GRAPH_EXPORT_META_GRAPH_H_

#include <google/protobuf/arena.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "tensorflow/graph_debug_info.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tf/export.h"
#include "tf/meta_graph/export_nodes.h"
#include "tf/tf_model.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

struct MetaGraphExport {
  tensorflow::MetaGraphDef* meta_graph = nullptr;    // on the arena
  tensorflow::GraphDebugInfo* debug_info = nullptr;  // set when save_debug_info
  nlohmann::json info;
  // The exported nodes: nodes->Nodes() reads them one at a time, whichever form holds them.
  std::unique_ptr<ExportNodes> nodes;
  // Set when the nodes are written from the model's wire bytes (tf/wire_graph.h): then the
  // graph_def holds every field but the nodes, which TensorFlow's writer puts in front of them.
  const WireGraph* wire_nodes = nullptr;
  const NodePlan* node_plan = nullptr;  // what the writer does with each of them
};

// Throws graphport::Error: NOT_FOUND (an unknown collection key, a scope matching no node),
// INVALID_OPTION (a tensorflow_version that is not a version), TOO_LARGE (the 2 GiB rule).
MetaGraphExport BuildMetaGraph(const TfModel& model, const TfExportOptions& options,
                               google::protobuf::Arena* arena);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_EXPORT_META_GRAPH_H_
