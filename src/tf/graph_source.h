// The TensorFlow family's graph for a viewer (core/graph_index.h): every node of the model's
// graph, grouped by name scope ('/'), with its inputs parsed from "name", "name:1" and
// "^name", a Const's tensor bytes and a variable's declared size as its weights, and the
// details panel's view of a node (attrs summarised, output dtypes and shapes from its attrs).
// TensorFlow.js models are read into this form and use it too (tfjs/family.cc).
#ifndef GRAPHPORT_TF_GRAPH_SOURCE_H_
#define GRAPHPORT_TF_GRAPH_SOURCE_H_

#include <memory>
#include <nlohmann/json.hpp>

#include "core/graph_index.h"
#include "tensorflow/attr_value.pb.h"
#include "tf/tf_model.h"

namespace graphport::tf {

// A node's weights: a Const's tensor bytes, a variable's declared dtype size times its shape.
uint64_t NodeWeightBytes(const tensorflow::NodeDef& node);

class TfGraphSource : public GraphSource {
 public:
  explicit TfGraphSource(const TfModel* model) : model_(model) {}
  const GraphIndex& Index() override;
  nlohmann::json NodeDetails(uint32_t node) override;
  // NodeDetails without the producers' dtypes and shapes: one node parsed, not its inputs too.
  nlohmann::json NodeContent(uint32_t node) override;
  // The node's bytes when the graph is kept as bytes (tf/wire_graph.h).
  std::string_view NodeRecord(uint32_t node) override;

 protected:
  // A node's weights as the index counts them; NodeWeightBytes() unless a family that reads
  // into this form knows better (TF.js: the bytes its shards hold).
  virtual uint64_t WeightBytes(const tensorflow::NodeDef& node) const {
    return NodeWeightBytes(node);
  }
  // True when WeightBytes() is not NodeWeightBytes(): then every Const is parsed for it.
  virtual bool OverridesWeights() const { return false; }

 private:
  // Node i as a message: the graph's own, or (nodes kept as bytes) parsed into `scratch`.
  const tensorflow::NodeDef& NodeAt(uint32_t i, tensorflow::NodeDef* scratch) const;
  size_t NodeCount() const;

  const TfModel* model_;
  std::unique_ptr<GraphIndex> index_;
};

// An attr value as the details panel shows it: numbers, strings and bools as themselves, a
// dtype by name ("float32"), a shape as its dims (-1 unknown, null for an unknown rank), a
// tensor as {dtype, shape, bytes}, a list as an array, a function by its name.
nlohmann::json AttrSummary(const tensorflow::AttrValue& value);

// What the attrs say of the node's outputs: [{index, dtype?, shape?}], from `_output_shapes`
// and the dtype attrs of the usual op signatures (dtype, T, out_type, Tout, output_types);
// empty when they say nothing.
nlohmann::json OutputsFromAttrs(const tensorflow::NodeDef& node);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_GRAPH_SOURCE_H_
