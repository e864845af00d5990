// The nodes of a parsed GraphDef as an export writes them (export_nodes.h): each kept node is
// copied into the exported GraphDef, lending its attr values (LendNode), and the passes edit
// the copy.
#ifndef GRAPHPORT_TF_META_GRAPH_PARSED_EXPORT_NODES_H_
#define GRAPHPORT_TF_META_GRAPH_PARSED_EXPORT_NODES_H_

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tf/meta_graph/export_nodes.h"

namespace graphport::tf {

class ParsedExportNodes final : public ExportNodes {
 public:
  // `graph` must outlive the export.
  explicit ParsedExportNodes(const tensorflow::GraphDef& graph) : graph_(graph), written_(&graph) {}

  const tensorflow::GraphDef& rest() const override { return graph_; }
  size_t loaded_count() const override { return graph_.node_size(); }
  void ForEach(const NodeVisitor& visit) const override;
  std::set<std::string, std::less<>> FunctionNames() const override;
  void AddLibrary(bool copy, tensorflow::GraphDef* graph,
                  google::protobuf::Arena* arena) const override;
  void Write(const NodePasses& passes, const std::shared_ptr<const NodePass>& strip,
             bool list_unbound, bool want_names, tensorflow::GraphDef* graph,
             ExportedNodes* exported) override;
  void Attach(const tensorflow::GraphDef* graph) override { written_ = graph; }
  std::unique_ptr<GraphNodes> Nodes() const override;
  uint64_t WrittenSize(const tensorflow::GraphDef& graph) const override {
    return graph.ByteSizeLong();
  }
  void BuildOpList(const tensorflow::GraphDef& graph, const OpRegistry& registry,
                   google::protobuf::Arena* arena, tensorflow::OpList* ops,
                   std::vector<std::string>* unregistered) const override;
  void HeldAsBytes(const WireGraph** wire_nodes, const NodePlan** plan) const override {
    *wire_nodes = nullptr;
    *plan = nullptr;
  }

 private:
  const tensorflow::GraphDef& graph_;
  const tensorflow::GraphDef* written_;  // the loaded graph, or the attached one (or null)
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_PARSED_EXPORT_NODES_H_
