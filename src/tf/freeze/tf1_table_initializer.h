// The initializer graph of a TF1 graph's tables, as tfjs-converter's TF1 path builds it
// (research: savedmodel_freeze.md §4.2 step 4, _freeze_saved_model_v1): the graph pruned to
// the init ops of the MetaGraphDef's "table_initializer" collection, frozen as the signature
// is. The tables stay in both graphs under one name: TF.js shares a hash table between the
// initializer and the model by node name, and TensorFlow runs one node.
//
// Better than the converter: an init op that fills no table the signature reads is left out
// (its ops would only burden the pre-flight and the runtime), and a table filled from an asset
// text file is filled from the file read now (text_file_initializers.h).
#ifndef GRAPHPORT_TF_FREEZE_TF1_TABLE_INITIALIZER_H_
#define GRAPHPORT_TF_FREEZE_TF1_TABLE_INITIALIZER_H_

#include <map>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tf/freeze/table_initializer.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

// The tables' init ops `graph` holds, each as "^node" (run for its effects: after inlining, a
// call's control outputs): those the "table_initializer" collection names or, without one,
// the table init ops (IsTableInitOp) that the loader's init op ("__saved_model_init_op",
// "saved_model_main_op", "legacy_init_op") waits on through NoOps.
std::vector<std::string> Tf1TableInitOps(const tensorflow::MetaGraphDef& meta_graph,
                                         const tensorflow::GraphDef& graph);

// The nodes that hold an asset's path, by node name: the asset's filename. From the
// MetaGraphDef's asset_file_def, else from its "saved_model_assets" collection (TF1's
// builder kept them there).
std::map<std::string, std::string> Tf1AssetNodes(const tensorflow::MetaGraphDef& meta_graph);

// `graph` is the signature's graph with its calls inlined, before the prune; `init_ops` are
// Tf1TableInitOps as the inlining rewrote them, `names` as the collection gave them (for the
// report); `frozen` the pruned signature graph. The initializer keeps the init ops that fill a
// table `frozen` holds. The report (info.frozen.tables): {tables: [{node, op, filledBy}],
// initOpsLeftOut: [{initOp, why}], tablesNotFilled, fromTextFiles, initializerNodes}. Throws
// what FillTextFileTables throws.
TableInitializer BuildTf1TableInitializer(tensorflow::GraphDef graph,
                                          const std::vector<std::string>& init_ops,
                                          const std::vector<std::string>& names,
                                          const tensorflow::GraphDef& frozen,
                                          const tensorflow::MetaGraphDef& meta_graph,
                                          const OpRegistry& registry,
                                          const AssetReader& read_asset);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_TF1_TABLE_INITIALIZER_H_
