// The nodes of a graph held as bytes (tf/wire_graph.h) as an export writes them
// (export_nodes.h): planned one at a time (wire_node_plan.h), never held parsed, and written
// from their bytes as the plan says after the rest of the graph.
#ifndef GRAPHPORT_TF_META_GRAPH_WIRE_EXPORT_NODES_H_
#define GRAPHPORT_TF_META_GRAPH_WIRE_EXPORT_NODES_H_

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tf/meta_graph/export_nodes.h"

namespace graphport::tf {

class WireExportNodes final : public ExportNodes {
 public:
  // `wire` must outlive the export and its writing.
  explicit WireExportNodes(const WireGraph& wire) : wire_(wire), written_(&wire.header()) {
    // Before any pass: every node copied, and a library kept as bytes follows them.
    plan_.copy_library = wire.library_kept();
  }

  const tensorflow::GraphDef& rest() const override { return wire_.header(); }
  size_t loaded_count() const override { return wire_.nodes().size(); }
  void ForEach(const NodeVisitor& visit) const override;
  std::set<std::string, std::less<>> FunctionNames() const override;
  void AddLibrary(bool copy, tensorflow::GraphDef* graph,
                  google::protobuf::Arena* arena) const override;
  void Write(const NodePasses& passes, const std::shared_ptr<const NodePass>& strip,
             bool list_unbound, bool want_names, tensorflow::GraphDef* graph,
             ExportedNodes* exported) override;
  void Attach(const tensorflow::GraphDef* graph) override;
  std::unique_ptr<GraphNodes> Nodes() const override;
  uint64_t WrittenSize(const tensorflow::GraphDef& graph) const override;
  void BuildOpList(const tensorflow::GraphDef& graph, const OpRegistry& registry,
                   google::protobuf::Arena* arena, tensorflow::OpList* ops,
                   std::vector<std::string>* unregistered) const override;
  void HeldAsBytes(const WireGraph** wire_nodes, const NodePlan** plan) const override;

 private:
  const WireGraph& wire_;
  NodePlan plan_;
  // Every field of the written graph but its nodes: the loaded header, or the attached graph
  // (or null).
  const tensorflow::GraphDef* written_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_WIRE_EXPORT_NODES_H_
