// Freezes one signature of a SavedModel (or MetaGraphDef) into a graph that runs on its own:
// the signature's function inlined with every call it makes, variables replaced by Consts
// holding their checkpoint values, pruned to what the signature's outputs need. This is what
// tfjs-converter's convert_variables_to_constants_v2 step does (research:
// savedmodel_freeze.md §3), without TensorFlow.
#ifndef GRAPHPORT_TF_FREEZE_FREEZE_H_
#define GRAPHPORT_TF_FREEZE_FREEZE_H_

#include <nlohmann/json.hpp>
#include <string>

#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/op_def.pb.h"
#include "tf/freeze/table_initializer.h"
#include "tf/freeze/variable_store.h"

namespace graphport::tf {

struct FreezeOptions {
  std::string signature = "serving_default";
  // Searched for OpDefs before the model's own stripped_op_list.
  const tensorflow::OpList* op_registry = nullptr;
  // Then tfjs-converter's graph optimizations (tf/optimize): identities removed, batch norms
  // folded, contractions fused as TF.js runs them.
  bool optimize_for_tfjs = false;
  // Reads the SavedModel's asset files, for tables filled from a text file; may be empty.
  AssetReader read_asset;
};

// True when `graph` still needs a freeze to run without TensorFlow's variables: it holds a
// variable op, a ReadVariableOp or a call of a library function.
bool NeedsFreeze(const tensorflow::GraphDef& graph);

// Writes into `out` a MetaGraphDef whose graph is the frozen signature, whose only signature
// is the frozen one (under its own key) and whose meta_info_def is the model's; savers,
// collections, assets and the object graph are gone with the variables. When the signature
// reads tables (TF2 TrackableResources), their initializer graph (table_initializer.h) is
// merged in as tf/initializer_graph.h holds it: its init ops in "table_initializer", the
// tables' resource inputs made Identities of its outputs. A TF1 graph's tables keep their
// init ops the same way, cut from the graph as tf1_table_initializer.h does. `store` may be null
// for a graph without variables. Returns the report (info.frozen). Throws Error: kNotFound
// (signature, variable value), kUnsupported (a capture that is no variable, a table whose
// initializer cannot be built, an op without an OpDef), kParseError (a damaged function,
// checkpoint or table text file).
nlohmann::json Freeze(const tensorflow::MetaGraphDef& meta_graph, const tensorflow::GraphDef& graph,
                      VariableStore* store, const FreezeOptions& options,
                      tensorflow::MetaGraphDef* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_FREEZE_H_
