// The graph the optimize_for_inference passes rewrite (research megengine_optimize.md §2.1):
// the loaded operators, each still pointing into the model's bytes, with edges as (node,
// output) references, MegEngine's ids (one counter shared by operators and vars, in load
// order, continued by every operator a pass makes), explicit var names, dtypes and static
// shapes. Passes add nodes and never remove any: what nothing reads any more is dropped when
// Emit() renumbers the graph in the dumper's DFS order from the endpoints.
#ifndef GRAPHPORT_MGE_OPTIMIZE_OPT_GRAPH_H_
#define GRAPHPORT_MGE_OPTIMIZE_OPT_GRAPH_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mge/dump/compat_rewrite.h"
#include "mge/mge_model.h"
#include "mge/optimize/eval/host_value.h"

namespace graphport::mge::opt {

struct VarRef {
  uint32_t node = 0;
  uint32_t output = 0;
  bool operator==(const VarRef& o) const { return node == o.node && output == o.output; }
  bool operator!=(const VarRef& o) const { return !(*this == o); }
  bool operator<(const VarRef& o) const {
    return node != o.node ? node < o.node : output < o.output;
  }
};

struct OptVar {
  MiddleTensor middle;                 // FBS_V2: middle.name is the var's explicit name
  std::optional<std::string> v1_name;  // FBS v1 output_name
  std::optional<int> dtype;
  std::optional<Shape> shape;  // the static shape, where it can be told
  uint64_t id = 0;             // MegEngine's var id
};

struct OptNode {
  Operator op;  // inputs and outputs are renumbered by Emit()
  std::vector<VarRef> inputs;
  std::vector<OptVar> outputs;
  bool has_v1_names = false;
  uint64_t id = 0;  // MegEngine's operator id
  // MegEngine's static inference: the value is CONST (computed from ImmutableTensors and
  // constant shapes only); the shape is CONST (does not follow a Host2DeviceCopy).
  bool value_const = false;
  bool shape_const = false;
};

class OptGraph {
 public:
  // The graph as loaded; new param tables and values go to `storage`, which must outlive
  // the graph and the Graph that Emit() writes into it.
  OptGraph(const Graph& graph, RewrittenGraph* storage);

  const Graph& source() const { return source_; }
  RewrittenGraph* storage() { return storage_; }
  size_t size() const { return nodes_.size(); }
  const OptNode& node(uint32_t index) const { return nodes_[index]; }
  OptNode& mutable_node(uint32_t index) {
    topo_valid_ = false;  // the caller may change its inputs
    return nodes_[index];
  }
  const OptVar& var(VarRef v) const { return nodes_[v.node].outputs[v.output]; }
  OptVar& mutable_var(VarRef v) { return nodes_[v.node].outputs[v.output]; }
  // The operator's class key ("Elemwise", "BatchNorm", ...), "" when MegEngine lacks it.
  const std::string& Key(uint32_t node) const;
  bool Is(VarRef v, const char* key) const { return Key(v.node) == key; }

  const std::vector<VarRef>& endpoints() const { return endpoints_; }
  void set_endpoint(size_t index, VarRef v) {
    if (endpoints_[index] != v) topo_valid_ = false;
    endpoints_[index] = v;
  }
  // A graph built from nothing (tests, and passes that make graphs) names its outputs here.
  void AddEndpoint(VarRef v) {
    topo_valid_ = false;
    endpoints_.push_back(v);
  }

  // The operators reachable from the endpoints, in MegEngine's DepOprIter order: iterative
  // DFS, post-order, inputs in order, each operator once. Kept until the endpoints or a
  // node's inputs change (new nodes are unreachable until an endpoint points at them), so a
  // pass that changes nothing costs no second walk.
  const std::vector<uint32_t>& TopoOrder() const;
  // How many reachable operators read each var (graph endpoints count once more).
  std::map<VarRef, uint32_t> ReaderCounts() const;

  // Appends an operator (ids are taken from the counter: the operator's, then one per
  // output), infers what can be told of its outputs and returns its index.
  uint32_t Add(OptNode node);
  // An operator of class `key` with no params yet, in the graph's format and with the
  // priority of the operator being visited.
  Operator NewOperator(const std::string& key) const;
  void set_current_priority(int32_t priority) { current_priority_ = priority; }
  // Owns a param table built in `fbb` (finished here) and returns it as a Param.
  Param OwnParam(uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                 flatbuffers::Offset<void> table);
  // Owns `bytes` and returns a view of them.
  std::string_view OwnBytes(std::string bytes);

  // The comp node locator of a var: its operator's, or its tensor's, or its first input's.
  std::optional<std::string> LocatorOf(VarRef v) const;

  // The graph in the dumper's order, into storage()->graph. The operators are moved there:
  // this is the graph's last use.
  void Emit();

 private:
  void InferOutputs(OptNode* n) const;

  const Graph& source_;
  RewrittenGraph* storage_;
  std::vector<OptNode> nodes_;
  std::vector<VarRef> endpoints_;
  uint64_t next_id_ = 1;
  mutable std::vector<uint32_t> topo_;
  mutable bool topo_valid_ = false;
  int32_t current_priority_ = 0;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_OPT_GRAPH_H_
