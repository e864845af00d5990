// The attrs TensorFlow's op registry gives a default, filled in where a node lacks them, as
// tfjs-converter's import of the graph into TensorFlow fills them before it writes model.json.
// Producers leave defaults out (a SavedModel is saved with default attrs stripped), and the
// TF.js runtime reads some of them with no fallback of its own: a Conv2D without `dilations`
// fails there at its first run.
#ifndef GRAPHPORT_TFJS_DEFAULT_ATTRS_H_
#define GRAPHPORT_TFJS_DEFAULT_ATTRS_H_

#include <optional>
#include <string_view>

#include "tf/meta_graph/graph_nodes.h"

namespace graphport::tfjs {

// Adds each registry default of node's op that node lacks; true when it added any. Ops the
// TF.js runtime does not run are left alone (the pre-flight names them).
bool AddDefaultAttrs(tensorflow::NodeDef* node);

// `nodes`, each with its op's missing defaults added, function bodies included. A node that
// lacks none keeps its own serialisation, so a graph written as its bytes stays so.
class WithDefaultAttrs : public tf::GraphNodes {
 public:
  explicit WithDefaultAttrs(tf::GraphNodes* nodes) : nodes_(*nodes) {}
  size_t size() const override { return nodes_.size(); }
  std::string_view name(size_t i) const override { return nodes_.name(i); }
  std::string_view op(size_t i) const override { return nodes_.op(i); }
  const tensorflow::NodeDef& Node(size_t i) override;
  std::optional<std::string_view> SerializedNode(size_t i) const override;
  const tensorflow::FunctionDefLibrary& library() override;
  const tensorflow::VersionDef& versions() const override { return nodes_.versions(); }

 private:
  tf::GraphNodes& nodes_;
  tensorflow::NodeDef completed_;  // node i with its defaults, until the next call
  std::optional<tensorflow::FunctionDefLibrary> library_;
};

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_DEFAULT_ATTRS_H_
