// The nodes of the graph an export writes, whichever form holds them: parsed messages (the
// model's graph, or a graph given as an option: parsed_export_nodes.h) or the loaded bytes
// (tf/wire_graph.h: wire_export_nodes.h). BuildMetaGraph orders the node passes and builds the
// rest of the graph around these calls without asking which form it holds; each form applies
// them in its own way: parsed nodes are copied into the exported GraphDef and edited there,
// nodes held as bytes stay where they are and are written as a plan says. A writer that walks
// the nodes one at a time (the TF.js writer, a pre-flight) reads them through Nodes()
// (graph_nodes.h), which each form makes from what it holds.
#ifndef GRAPHPORT_TF_META_GRAPH_EXPORT_NODES_H_
#define GRAPHPORT_TF_META_GRAPH_EXPORT_NODES_H_

#include <google/protobuf/arena.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/op_def.pb.h"
#include "tf/export.h"
#include "tf/meta_graph/graph_nodes.h"
#include "tf/meta_graph/node_view.h"
#include "tf/meta_graph/op_registry.h"
#include "tf/tf_model.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

// What an export learns of the nodes as it writes them.
struct ExportedNodes {
  size_t count = 0;             // the nodes exported
  std::set<std::string> names;  // with want_names: their names as loaded
  // With list_unbound: every "$unbound_inputs_..." input of the exported nodes, made by this
  // export or an earlier one, in node order.
  std::vector<std::string> unbound;
  int attrs_removed = 0;  // by strip_default_attrs as the nodes are written (held as bytes)
};

class ExportNodes {
 public:
  virtual ~ExportNodes() = default;

  // Every field of the graph but, held as bytes, its nodes and a library kept as bytes.
  virtual const tensorflow::GraphDef& rest() const = 0;
  virtual size_t loaded_count() const = 0;
  // Each node as loaded, for a pass that reads them all before any is written.
  virtual void ForEach(const NodeVisitor& visit) const = 0;
  // The names of the graph's library functions.
  virtual std::set<std::string, std::less<>> FunctionNames() const = 0;

  // The library in `graph` (made by the export): lent, or copied when the export changes it.
  virtual void AddLibrary(bool copy, tensorflow::GraphDef* graph,
                          google::protobuf::Arena* arena) const = 0;
  // Exports the nodes `passes` keep, edited by them in order and then by `strip` (or null).
  // `graph` is the GraphDef the export made for them; null when the loaded graph is lent
  // whole (no pass). Parsed nodes are copied into `graph`, to be stripped there with its
  // library (StripParsedGraph, after the op list is built as TensorFlow builds it); nodes
  // held as bytes are stripped as they are written.
  virtual void Write(const NodePasses& passes, const std::shared_ptr<const NodePass>& strip,
                     bool list_unbound, bool want_names, tensorflow::GraphDef* graph,
                     ExportedNodes* exported) = 0;
  // `graph` (or null) is what the export writes; its nodes and library are as Write and
  // AddLibrary left them.
  virtual void Attach(const tensorflow::GraphDef* graph) = 0;
  // The nodes a writer writes, one at a time, with the graph's other fields: before Write,
  // every node as loaded (rest()); after Attach, the attached graph's (none when it was
  // null). Valid while this object lives.
  virtual std::unique_ptr<GraphNodes> Nodes() const = 0;
  // The attached graph's size as written, nodes held as bytes included.
  virtual uint64_t WrittenSize(const tensorflow::GraphDef& graph) const = 0;
  // The stripped op list of the exported nodes and the library functions they call.
  virtual void BuildOpList(const tensorflow::GraphDef& graph, const OpRegistry& registry,
                           google::protobuf::Arena* arena, tensorflow::OpList* ops,
                           std::vector<std::string>* unregistered) const = 0;
  // What TensorFlow's writer needs beside the graph: for nodes held as bytes, those and their
  // plan (valid while this object lives); else null.
  virtual void HeldAsBytes(const WireGraph** wire_nodes, const NodePlan** plan) const = 0;
};

// The nodes of the graph `model`'s export with `options` writes: a graph_def given, or the
// model's, held as bytes when the export can write them node by node (WireNodesFor). With no
// pass, Nodes() reads them as loaded.
std::unique_ptr<ExportNodes> NodesToExport(const TfModel& model, const TfExportOptions& options);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_EXPORT_NODES_H_
