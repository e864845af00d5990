// export_meta_graph(strip_default_attrs=True): removes every attr whose value equals its op's
// default, in top-level nodes and in function bodies, so older consumers can load the graph.
// One node pass (node_view.h) for both forms of a node: a node held as bytes is read only for
// the attrs its op gives a default, and parsed only when it loses one (or, written otherwise
// than libprotobuf writes it, to read them).
#ifndef GRAPHPORT_TF_META_GRAPH_STRIP_DEFAULT_ATTRS_H_
#define GRAPHPORT_TF_META_GRAPH_STRIP_DEFAULT_ATTRS_H_

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tf/meta_graph/node_view.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

// Nodes whose op is a library function name are left alone (functions have no OpDef
// defaults), as are attrs starting with "_" (never in an OpDef).
class StripDefaultAttrs final : public NodePass {
 public:
  // `functions`: the names of the graph's library functions.
  StripDefaultAttrs(OpRegistry registry, std::set<std::string, std::less<>> functions);

  bool ReadsNode() const override { return true; }
  void Edit(const NodeView& node, NodeEdit* edit) const override;

  // The ops of the nodes edited so far that no registry layer knows; their attrs are kept.
  const std::set<std::string>& unknown_ops() const { return unknown_ops_; }

 private:
  // The op's attrs that have a default, looked up once per op: most ops of a node-heavy graph
  // have none, and their nodes are then not read at all.
  const std::vector<const tensorflow::OpDef::AttrDef*>& DefaultedAttrs(std::string_view op) const;

  OpRegistry registry_;
  std::set<std::string, std::less<>> functions_;
  // Filled as nodes are edited (a plan for bytes edits them again when it writes them, on one
  // thread, as every export runs).
  mutable std::map<std::string, std::vector<const tensorflow::OpDef::AttrDef*>, std::less<>>
      defaulted_;
  mutable std::set<std::string> unknown_ops_;
};

struct StripDefaultAttrsResult {
  int removed = 0;                    // attrs removed
  std::set<std::string> unknown_ops;  // ops no registry layer knows; their attrs are kept
};

// Runs `pass` over the nodes `graph` holds parsed and its library's function bodies; adds the
// attrs removed to `*removed`.
void StripParsedGraph(const StripDefaultAttrs& pass, tensorflow::GraphDef* graph, int* removed);

// The library's function names, which StripDefaultAttrs is made with.
std::set<std::string, std::less<>> LibraryFunctionNames(const tensorflow::GraphDef& graph);

// The pass over a whole parsed graph, with `registry`.
void StripGraphDefaultAttrs(tensorflow::GraphDef* graph, const OpRegistry& registry,
                            StripDefaultAttrsResult* result);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_STRIP_DEFAULT_ATTRS_H_
