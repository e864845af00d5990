// The graph of a model as a viewer draws it: every node (a TensorFlow node, a TF.js node, a
// MegEngine operator) in one flat index of names, ops and inputs by number, which the levels
// of core/graph_level.h are cut from. A family fills it once (GraphSource) from its own form;
// everything above the family reads only this.
#ifndef GRAPHPORT_CORE_GRAPH_INDEX_H_
#define GRAPHPORT_CORE_GRAPH_INDEX_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace graphport {

// One input of a node: the node that makes it, which of its outputs, and whether it only
// orders (a TensorFlow control input "^name").
struct GraphInput {
  uint32_t node = 0;
  uint32_t output = 0;
  bool control = false;
};

class GraphIndex {
 public:
  // `separator` splits a name into its groups: '/' for TensorFlow name scopes, '.' for
  // MegEngine's operator-name prefixes.
  explicit GraphIndex(char separator) : separator_(separator) {}

  char separator() const { return separator_; }
  size_t size() const { return name_offset_.size(); }

  // Adds a node and returns its number. Names are a node's id: the viewer finds it by name, so
  // the family gives each node a distinct one (Resolve() makes a repeated name distinct with
  // "#<number>" after it, which a MegEngine graph can need).
  uint32_t AddNode(std::string_view name, std::string_view op, uint64_t weight_bytes = 0);
  // An input of the node added last, named by its producer's name; producers may come after
  // their consumers (a TensorFlow graph need not be sorted). Resolve() finds them.
  void AddNamedInput(std::string_view producer, uint32_t output, bool control);
  // An input of the node added last, by the producer's number (which must be added by
  // Resolve() time).
  void AddInput(GraphInput input);
  // Indexes the names and turns the named inputs into numbers; an input that names no node is
  // counted in unresolved_inputs() and left out of the edges (an export scope's
  // "$unbound_inputs_").
  void Resolve();

  std::string_view name(uint32_t i) const {
    return std::string_view(name_chars_).substr(name_offset_[i], name_length_[i]);
  }
  const std::string& op(uint32_t i) const { return ops_[op_of_[i]]; }
  uint64_t weight_bytes(uint32_t i) const { return weight_bytes_[i]; }
  // The inputs of node i, in order: [begin, end) of inputs().
  uint32_t inputs_begin(uint32_t i) const { return input_start_[i]; }
  uint32_t inputs_end(uint32_t i) const {
    return i + 1 < input_start_.size() ? input_start_[i + 1]
                                       : static_cast<uint32_t>(inputs_.size());
  }
  const std::vector<GraphInput>& inputs() const { return inputs_; }
  uint64_t unresolved_inputs() const { return unresolved_; }
  // The node named so, or -1.
  int64_t Find(std::string_view name) const;

 private:
  struct Pending {
    uint32_t slot;            // into inputs_
    uint64_t offset, length;  // the producer's name in pending_chars_
  };
  // Appends a name to name_chars_; returns its offset.
  uint64_t AppendName(std::string_view name);

  char separator_;
  // The names one after another in one string: a graph of 200k nodes is one allocation, not
  // 200k (what indexing it in WebAssembly spent most of its time on).
  std::string name_chars_;
  std::vector<uint64_t> name_offset_;
  std::vector<uint32_t> name_length_;
  std::vector<uint32_t> op_of_;  // into ops_
  std::vector<std::string> ops_;
  std::unordered_map<std::string, uint32_t> op_numbers_;
  std::vector<uint64_t> weight_bytes_;
  std::vector<uint32_t> input_start_;
  std::vector<GraphInput> inputs_;
  std::vector<Pending> pending_;
  std::string pending_chars_;
  std::unordered_map<std::string_view, uint32_t> by_name_;  // views into name_chars_
  uint64_t unresolved_ = 0;
};

// What a family's model gives the viewer: the index (made on the first call and kept), and
// one node's details for the details panel.
class GraphSource {
 public:
  virtual ~GraphSource() = default;
  virtual const GraphIndex& Index() = 0;
  // {name, op, device?, attrs (TensorFlow, TF.js) or params (MegEngine), inputs: [{name,
  // node, output, control, dtype?, shape?}], outputs: [{index, dtype?, shape?}], weightBytes},
  // the family adding what it knows besides.
  virtual nlohmann::json NodeDetails(uint32_t node) = 0;
  // What the export preview compares of a node (core/export_preview.h): NodeDetails' op,
  // device, attrs or params, inputs ({node, output, control, missing?}) and tensors. A family
  // may leave out the rest (its producers' dtypes and shapes) to compare 200k nodes faster.
  virtual nlohmann::json NodeContent(uint32_t node) { return NodeDetails(node); }
  // The node's serialized record when the model keeps its bytes, else empty: two nodes whose
  // records are equal and not empty have equal content, so the preview compares 200k
  // untouched nodes as bytes, not as JSON.
  virtual std::string_view NodeRecord(uint32_t /*node*/) { return {}; }
};

// An optional side of FamilyModel (core/family.h), as InspectsAsText is: a model that has a
// graph to draw. Model::GraphJson() asks for it.
class HasGraph {
 public:
  virtual ~HasGraph() = default;
  // The model's graph source, made on the first call and kept by the model.
  virtual GraphSource* Graph() = 0;
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_GRAPH_INDEX_H_
