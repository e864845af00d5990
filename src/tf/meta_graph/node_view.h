// One TensorFlow node as an export option reads and edits it, whichever form the graph holds
// it in: parsed messages (parsed_node.h) or its own wire bytes (wire_node_view.h, tf/
// wire_graph.h). Each node-level option is a NodePass written once against these two
// interfaces, in a file named after it (clear_devices.cc, ...); the export orders the passes
// and each form applies them in its own way: on the message at once, or as edits recorded
// while planning and applied when the node's bytes are written.
#ifndef GRAPHPORT_TF_META_GRAPH_NODE_VIEW_H_
#define GRAPHPORT_TF_META_GRAPH_NODE_VIEW_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tensorflow/attr_value.pb.h"

namespace graphport::tf {

// What a pass reads of a node: as the earlier passes of the same export left it.
class NodeView {
 public:
  virtual std::string_view name() const = 0;
  virtual std::string_view op() const = 0;
  virtual std::string_view device() const = 0;
  // Whether the node holds attr `key` with a value equal to `value` (AreAttrValuesEqual).
  // Only that attr is read: a node held as bytes is not parsed for it when canonical.
  virtual bool AttrEquals(std::string_view key, const tensorflow::AttrValue& value) const = 0;
  // Whether the node holds attr `key`, and then its value in `*value` unless that is null
  // (most nodes of a graph lack the attr a pass looks for: asking first costs no message).
  virtual bool ReadAttr(std::string_view key, tensorflow::AttrValue* value) const = 0;

 protected:
  ~NodeView() = default;
};

// A name as a rename writes it: up to three pieces, joined. A rename of a node held as bytes
// then points into the loaded bytes (and at constants) instead of allocating a string per
// name of a node-heavy graph.
struct NamePieces {
  std::string_view a, b, c;

  size_t size() const { return a.size() + b.size() + c.size(); }
  std::string Joined() const;
};

// A rename of the names in a node: its own and its inputs'. Given whole to the edit, not name
// by name, so that a node held as bytes applies it as it writes the node's records.
class NodeRenamer {
 public:
  virtual NamePieces Name(std::string_view name) const = 0;
  // `input` as a NodeDef holds it: "node", "node:1" or "^node".
  virtual NamePieces Input(std::string_view input) const = 0;

 protected:
  ~NodeRenamer() = default;
};

// What a pass may change of a node.
class NodeEdit {
 public:
  virtual void ClearDevice() = 0;
  // `key` must outlive the edit: a node held as bytes records it until it is written.
  virtual void RemoveAttr(std::string_view key) = 0;
  // Sets attr `key` (which must outlive the edit) to `value`, replacing it whole.
  virtual void SetAttr(std::string_view key, const tensorflow::AttrValue& value) = 0;
  // Renames the node and its inputs with `renamer`, which must outlive the edit (a pass that
  // renames is one). One pass of an export renames (export_scope.h).
  virtual void RenameWith(const NodeRenamer& renamer) = 0;

 protected:
  ~NodeEdit() = default;
};

class NodePass {
 public:
  virtual ~NodePass() = default;
  // False when neither Keeps nor Edit reads the node, so every node is kept and edited alike:
  // a graph held as bytes then records the edit once for all its nodes instead of walking
  // them (clearDevices on a 200k-node graph stays a copy of each node's bytes around its
  // device record).
  virtual bool ReadsNode() const = 0;
  // Whether the node is exported at all, decided on the node as loaded, before any pass or
  // the scope edits it (TensorFlow leaves nodes out before it rewrites the rest).
  virtual bool Keeps(const NodeView& /*node*/) const { return true; }
  virtual void Edit(const NodeView& node, NodeEdit* edit) const = 0;
};

// The node passes of one export, in the order they apply. Shared: a plan for bytes keeps
// them until the nodes are written, after the export's locals are gone.
using NodePasses = std::vector<std::shared_ptr<const NodePass>>;

inline std::string NamePieces::Joined() const {
  std::string joined;
  joined.reserve(size());
  joined.append(a).append(b).append(c);
  return joined;
}

inline bool KeepsNode(const NodePasses& passes, const NodeView& node) {
  for (const auto& pass : passes) {
    if (!pass->Keeps(node)) return false;
  }
  return true;
}

// The nodes of a graph as loaded, in order, whichever form holds them: a ForEachNode calls its
// visitor once per node (ForEachParsedNode, ForEachWireNodeView) and may be called again.
using NodeVisitor = std::function<void(const NodeView&)>;
using ForEachNode = std::function<void(const NodeVisitor&)>;

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_NODE_VIEW_H_
