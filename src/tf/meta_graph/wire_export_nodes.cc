#include "tf/meta_graph/wire_export_nodes.h"

#include <utility>

#include "tf/meta_graph/stripped_op_list.h"
#include "tf/meta_graph/wire_node_plan.h"
#include "tf/meta_graph/wire_node_view.h"

namespace graphport::tf {

void WireExportNodes::ForEach(const NodeVisitor& visit) const { ForEachWireNodeView(wire_, visit); }

std::set<std::string, std::less<>> WireExportNodes::FunctionNames() const {
  std::set<std::string, std::less<>> names;
  for (const WireFunction& f : wire_.functions()) names.emplace(f.name);
  return names;
}

void WireExportNodes::AddLibrary(bool copy, tensorflow::GraphDef* graph,
                                 google::protobuf::Arena* arena) const {
  // A library kept as bytes is parsed for a copy, and otherwise follows the nodes as its
  // bytes (Attach).
  if (copy && wire_.library_kept()) {
    graph->unsafe_arena_set_allocated_library(wire_.ParseLibrary(arena));
    return;
  }
  const tensorflow::GraphDef& header = wire_.header();
  if (!header.has_library()) return;
  if (copy) {
    *graph->mutable_library() = header.library();
  } else {
    graph->unsafe_arena_set_allocated_library(
        const_cast<tensorflow::FunctionDefLibrary*>(&header.library()));
  }
}

void WireExportNodes::Write(const NodePasses& passes, const std::shared_ptr<const NodePass>& strip,
                            bool list_unbound, bool want_names, tensorflow::GraphDef* /*graph*/,
                            ExportedNodes* exported) {
  WireNodeOptions options;
  options.passes = passes;
  if (strip != nullptr) options.passes.push_back(strip);
  options.list_unbound_inputs = list_unbound;
  options.want_names = want_names;
  WireNodeFacts facts;
  plan_ = PlanWireNodes(wire_, options, &facts);
  exported->count = facts.exported;
  exported->names = std::move(facts.names);
  exported->unbound = std::move(facts.unbound);
  exported->attrs_removed = facts.attrs_removed;
}

void WireExportNodes::Attach(const tensorflow::GraphDef* graph) {
  // A library not parsed for this export is written as it is, after the nodes.
  plan_.copy_library = wire_.library_kept() && graph != nullptr && !graph->has_library();
  written_ = graph;
}

std::unique_ptr<GraphNodes> WireExportNodes::Nodes() const {
  // A graph held as bytes is always written (it is the loaded graph_def); null is kept apart
  // only to read as the parsed form does.
  if (written_ == nullptr) {
    return std::make_unique<ParsedGraphNodes>(tensorflow::GraphDef::default_instance());
  }
  return std::make_unique<WireGraphNodes>(wire_, plan_, *written_);
}

uint64_t WireExportNodes::WrittenSize(const tensorflow::GraphDef& graph) const {
  return graph.ByteSizeLong() + wire_.RecordsSize(plan_);
}

void WireExportNodes::BuildOpList(const tensorflow::GraphDef& graph, const OpRegistry& registry,
                                  google::protobuf::Arena* arena, tensorflow::OpList* ops,
                                  std::vector<std::string>* unregistered) const {
  // A kept library is parsed for its bodies' ops, unless this export already did.
  const tensorflow::FunctionDefLibrary& library =
      graph.has_library() ? graph.library() : wire_.Library(arena);
  BuildStrippedOpList(UsedWireOps(wire_, plan_, library), registry, ops, unregistered);
}

void WireExportNodes::HeldAsBytes(const WireGraph** wire_nodes, const NodePlan** plan) const {
  *wire_nodes = &wire_;
  *plan = &plan_;
}

}  // namespace graphport::tf
