#include "tf/meta_graph/parsed_export_nodes.h"

#include "tf/meta_graph/parsed_node.h"
#include "tf/meta_graph/strip_default_attrs.h"
#include "tf/meta_graph/stripped_op_list.h"
#include "tf/meta_graph/wire_nodes.h"

namespace graphport::tf {

void ParsedExportNodes::ForEach(const NodeVisitor& visit) const {
  ForEachParsedNode(graph_, visit);
}

std::set<std::string, std::less<>> ParsedExportNodes::FunctionNames() const {
  return LibraryFunctionNames(graph_);
}

void ParsedExportNodes::AddLibrary(bool copy, tensorflow::GraphDef* graph,
                                   google::protobuf::Arena* /*arena*/) const {
  if (!graph_.has_library()) return;  // mutable_library() would add an empty one to the output
  if (copy) {
    *graph->mutable_library() = graph_.library();
  } else {
    graph->unsafe_arena_set_allocated_library(
        const_cast<tensorflow::FunctionDefLibrary*>(&graph_.library()));
  }
}

void ParsedExportNodes::Write(const NodePasses& passes,
                              const std::shared_ptr<const NodePass>& /*strip*/, bool list_unbound,
                              bool want_names, tensorflow::GraphDef* graph,
                              ExportedNodes* exported) {
  if (graph == nullptr) {
    exported->count = graph_.node_size();
    if (want_names) {
      for (const auto& node : graph_.node()) exported->names.insert(node.name());
    }
    return;
  }
  for (const auto& node : graph_.node()) {
    if (!KeepsNode(passes, ParsedNodeView(node))) continue;
    tensorflow::NodeDef* out = graph->add_node();
    LendNode(node, out);
    EditParsedNode(passes, out);
    if (want_names) exported->names.insert(node.name());
  }
  exported->count = graph->node_size();
  if (list_unbound) {
    for (const auto& node : graph->node()) AddUnboundInputs(node, &exported->unbound);
  }
}

std::unique_ptr<GraphNodes> ParsedExportNodes::Nodes() const {
  // A MetaGraphDef written without a graph_def has no nodes.
  return std::make_unique<ParsedGraphNodes>(
      written_ != nullptr ? *written_ : tensorflow::GraphDef::default_instance());
}

void ParsedExportNodes::BuildOpList(const tensorflow::GraphDef& graph, const OpRegistry& registry,
                                    google::protobuf::Arena* /*arena*/, tensorflow::OpList* ops,
                                    std::vector<std::string>* unregistered) const {
  BuildStrippedOpList(graph, registry, ops, unregistered);
}

}  // namespace graphport::tf
