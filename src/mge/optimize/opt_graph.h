// The graph the optimize_for_inference passes rewrite (research megengine_optimize.md §2.1):
// the loaded operators, read in place in the loaded graph (never copied unless a pass changes
// one), each still pointing into the model's bytes, with edges as (node,
// output) references, MegEngine's ids (one counter shared by operators and vars, in load
// order, continued by every operator a pass makes), explicit var names, dtypes and static
// shapes. Passes add nodes and never remove any: what nothing reads any more is dropped when
// Emit() renumbers the graph in the dumper's DFS order from the endpoints.
#ifndef GRAPHPORT_MGE_OPTIMIZE_OPT_GRAPH_H_
#define GRAPHPORT_MGE_OPTIMIZE_OPT_GRAPH_H_

#include <bitset>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mge/dump/compat_rewrite.h"
#include "mge/mge_model.h"
#include "mge/optimize/endpoint_order.h"
#include "mge/optimize/eval/host_value.h"
#include "mge/optimize/hidden_ids.h"
#include "mge/optimize/node_store.h"
#include "mge/optimize/same_index.h"
#include "mge/optimize/var_list.h"
#include "mge/optimize/var_ref.h"
#include "mge/optimize/var_shape.h"

namespace graphport::mge::opt {

// A var: the loaded one's middle tensor and FBS v1 name are read where they are in the
// loaded graph until a pass names the var, which gives it its own copy.
class OptVar {
 public:
  OptVar() = default;
  OptVar(const MiddleTensor* loaded_middle, const std::string* loaded_v1_name)
      : loaded_middle_(loaded_middle), loaded_v1_name_(loaded_v1_name) {}
  OptVar(OptVar&&) noexcept = default;
  OptVar& operator=(OptVar&&) noexcept = default;

  // FBS_V2: middle().name is the var's explicit name.
  const MiddleTensor& middle() const;
  MiddleTensor& mutable_middle() { return Own().middle; }
  // The FBS v1 output_name, or nullptr.
  const std::string* v1_name() const;
  void set_v1_name(std::optional<std::string> name) { Own().v1_name = std::move(name); }
  // Whether a pass changed its names (a var of a new operator owns them from the start).
  bool renamed() const { return own_ != nullptr; }
  // A var of a copy of this var's operator: the same names, read where these are until one
  // is changed (a pass copies every operator downstream of a change: 100k on a large model).
  OptVar SameNames() const;

  std::optional<int> dtype;
  VarShape shape;   // the static shape, where it can be told (OptGraph::InternShape)
  uint64_t id = 0;  // MegEngine's var id

 private:
  struct Names {
    MiddleTensor middle;
    std::optional<std::string> v1_name;
  };
  Names& Own();

  const MiddleTensor* loaded_middle_ = nullptr;
  const std::string* loaded_v1_name_ = nullptr;
  std::unique_ptr<Names> own_;
};

// The outputs of an OptNode: one held in place (nearly every operator has one output, and a
// vector of them was an allocation per node), more on the heap.
class OutputList {
 public:
  OutputList() = default;
  OutputList(OutputList&& o) noexcept { *this = std::move(o); }
  OutputList& operator=(OutputList&& o) noexcept;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  OptVar* begin() { return data(); }
  OptVar* end() { return data() + size_; }
  const OptVar* begin() const { return data(); }
  const OptVar* end() const { return data() + size_; }
  OptVar& operator[](size_t i) { return data()[i]; }
  const OptVar& operator[](size_t i) const { return data()[i]; }
  OptVar& front() { return data()[0]; }
  OptVar& back() { return data()[size_ - 1]; }
  const OptVar& back() const { return data()[size_ - 1]; }

  void reserve(size_t n);
  // New outputs are default vars.
  void resize(size_t n);
  void push_back(OptVar&& v);

 private:
  OptVar* data() { return many_ ? many_.get() : &one_; }
  const OptVar* data() const { return many_ ? many_.get() : &one_; }

  OptVar one_;                      // the output, while there is room for one only
  std::unique_ptr<OptVar[]> many_;  // every output, once there is room for more
  uint32_t size_ = 0;
  uint32_t capacity_ = 1;
};

// An operator: a loaded one is read where it is in the loaded graph (100k operators are not
// copied to be looked at); a pass that changes one, or makes one, owns its Operator.
class OptNode {
 public:
  OptNode() : name_source_(kNoNameSource), names_set_(0) {}
  explicit OptNode(const Operator* loaded)
      : loaded_(loaded), name_source_(kNoNameSource), names_set_(0) {}
  OptNode(OptNode&&) noexcept = default;
  OptNode& operator=(OptNode&&) noexcept = default;

  const Operator& op() const;
  // The node's own Operator (copied first when it is the loaded one or shared with a copy).
  Operator& mutable_op();
  void set_op(Operator op);
  // Makes this node a copy of `other`'s operator: the same Operator, shared until either
  // changes it (copy_opr_shallow keeps params, tensors and name; inputs live in the node).
  void ShareOp(const OptNode& other);
  // Whether the Operator is the loaded one at its loaded place, unchanged.
  bool loaded() const { return loaded_ != nullptr && !copy_; }
  // Whether the node alone holds its Operator (Emit() may move it out).
  bool owns_op_alone() const { return own_ != nullptr && own_.use_count() == 1; }
  // The operator's class and priority, read once when the node is added to the graph: a
  // pass asks every node for its class, and the loaded operators lie all over memory.
  const OprClass* cls() const { return cls_; }
  int32_t priority() const { return priority_; }
  // ElemwiseModeOf(op()), read once (again after a change of the Operator): the chain passes
  // ask every node, and the params of the loaded operators lie all over memory too.
  std::optional<uint32_t> elemwise_mode() const {
    if (mode_ >= 0) return static_cast<uint32_t>(mode_);
    if (mode_ == kNoMode) return std::nullopt;
    return ReadElemwiseMode();
  }
  // The loaded node whose default name this node's operator carries (itself, or the loaded
  // operator a copy was made of: copy_opr_shallow keeps the name MegEngine gave the operator
  // when it loaded it), or kNoNameSource for an operator a pass made.
  static constexpr uint32_t kNoNameSource = (1u << 31) - 1;
  uint32_t name_source() const { return name_source_; }
  // Whether MegEngine set this node's var names explicitly (VarNode::has_name_set): a copy
  // auto_replace_outputs made, whose vars it renames to the names the old ones showed.
  bool names_set() const { return names_set_; }

  VarList inputs;
  OutputList outputs;
  uint64_t id = 0;  // MegEngine's operator id
  bool has_v1_names = false;
  // MegEngine's static inference: the value is CONST (computed from ImmutableTensors and
  // constant shapes only); the shape is CONST (does not follow a Host2DeviceCopy).
  bool value_const = false;
  bool shape_const = false;

  // The fields below are ordered to leave no padding: a pass graph holds 366k nodes for a
  // 100k-operator model.
 private:
  friend class OptGraph;
  std::optional<uint32_t> ReadElemwiseMode() const;
  bool copy_ = false;  // loaded_ is another node's operator
  int32_t priority_ = 0;
  const Operator* loaded_ = nullptr;
  std::shared_ptr<Operator> own_;
  const OprClass* cls_ = nullptr;
  static constexpr int32_t kModeUnread = -2, kNoMode = -1;
  mutable int32_t mode_ = kModeUnread;
  uint32_t name_source_ : 31;
  uint32_t names_set_ : 1;
};

class OptGraph {
 public:
  // The graph as loaded; new param tables and values go to `storage`, which must outlive
  // the graph and the Graph that Emit() writes into it.
  OptGraph(const Graph& graph, RewrittenGraph* storage);

  const Graph& source() const { return source_; }
  RewrittenGraph* storage() { return storage_; }
  size_t size() const { return nodes_.size(); }
  // The loaded operators are nodes 0 .. loaded_count() - 1, in load order.
  uint32_t loaded_count() const { return loaded_count_; }
  const OptNode& node(uint32_t index) const { return nodes_[index]; }
  OptNode& mutable_node(uint32_t index) {
    topo_valid_ = false;  // the caller may change its inputs
    return nodes_[index];
  }
  // Names operator `node` (no input changes: the cached order stays).
  void set_opr_name(uint32_t node, std::string name) {
    nodes_[node].mutable_op().name = std::move(name);
  }
  const OptVar& var(VarRef v) const { return nodes_[v.node].outputs[v.output]; }
  OptVar& mutable_var(VarRef v) { return nodes_[v.node].outputs[v.output]; }
  // The operator's class key ("Elemwise", "BatchNorm", ...), "" when MegEngine lacks it.
  std::string_view Key(uint32_t node) const;
  bool Is(VarRef v, const char* key) const { return Key(v.node) == key; }
  // Whether any node, reachable or not, is of class `key`: a pass that rewrites only such
  // operators skips its walk of a graph that has none (a walk of 100k nodes costs ~10 ms).
  bool Holds(std::string_view key) const;
  // The same for an Elemwise mode (a node's mode is read when it is added and never changes).
  bool HoldsElemwise(uint32_t mode) const {
    return mode < elemwise_modes_.size() ? elemwise_modes_[mode] : any_other_mode_;
  }

  const std::vector<VarRef>& endpoints() const { return endpoints_; }
  // The graph's outputs as loaded, which Network.dump names explicitly before optimizing.
  const std::vector<VarRef>& loaded_endpoints() const { return loaded_endpoints_; }
  // The copy `node`'s vars are named as the vars it replaces showed (auto_replace_outputs);
  // its names, not its inputs, change: the cached order stays.
  void MarkNamesSet(uint32_t node) { nodes_[node].names_set_ = 1; }
  // Whether operator `node`'s name is the default one a pass gave it (OprMaker), which
  // MegEngine keeps out of the config a copy takes.
  bool default_named(uint32_t node) const {
    return node < default_named_.size() && default_named_[node];
  }
  void MarkDefaultNamed(uint32_t node) {
    if (default_named_.size() <= node) default_named_.resize(node + 1, false);
    default_named_[node] = true;
  }
  // A copy made on other inputs without its old vars' names is named as MegEngine names a
  // new operator (copy_opr_shallow with a config that names nothing): no loaded name.
  void ForgetNameSource(uint32_t node) { nodes_[node].name_source_ = OptNode::kNoNameSource; }
  void set_endpoint(size_t index, VarRef v) {
    if (endpoints_[index] != v) topo_valid_ = false;
    endpoints_[index] = v;
  }
  // A graph built from nothing (tests, and passes that make graphs) names its outputs here.
  void AddEndpoint(VarRef v) {
    topo_valid_ = false;
    endpoints_.push_back(v);
  }

  // The operators reachable from the endpoints in the order a pass walks them: MegEngine's
  // DepOprIter (iterative DFS, post-order, inputs in order, each operator once) from each
  // endpoint operator in the order its SubGraph's set holds them (endpoint_order.h). Kept
  // until the endpoints or a node's inputs change (new nodes are unreachable until an
  // endpoint points at them), so a pass that changes nothing costs no second walk.
  const std::vector<uint32_t>& TopoOrder() const;
  // The same walk from the endpoints in their order: the dumper's.
  std::vector<uint32_t> DumpOrder() const;
  // Every var of the graph numbered in node order (output 0 of a node, then its others):
  // VarIndex(v) < var_count(). Kept as nodes are added, so that a pass's per-var tables need
  // not walk every node (most of them unreachable copies) to be laid out.
  uint32_t VarIndex(VarRef v) const { return first_var_[v.node] + v.output; }
  uint32_t var_count() const { return var_count_; }

  // `shape` as held by the graph (one copy of each distinct shape): what a var's shape is
  // set to. Const: the table is a cache of values, which interning a shape does not change.
  VarShape InternShape(const std::optional<Shape>& shape) const { return shapes_.Intern(shape); }

  // Appends an operator (ids are taken from the counter: the operator's, then one per
  // output, then those MegEngine spends on what no file numbers: HiddenIds), infers what can be
  // told of its outputs and returns its index.
  uint32_t Add(OptNode&& node);
  // The same for an operator whose id was taken before what it made while being constructed
  // (EnableNchwxx's RelayoutPlaceholder): `op_id`, spent already; its outputs' ids come next.
  uint32_t AddNumbered(OptNode&& node, uint64_t op_id);
  // The id the next operator or var will get.
  uint64_t next_id() const { return next_id_; }
  // Spends the ids MegEngine's constructor of an operator of class `key` with `outputs`
  // numbered outputs takes when the operator is then found in the graph already (the graph
  // deduplicates after constructing): the operator's, its outputs', its workspace's.
  void SpendIdsOfDeduplicated(std::string_view key, size_t outputs) {
    next_id_ += 1 + outputs + HiddenIds::Workspace(key);
  }
  // Spends `n` ids on operators MegEngine makes and graphport has no node for.
  void SpendIds(uint64_t n) { next_id_ += n; }
  // An operator of class `key` with no params yet, in the graph's format and with the
  // priority of the operator being visited.
  Operator NewOperator(const std::string& key) const;
  void set_current_priority(int32_t priority) { current_priority_ = priority; }
  // Owns a param table built in `fbb` (finished here) and returns it as a Param.
  Param OwnParam(uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                 flatbuffers::Offset<void> table);
  // Owns `bytes` and returns a view of them.
  std::string_view OwnBytes(std::string bytes);

  SameIndex& same_index() { return same_index_; }

  // The comp node locator of a var: its operator's, or its tensor's, or its first input's.
  std::optional<std::string> LocatorOf(VarRef v) const;

  // The graph in the dumper's order, as MegEngine dumps it, in storage()->graph (new and
  // changed operators are moved into it: this is the graph's last use): every var named as
  // MegEngine shows it and with the static shape it infers, graph outputs numbered with
  // MegEngine's ids. Written even when no pass changed the graph: MegEngine's dump of a
  // graph it loaded and left alone still names and numbers it so.
  const Graph& Emit();
  // Whether Emit() found the operators that reach the endpoints, their inputs, names and
  // order, as loaded.
  bool emitted_unchanged() const { return emitted_unchanged_; }

 private:
  void InferOutputs(OptNode* n) const;
  // MegEngine shows a var without an explicit name by its operator's name (research
  // megengine_optimize.md §2.1.6), and keep_var_name writes what it shows: per output of a
  // node a pass made or changed, that name where the var inherited none (empty when every
  // output has one, or the node is the loaded operator).
  std::vector<std::optional<std::string>> ShownNames(uint32_t index) const;
  bool Unchanged(const std::vector<uint32_t>& order) const;

  const Graph& source_;
  RewrittenGraph* storage_;
  NodeStore<OptNode> nodes_;
  std::vector<uint32_t> first_var_;  // per node: VarIndex of its output 0
  uint32_t var_count_ = 0;
  mutable ShapeTable shapes_;
  std::vector<VarRef> endpoints_;
  std::vector<VarRef> loaded_endpoints_;
  uint32_t loaded_count_ = 0;
  uint64_t next_id_ = 0;   // MegEngine numbers a graph's first operator 0
  bool numbered_ = false;  // the next Add() takes numbered_id_ (AddNumbered)
  std::vector<bool> default_named_;
  uint64_t numbered_id_ = 0;
  HiddenIds hidden_ids_;
  mutable std::vector<uint32_t> topo_;
  mutable EndpointOrder endpoint_order_;
  mutable bool topo_valid_ = false;
  bool emitted_unchanged_ = false;
  int32_t current_priority_ = 0;
  SameIndex same_index_;
  std::vector<const OprClass*> classes_;                                // of the nodes, each once
  mutable std::map<std::string, Operator, std::less<>> new_operators_;  // NewOperator's, by key
  std::bitset<128> elemwise_modes_;                                     // of the nodes
  bool any_other_mode_ = false;  // a mode beyond those (none in the schema today)
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_OPT_GRAPH_H_
