// The node view and edit over a parsed tensorflow::NodeDef (meta_graph/node_view.h): the
// passes change the message itself.
#ifndef GRAPHPORT_TF_META_GRAPH_PARSED_NODE_H_
#define GRAPHPORT_TF_META_GRAPH_PARSED_NODE_H_

#include "tensorflow/graph.pb.h"
#include "tf/meta_graph/node_view.h"

namespace graphport::tf {

class ParsedNodeView final : public NodeView {
 public:
  explicit ParsedNodeView(const tensorflow::NodeDef& node) : node_(node) {}
  std::string_view name() const override { return node_.name(); }
  std::string_view op() const override { return node_.op(); }
  std::string_view device() const override { return node_.device(); }

 private:
  const tensorflow::NodeDef& node_;
};

// `node` must not share submessages with the model (node_rewrite.h lends attr values): an
// edit replaces a lent value, never changes it.
class ParsedNodeEdit final : public NodeEdit {
 public:
  explicit ParsedNodeEdit(tensorflow::NodeDef* node) : node_(node) {}
  void ClearDevice() override { node_->clear_device(); }

 private:
  tensorflow::NodeDef* node_;
};

// Runs `passes` over `node` in order, each seeing what the ones before it did.
void EditParsedNode(const NodePasses& passes, tensorflow::NodeDef* node);

// Calls `visit` with a view of each node of `graph`, in order.
void ForEachParsedNode(const tensorflow::GraphDef& graph, const NodeVisitor& visit);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_PARSED_NODE_H_
