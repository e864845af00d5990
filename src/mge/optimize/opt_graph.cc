#include "mge/optimize/opt_graph.h"

#include <string_view>

#include "mge/dtype_infer.h"
#include "mge/optimize/shape_infer.h"

namespace graphport::mge::opt {

OptGraph::OptGraph(const Graph& graph, RewrittenGraph* storage)
    : source_(graph), storage_(storage) {
  std::vector<std::optional<int>> dtypes = InferVarDTypes(graph);
  std::vector<VarRef> by_id(graph.vars.size());
  nodes_.reserve(graph.oprs.size());
  for (size_t i = 0; i < graph.oprs.size(); ++i) {
    const Operator& op = graph.oprs[i];
    OptNode n;
    n.op = op;
    if (op.inputs) {
      for (uint32_t id : *op.inputs) n.inputs.push_back(by_id[id]);
    }
    n.has_v1_names = op.output_names.has_value();
    for (size_t k = 0; k < op.outputs.size(); ++k) {
      OptVar v;
      v.middle = graph.vars[op.outputs[k]].middle;
      if (op.output_names && k < op.output_names->size()) v.v1_name = (*op.output_names)[k];
      v.dtype = dtypes[op.outputs[k]];
      n.outputs.push_back(std::move(v));
      by_id[op.outputs[k]] = VarRef{static_cast<uint32_t>(i), static_cast<uint32_t>(k)};
    }
    current_priority_ = op.priority;
    Add(std::move(n));
  }
  for (const OutputVar& out : graph.outputs) endpoints_.push_back(by_id[out.compact_id]);
  current_priority_ = 0;
}

const std::string& OptGraph::Key(uint32_t node) const {
  static const std::string kNone;
  const OprClass* cls = nodes_[node].op.cls;
  return cls == nullptr ? kNone : cls->key;
}

uint32_t OptGraph::Add(OptNode n) {
  n.id = next_id_++;
  for (OptVar& v : n.outputs) v.id = next_id_++;
  InferOutputs(&n);
  nodes_.push_back(std::move(n));
  return static_cast<uint32_t>(nodes_.size() - 1);
}

void OptGraph::InferOutputs(OptNode* n) const { InferStatic(*this, n); }

Operator OptGraph::NewOperator(const std::string& key) const {
  Operator op;
  op.cls = FindClassByKey(key);
  op.priority = current_priority_;
  if (op.cls == nullptr) return op;
  if (source_.format == DumpFormat::kFbsV2) {
    V2Registration reg;
    V2RegistrationOf(*op.cls, &reg);
    op.type_id = reg.type_id;
    op.opr_version = reg.opr_version;
    op.type = reg.type;
    op.has_outputs_vector = true;
  } else {
    V1TypeIdOf(*op.cls, source_.magic == V1Magic::kMgbc ? V1Ids::kPersist : V1Ids::kUnversioned,
               &op.type_id);
  }
  return op;
}

Param OptGraph::OwnParam(uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                         flatbuffers::Offset<void> table) {
  fbb->Finish(table);
  auto buffer = std::make_unique<flatbuffers::DetachedBuffer>(fbb->Release());
  Param p{type, reinterpret_cast<const uint8_t*>(
                    flatbuffers::GetRoot<flatbuffers::Table>(buffer->data()))};
  storage_->storage.push_back(std::move(buffer));
  return p;
}

std::string_view OptGraph::OwnBytes(std::string bytes) {
  storage_->values.push_back(std::make_unique<std::string>(std::move(bytes)));
  return *storage_->values.back();
}

std::optional<std::string> OptGraph::LocatorOf(VarRef v) const {
  for (int depth = 0; depth < 64; ++depth) {
    const OptNode& n = nodes_[v.node];
    if (n.op.comp_nodes && !n.op.comp_nodes->empty() && (*n.op.comp_nodes)[0]) {
      return (*n.op.comp_nodes)[0];
    }
    if (!n.op.tensors.empty() && n.op.tensors[0].comp_node && *n.op.tensors[0].comp_node) {
      return *n.op.tensors[0].comp_node;
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
  std::vector<std::pair<uint32_t, size_t>> stack;
  for (const VarRef& root : endpoints_) {
    if (state[root.node] != 0) continue;
    state[root.node] = 1;
    stack.push_back({root.node, 0});
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < nodes_[node].inputs.size()) {
        uint32_t in = nodes_[node].inputs[next++].node;
        if (state[in] == 0) {
          state[in] = 1;
          stack.push_back({in, 0});
        }
      } else {
        state[node] = 2;
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  topo_valid_ = true;
  return order;
}

std::map<VarRef, uint32_t> OptGraph::ReaderCounts() const {
  std::map<VarRef, uint32_t> counts;
  for (uint32_t node : TopoOrder()) {
    for (const VarRef& in : nodes_[node].inputs) ++counts[in];
  }
  for (const VarRef& v : endpoints_) ++counts[v];
  return counts;
}

void OptGraph::Emit() {
  const std::vector<uint32_t> order = TopoOrder();
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
  out.oprs.reserve(order.size());
  out.vars.reserve(order.size());
  for (uint32_t index : order) {
    OptNode& n = nodes_[index];
    Operator op = std::move(n.op);  // the graph is done with: Emit() is its last step
    if (!n.inputs.empty() || op.inputs) {
      op.inputs = std::vector<uint32_t>();
      for (const VarRef& r : n.inputs) op.inputs->push_back(first_var[r.node] + r.output);
    }
    op.outputs.clear();
    op.output_names.reset();
    if (n.has_v1_names) {
      op.output_names = std::vector<std::string>();
      for (const OptVar& v : n.outputs) op.output_names->push_back(v.v1_name.value_or(""));
    }
    first_var[index] = static_cast<uint32_t>(out.vars.size());
    for (uint32_t k = 0; k < n.outputs.size(); ++k) {
      op.outputs.push_back(static_cast<uint32_t>(out.vars.size()));
      Var var;
      var.opr = static_cast<uint32_t>(out.oprs.size());
      var.index = k;
      var.middle = std::move(n.outputs[k].middle);
      out.vars.push_back(std::move(var));
    }
    const std::string_view key = op.cls == nullptr ? std::string_view() : op.cls->key;
    if (key == "SharedDeviceTensor" || key == "MultipleDeviceTensorHolder" ||
        key == "SharedDeviceTensorWithFormat" || key == "MultipleDeviceTensorWithFormatHolder") {
      shared += static_cast<uint32_t>(op.tensors.size());
    }
    out.oprs.push_back(std::move(op));
  }
  out.nr_shared_tensor = shared;
  for (size_t i = 0; i < endpoints_.size(); ++i) {
    const uint32_t original = i < g.outputs.size() ? g.outputs[i].original_id : 0;
    const VarRef& v = endpoints_[i];
    out.outputs.push_back({first_var[v.node] + v.output, original});
  }
  for (const Operator& op : out.oprs) {
    for (const Tensor& t : op.tensors) out.value_bytes += t.has_value ? t.value.size() : 0;
  }
}

}  // namespace graphport::mge::opt
