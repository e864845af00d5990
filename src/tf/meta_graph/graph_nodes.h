// The nodes of the graph an export writes, read one at a time by a writer that walks them (the
// TF.js writer, a pre-flight): the reading side of export_nodes.h, whose ExportNodes hands
// them out (ExportNodes::Nodes) once the passes have run, so that a reader never asks which
// form holds them. A parsed GraphDef's nodes are its own messages; a wire graph's
// (tf/wire_graph.h) are parsed one by one into a reused scratch message, so that writing a
// node-heavy graph never holds its nodes as messages all at once, and the model stays as
// small as it was loaded.
#ifndef GRAPHPORT_TF_META_GRAPH_GRAPH_NODES_H_
#define GRAPHPORT_TF_META_GRAPH_GRAPH_NODES_H_

#include <google/protobuf/arena.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

class GraphNodes {
 public:
  virtual ~GraphNodes() = default;
  virtual size_t size() const = 0;
  // The name node i is written with (an export's scope renames nodes), valid until the next
  // call; and its op.
  virtual std::string_view name(size_t i) const = 0;
  virtual std::string_view op(size_t i) const = 0;
  // Node i as a message, valid until the next call.
  virtual const tensorflow::NodeDef& Node(size_t i) = 0;
  // Node i's deterministic serialisation when the graph holds it as such (a wire graph's
  // canonical node), which a writer can read without a parse; else nothing.
  virtual std::optional<std::string_view> SerializedNode(size_t i) const = 0;
  virtual const tensorflow::FunctionDefLibrary& library() = 0;
  virtual const tensorflow::VersionDef& versions() const = 0;
};

class ParsedGraphNodes : public GraphNodes {
 public:
  explicit ParsedGraphNodes(const tensorflow::GraphDef& graph) : graph_(graph) {}
  size_t size() const override { return graph_.node_size(); }
  std::string_view name(size_t i) const override { return graph_.node(i).name(); }
  std::string_view op(size_t i) const override { return graph_.node(i).op(); }
  const tensorflow::NodeDef& Node(size_t i) override { return graph_.node(i); }
  std::optional<std::string_view> SerializedNode(size_t) const override { return std::nullopt; }
  const tensorflow::FunctionDefLibrary& library() override { return graph_.library(); }
  const tensorflow::VersionDef& versions() const override { return graph_.versions(); }

 private:
  const tensorflow::GraphDef& graph_;
};

// A wire graph's nodes as an export's plan says (tf/wire_graph.h's NodePlan: skipped, copied,
// with or without devices, or rewritten by the TensorFlow options), with the graph's other
// fields from `rest` (the export's GraphDef, which holds every field but the nodes) and the
// library from the wire graph's bytes when the plan copies it. The wire graph must be ready
// for an export (tf::TfModel::PrepareWireGraphForExport) when SerializedNode is asked, so that
// every node its bytes can stand for is marked canonical.
class WireGraphNodes : public GraphNodes {
 public:
  WireGraphNodes(const WireGraph& graph, const NodePlan& plan, const tensorflow::GraphDef& rest);
  size_t size() const override { return kept_.size(); }
  std::string_view name(size_t i) const override;
  std::string_view op(size_t i) const override { return graph_.op(kept_[i]); }
  const tensorflow::NodeDef& Node(size_t i) override;
  std::optional<std::string_view> SerializedNode(size_t i) const override;
  const tensorflow::FunctionDefLibrary& library() override;
  const tensorflow::VersionDef& versions() const override { return rest_.versions(); }

 private:
  const WireGraph& graph_;
  const NodePlan& plan_;
  const tensorflow::GraphDef& rest_;
  std::vector<uint32_t> kept_;        // the wire graph's nodes the plan does not skip
  tensorflow::NodeDef scratch_;       // off any arena: each parse reuses its strings and fields
  google::protobuf::Arena rewrites_;  // a rewritten node, until the next one
  mutable google::protobuf::Arena names_;  // a rewritten node's name, until the next one
  mutable std::string rewritten_name_;
  google::protobuf::Arena library_arena_;  // a library kept as bytes, parsed on first use
  const tensorflow::FunctionDefLibrary* library_ = nullptr;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_GRAPH_NODES_H_
