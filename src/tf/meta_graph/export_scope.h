// export_meta_graph(export_scope=...) for the nodes (TensorFlow's _node_def): only the nodes
// inside the scope are exported, stripped of it; their inputs from outside it become unbound
// inputs ("$unbound_inputs_x", which an importer must map); colocation entries outside it are
// dropped and the rest stripped; an Enter's frame inside it is stripped. One node pass
// (node_view.h) for both forms of a node: a node held as bytes is renamed as its records are
// written, and parsed only when an attr changes. The signatures and the saver follow in
// scoped_references.h, the collections in collections.h.
#ifndef GRAPHPORT_TF_META_GRAPH_EXPORT_SCOPE_H_
#define GRAPHPORT_TF_META_GRAPH_EXPORT_SCOPE_H_

#include <string_view>
#include <utility>

#include "tf/meta_graph/node_view.h"
#include "tf/meta_graph/scope.h"

namespace graphport::tf {

// Whether a node named `node_name` belongs in a scoped export: inside the scope, or an
// unbound-input placeholder of an earlier scoped export (TensorFlow keeps those).
bool NodeInExport(std::string_view node_name, const Scope& scope);

class ExportScope final : public NodePass, public NodeRenamer {
 public:
  explicit ExportScope(Scope scope) : scope_(std::move(scope)) {}

  bool ReadsNode() const override { return true; }
  bool Keeps(const NodeView& node) const override;
  void Edit(const NodeView& node, NodeEdit* edit) const override;

  // The rename: a name inside the scope loses it; an input from outside becomes unbound.
  NamePieces Name(std::string_view name) const override;
  NamePieces Input(std::string_view input) const override;

 private:
  Scope scope_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_EXPORT_SCOPE_H_
