// The initializer graph of a TF2 SavedModel's tables, built as tfjs-converter builds it
// (research: savedmodel_freeze.md §4.2 step 5): a function that, for every TrackableResource of
// the object graph (breadth first from the root) whose _initialize captures the resource
// itself, calls its _create_resource ("StatefulPartitionedCall", "_2", ...) and its _initialize
// ("StatefulPartitionedCall_1", "_3", ...) and returns the new handles ("Identity",
// "Identity_1", ...), frozen as the signature is: calls inlined, pruned to the handles.
//
// Better than the converter: a table filled from an asset text file
// (InitializeTableFromTextFileV2, which TF.js cannot run and whose file it does not have) is
// filled from the file read now, in the SavedModel's assets/ folder: the node becomes a
// LookupTableImportV2 of Consts "<node>/keys" and "<node>/values".
#ifndef GRAPHPORT_TF_FREEZE_TABLE_INITIALIZER_H_
#define GRAPHPORT_TF_FREEZE_TABLE_INITIALIZER_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tf/freeze/text_file_initializers.h"
#include "tf/initializer_graph.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

// A resource the signature's function captures: its Placeholder and its object graph node.
struct ResourceCapture {
  std::string placeholder;
  int object_id = -1;
};

struct TableInitializer {
  tensorflow::GraphDef graph;       // empty when the model has no table to initialize
  std::vector<ResourceLink> links;  // each capture's Placeholder and the handle it is fed
  nlohmann::json report;            // info.frozen.tables
};

// The resource id of a link is the resource's object graph node id: one per resource, the same
// in both graphs, as TF's runtime handle id is for the converter. Throws Error(kUnsupported)
// naming the captured resource and why when its initializer cannot be built (no
// _create_resource/_initialize function, an _initialize that does not fill it, an argument
// that is no asset, constant or the resource itself, an asset file not given), and what the
// text file reading throws (kParseError naming the asset file, line and offset).
TableInitializer BuildTableInitializer(const tensorflow::MetaGraphDef& meta_graph,
                                       const tensorflow::GraphDef& graph,
                                       const std::vector<ResourceCapture>& captures,
                                       const OpRegistry& registry, const AssetReader& read_asset);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_TABLE_INITIALIZER_H_
