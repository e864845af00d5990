// export_meta_graph(clear_extraneous_savers=True): finds the save/restore subgraphs that do
// not belong to the SaverDef being exported (TensorFlow's _find_extraneous_saver_nodes).
#ifndef GRAPHPORT_TF_META_GRAPH_EXTRANEOUS_SAVERS_H_
#define GRAPHPORT_TF_META_GRAPH_EXTRANEOUS_SAVERS_H_

#include <set>
#include <string>

#include "tensorflow/graph.pb.h"
#include "tensorflow/saver.pb.h"
#include "tf/meta_graph/node_view.h"

namespace graphport::tf {

// A saver scope is the name scope of a save or restore op ("save/SaveV2" -> "save/"). Every
// saver scope other than the ones holding `saver_def`'s save tensor and restore op is
// extraneous, and so is every node under it. With no saver_def, every saver scope is.
//
// TensorFlow's op list names "SaveSlice", which does not exist, instead of the real V1 op
// "SaveSlices", so it never finds V1 slice savers; graphport lists SaveSlices
// (README: differences from TensorFlow).
std::set<std::string> FindExtraneousSaverNodes(const tensorflow::GraphDef& graph,
                                               const tensorflow::SaverDef* saver_def);

// The same over the nodes of a graph in either form (meta_graph/node_view.h).
std::set<std::string> FindExtraneousSaverNodes(const ForEachNode& for_each_node,
                                               const tensorflow::SaverDef* saver_def);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_EXTRANEOUS_SAVERS_H_
