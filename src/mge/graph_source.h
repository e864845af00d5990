// The MegEngine family's graph for a viewer (core/graph_index.h): each operator of the graph
// the load picked is a node, named by its operator name (or "<Type>#<index>" when the file
// has none), grouped by the name's '.' prefixes (the module path of a traced network), with an
// edge from the operator that makes each input var; its tensors' value bytes are its weights.
#ifndef GRAPHPORT_MGE_GRAPH_SOURCE_H_
#define GRAPHPORT_MGE_GRAPH_SOURCE_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/graph_index.h"
#include "mge/mge_model.h"

namespace graphport::mge {

class MgeGraphSource : public GraphSource {
 public:
  explicit MgeGraphSource(const Graph* graph) : graph_(graph) {}
  const GraphIndex& Index() override;
  nlohmann::json NodeDetails(uint32_t node) override;

  // The node name of operator `index`: its name, or its type and index when it has none.
  static std::string NodeName(const Graph& graph, size_t index);

 private:
  // A var as the details panel lists it: {var, varName?, dtype? (stored, or as MegEngine
  // infers it), shape? (stored, or its producer's tensor)}.
  nlohmann::json VarJson(uint32_t id) const;

  const Graph* graph_;
  std::unique_ptr<GraphIndex> index_;
  std::vector<std::optional<int>> var_dtypes_;  // inferred, made with the index
};

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_GRAPH_SOURCE_H_
