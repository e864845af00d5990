#include "mge/optimize/opt_graph.h"

#include <algorithm>
#include <string_view>

#include "mge/dtype_infer.h"
#include "mge/optimize/opr_maker.h"
#include "mge/optimize/opr_name.h"
#include "mge/optimize/shape_infer.h"
#include "mge/post_order.h"

namespace graphport::mge::opt {

const MiddleTensor& OptVar::middle() const {
  static const MiddleTensor kNone;
  return own_ ? own_->middle : loaded_middle_ ? *loaded_middle_ : kNone;
}

const std::string* OptVar::v1_name() const {
  if (own_) return own_->v1_name ? &*own_->v1_name : nullptr;
  return loaded_v1_name_;
}

OptVar OptVar::SameNames() const {
  if (!own_) return OptVar(loaded_middle_, loaded_v1_name_);
  OptVar v;
  v.own_ = std::make_unique<Names>(*own_);
  return v;
}

OptVar::Names& OptVar::Own() {
  if (!own_) {
    own_ = std::make_unique<Names>();
    if (loaded_middle_) own_->middle = *loaded_middle_;
    if (loaded_v1_name_) own_->v1_name = *loaded_v1_name_;
  }
  return *own_;
}

OutputList& OutputList::operator=(OutputList&& o) noexcept {
  if (this == &o) return *this;
  one_ = std::move(o.one_);
  o.one_ = OptVar();  // a moved-from var keeps its dtype and shape
  many_ = std::move(o.many_);
  size_ = o.size_;
  capacity_ = o.capacity_;
  o.size_ = 0;
  o.capacity_ = 1;
  return *this;
}

void OutputList::reserve(size_t n) {
  if (n <= capacity_) return;
  auto grown = std::make_unique<OptVar[]>(n);
  std::move(begin(), end(), grown.get());
  many_ = std::move(grown);
  one_ = OptVar();
  capacity_ = static_cast<uint32_t>(n);
}

void OutputList::resize(size_t n) {
  reserve(n);
  for (size_t k = n; k < size_; ++k) data()[k] = OptVar();
  size_ = static_cast<uint32_t>(n);
}

void OutputList::push_back(OptVar&& v) {
  if (size_ == capacity_) reserve(2 * size_t{capacity_});
  data()[size_++] = std::move(v);
}

const Operator& OptNode::op() const {
  static const Operator kNone;
  return loaded_ ? *loaded_ : own_ ? *own_ : kNone;
}

Operator& OptNode::mutable_op() {
  if (!own_) {
    own_ = std::make_shared<Operator>(loaded_ ? *loaded_ : Operator());
  } else if (own_.use_count() > 1) {
    own_ = std::make_shared<Operator>(*own_);
  }
  loaded_ = nullptr;
  copy_ = false;
  mode_ = kModeUnread;  // the caller may change the params
  return *own_;
}

void OptNode::set_op(Operator op) {
  own_ = std::make_shared<Operator>(std::move(op));
  loaded_ = nullptr;
  copy_ = false;
  mode_ = kModeUnread;
}

void OptNode::ShareOp(const OptNode& other) {
  loaded_ = other.loaded_;
  own_ = other.own_;
  copy_ = true;
  mode_ = other.mode_;
  cls_ = other.cls_;
  priority_ = other.priority_;
  name_source_ = other.name_source_;
  names_set_ = 0;
}

std::optional<uint32_t> OptNode::ReadElemwiseMode() const {
  const std::optional<uint32_t> mode = ElemwiseModeOf(op());
  mode_ = mode ? static_cast<int32_t>(*mode) : kNoMode;
  return mode;
}

OptGraph::OptGraph(const Graph& graph, RewrittenGraph* storage)
    : source_(graph), storage_(storage) {
  std::vector<std::optional<int>> dtypes = InferVarDTypes(graph);
  std::vector<VarRef> by_id(graph.vars.size());
  nodes_.reserve(graph.oprs.size());
  first_var_.reserve(graph.oprs.size());
  for (size_t i = 0; i < graph.oprs.size(); ++i) {
    const Operator& op = graph.oprs[i];
    OptNode n(&op);
    if (op.inputs) {
      n.inputs.reserve(op.inputs->size());
      for (uint32_t id : *op.inputs) n.inputs.push_back(by_id[id]);
    }
    n.has_v1_names = op.output_names.has_value();
    n.outputs.reserve(op.outputs.size());
    for (size_t k = 0; k < op.outputs.size(); ++k) {
      const std::string* v1_name =
          op.output_names && k < op.output_names->size() ? &(*op.output_names)[k] : nullptr;
      OptVar v(&graph.vars[op.outputs[k]].middle, v1_name);
      v.dtype = dtypes[op.outputs[k]];
      n.outputs.push_back(std::move(v));
      by_id[op.outputs[k]] = VarRef{static_cast<uint32_t>(i), static_cast<uint32_t>(k)};
    }
    // MegEngine's Elemwise constructor stores commutative inputs by var id, and the ids of a
    // load are not those of the dump that wrote the file: the loaded order may change.
    if (const std::optional<uint32_t> mode = n.elemwise_mode()) {
      SortElemwiseInputs(*this, *mode, &n.inputs);
    }
    current_priority_ = op.priority;
    n.name_source_ = static_cast<uint32_t>(i);
    Add(std::move(n));
  }
  loaded_count_ = static_cast<uint32_t>(graph.oprs.size());
  for (const OutputVar& out : graph.outputs) endpoints_.push_back(by_id[out.compact_id]);
  loaded_endpoints_ = endpoints_;
  current_priority_ = 0;
}

std::string_view OptGraph::Key(uint32_t node) const {
  const OprClass* cls = nodes_[node].cls();
  return cls == nullptr ? std::string_view() : std::string_view(cls->key);
}

bool OptGraph::Holds(std::string_view key) const {
  return std::any_of(classes_.begin(), classes_.end(),
                     [&](const OprClass* cls) { return cls->key == key; });
}

uint32_t OptGraph::Add(OptNode&& n) {
  if (!n.copy_) {
    // A copy has its operator's class and priority already (the operator lies elsewhere).
    n.cls_ = n.op().cls;
    n.priority_ = n.op().priority;
  }
  if (n.cls_ != nullptr && (classes_.empty() || classes_.back() != n.cls_) &&
      std::find(classes_.begin(), classes_.end(), n.cls_) == classes_.end()) {
    classes_.push_back(n.cls_);
  }
  if (const std::optional<uint32_t> mode = n.elemwise_mode()) {
    if (*mode < elemwise_modes_.size()) {
      elemwise_modes_.set(*mode);
    } else {
      any_other_mode_ = true;
    }
  }
  n.id = numbered_ ? numbered_id_ : next_id_++;
  numbered_ = false;
  for (OptVar& v : n.outputs) v.id = next_id_++;
  next_id_ += hidden_ids_.After(n.cls_);
  first_var_.push_back(var_count_);
  var_count_ += static_cast<uint32_t>(n.outputs.size());
  InferOutputs(&n);
  nodes_.push_back(std::move(n));
  return static_cast<uint32_t>(nodes_.size() - 1);
}

uint32_t OptGraph::AddNumbered(OptNode&& node, uint64_t op_id) {
  numbered_ = true;
  numbered_id_ = op_id;
  return Add(std::move(node));
}

void OptGraph::InferOutputs(OptNode* n) const { InferStatic(*this, n); }

Operator OptGraph::NewOperator(const std::string& key) const {
  // Looked up and hashed once per class: a chain pass makes 100k operators of one class.
  auto [it, fresh] = new_operators_.try_emplace(key);
  if (fresh) it->second = NewOperatorFor(source_, key, 0);
  Operator op = it->second;
  op.priority = current_priority_;
  return op;
}

Param OptGraph::OwnParam(uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                         flatbuffers::Offset<void> table) {
  return OwnParamIn(storage_, type, fbb, table);
}

std::string_view OptGraph::OwnBytes(std::string bytes) {
  storage_->values.push_back(std::make_unique<std::string>(std::move(bytes)));
  return *storage_->values.back();
}

std::optional<std::string> OptGraph::LocatorOf(VarRef v) const {
  for (int depth = 0; depth < 64; ++depth) {
    const OptNode& n = nodes_[v.node];
    const Operator& op = n.op();
    if (op.comp_nodes && !op.comp_nodes->empty() && (*op.comp_nodes)[0]) {
      return (*op.comp_nodes)[0];
    }
    if (!op.tensors.empty() && op.tensors[0].comp_node && *op.tensors[0].comp_node) {
      return *op.tensors[0].comp_node;
    }
    if (n.inputs.empty()) return std::nullopt;
    v = n.inputs[0];
  }
  return std::nullopt;
}

const std::vector<uint32_t>& OptGraph::TopoOrder() const {
  if (topo_valid_) return topo_;
  std::vector<uint32_t>& order = topo_;
  order.clear();
  std::vector<uint8_t> state(nodes_.size(), 0);  // 0 new, 1 on the stack, 2 done
  if (endpoints_.size() == 1) {
    AppendPostOrder(nodes_, endpoints_[0].node, &state, &order);
  } else {
    std::vector<uint64_t> ids;
    for (const VarRef& v : endpoints_) ids.push_back(nodes_[v.node].id);
    for (uint64_t id : endpoint_order_.Refill(ids)) {
      for (const VarRef& v : endpoints_) {
        if (nodes_[v.node].id == id) AppendPostOrder(nodes_, v.node, &state, &order);
      }
    }
  }
  topo_valid_ = true;
  return order;
}

std::vector<uint32_t> OptGraph::DumpOrder() const {
  std::vector<uint32_t> order;
  std::vector<uint8_t> state(nodes_.size(), 0);
  for (const VarRef& root : endpoints_) AppendPostOrder(nodes_, root.node, &state, &order);
  return order;
}

bool OptGraph::Unchanged(const std::vector<uint32_t>& order) const {
  if (order.size() != source_.oprs.size() || endpoints_ != loaded_endpoints_) return false;
  for (uint32_t i = 0; i < order.size(); ++i) {
    // Loaded nodes come first and keep their inputs: the same order means the same graph,
    // unless a pass renamed a var or changed an operator in place.
    const OptNode& n = nodes_[order[i]];
    if (order[i] != i || !n.loaded()) return false;
    for (const OptVar& v : n.outputs) {
      if (v.renamed()) return false;
    }
  }
  return true;
}

std::vector<std::optional<std::string>> OptGraph::ShownNames(uint32_t index) const {
  const OptNode& n = nodes_[index];
  std::vector<std::optional<std::string>> shown;
  if (n.loaded()) return shown;
  auto named = [](const OptVar& v) {
    return v.middle().name || (v.v1_name() && !v.v1_name()->empty());
  };
  // Most nodes are copies whose vars kept their names: nothing to show, nothing to allocate.
  if (std::all_of(n.outputs.begin(), n.outputs.end(), named)) return shown;
  for (uint32_t k = 0; k < n.outputs.size(); ++k) {
    shown.push_back(named(n.outputs[k]) ? std::nullopt
                                        : std::optional<std::string>(VarName(*this, {index, k})));
  }
  return shown;
}

namespace {

// `from` without its edges (inputs, outputs, FBS v1 output names), which Emit() writes anew:
// copying them only to replace them was a third of the allocations of an Emit() that copies
// 100k operators. Every other field of Operator is copied here.
void CopyAllButEdges(const Operator& from, Operator* op) {
  op->type_id = from.type_id;
  op->opr_version = from.opr_version;
  op->type = from.type;
  op->cls = from.cls;
  op->name = from.name;
  op->has_outputs_vector = from.has_outputs_vector;
  op->comp_nodes = from.comp_nodes;
  op->output_dtype = from.output_dtype;
  op->params = from.params;
  op->has_additional_params_vector = from.has_additional_params_vector;
  op->tensors = from.tensors;
  op->has_tensors_vector = from.has_tensors_vector;
  op->blobs = from.blobs;
  op->has_blobs_vector = from.has_blobs_vector;
  op->priority = from.priority;
  op->items = from.items;
}

}  // namespace

const Graph& OptGraph::Emit() {
  const std::vector<uint32_t> order = DumpOrder();
  emitted_unchanged_ = Unchanged(order);
  Graph& out = storage_->graph;
  const Graph& g = source_;
  out = Graph();
  out.format = g.format;
  out.magic = g.magic;
  out.feature_bits = g.feature_bits;
  out.version = g.version;
  out.model_version = g.model_version;
  out.hash = g.hash;
  out.has_middle_tensors = g.has_middle_tensors;
  out.has_output_alias = g.has_output_alias;
  out.aliases = g.aliases;
  out.metadata = g.metadata;
  // Var numbers by node: the first output's, the others follow it.
  std::vector<uint32_t> first_var(nodes_.size(), 0);
  uint32_t shared = 0;
  size_t vars = 0;
  for (uint32_t index : order) vars += nodes_[index].outputs.size();
  out.oprs.reserve(order.size());
  out.vars.reserve(vars);
  storage_->opr_ids.clear();
  storage_->opr_ids.reserve(order.size());
  for (uint32_t index : order) {
    OptNode& n = nodes_[index];
    storage_->opr_ids.push_back(n.id);
    std::vector<std::optional<std::string>> shown = ShownNames(index);
    // Named before the operator may be moved out below.
    std::vector<std::string> names;
    names.reserve(n.outputs.size());
    for (uint32_t k = 0; k < n.outputs.size(); ++k) names.push_back(VarName(*this, {index, k}));
    // A loaded operator is copied, and so is one shared with a copy of it; one a pass made is
    // moved (Emit() is the graph's last use).
    bool had_inputs;
    if (n.owns_op_alone()) {
      out.oprs.push_back(std::move(n.mutable_op()));
      had_inputs = out.oprs.back().inputs.has_value();
    } else {
      out.oprs.emplace_back();
      CopyAllButEdges(n.op(), &out.oprs.back());
      had_inputs = n.op().inputs.has_value();
    }
    Operator& op = out.oprs.back();
    if (!n.inputs.empty() || had_inputs) {
      if (!op.inputs) op.inputs.emplace();
      op.inputs->clear();
      op.inputs->reserve(n.inputs.size());
      for (const VarRef& r : n.inputs) op.inputs->push_back(first_var[r.node] + r.output);
    }
    op.outputs.clear();
    op.outputs.reserve(n.outputs.size());
    op.output_names.reset();
    const bool v1 = g.format == DumpFormat::kFbsV1;
    if (n.has_v1_names || (v1 && !shown.empty())) {
      op.output_names.emplace();
      for (uint32_t k = 0; k < n.outputs.size(); ++k) {
        const OptVar& v = n.outputs[k];
        op.output_names->push_back(v.v1_name() ? *v.v1_name() : shown[k].value_or(""));
      }
    }
    first_var[index] = static_cast<uint32_t>(out.vars.size());
    for (uint32_t k = 0; k < n.outputs.size(); ++k) {
      op.outputs.push_back(static_cast<uint32_t>(out.vars.size()));
      out.vars.emplace_back();
      Var& var = out.vars.back();
      var.opr = static_cast<uint32_t>(out.oprs.size() - 1);
      var.index = k;
      // What MegEngine's dumper knows of a var: the name it shows, and the static shape
      // inferred when its operator was inserted (none when it cannot be told). A dtype, comp
      // node and format it writes only for a var holding a device tensor, which no var of a
      // graph loaded and optimized but never run does.
      const OptVar& v = n.outputs[k];
      var.middle = MiddleTensor();
      var.middle.present = true;
      var.middle.name = std::move(names[k]);
      if (v.shape && !v.shape->empty()) var.middle.shape = *v.shape;
    }
    const std::string_view key = op.cls == nullptr ? std::string_view() : op.cls->key;
    if (key == "SharedDeviceTensor" || key == "MultipleDeviceTensorHolder" ||
        key == "SharedDeviceTensorWithFormat" || key == "MultipleDeviceTensorWithFormatHolder") {
      shared += static_cast<uint32_t>(op.tensors.size());
    }
  }
  out.nr_shared_tensor = shared;
  // A graph output's original_id is its var's id in the graph MegEngine dumps.
  for (const VarRef& v : endpoints_) {
    out.outputs.push_back({first_var[v.node] + v.output, static_cast<uint32_t>(var(v).id)});
  }
  for (const Operator& op : out.oprs) {
    for (const Tensor& t : op.tensors) out.value_bytes += t.has_value ? t.value.size() : 0;
  }
  return out;
}

}  // namespace graphport::mge::opt
