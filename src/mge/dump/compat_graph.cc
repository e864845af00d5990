// The core of the rewrite's graph: nodes, the shapes and mutability it can tell, errors
// naming the converted operator, deduplication, and the renumbering in the dumper's order.
#include "mge/dump/compat_graph.h"

#include <algorithm>
#include <memory>

#include "core/error.h"
#include "mge/opr_registry.h"
#include "mge/post_order.h"
#include "mge/read_error.h"

namespace graphport::mge {

Operator NewOperatorFor(const Graph& graph, const std::string& key, int32_t priority) {
  Operator op;
  op.cls = FindClassByKey(key);
  op.priority = priority;
  if (op.cls == nullptr) return op;
  if (graph.format == DumpFormat::kFbsV2) {
    V2Registration reg;
    V2RegistrationOf(*op.cls, &reg);
    op.type_id = reg.type_id;
    op.opr_version = reg.opr_version;
    op.type = reg.type;
    op.has_outputs_vector = true;
  } else {
    V1TypeIdOf(*op.cls, graph.magic == V1Magic::kMgbc ? V1Ids::kPersist : V1Ids::kUnversioned,
               &op.type_id);
  }
  return op;
}

Param OwnParamIn(RewrittenGraph* out, uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                 flatbuffers::Offset<void> table) {
  fbb->Finish(table);
  auto buffer = std::make_unique<flatbuffers::DetachedBuffer>(fbb->Release());
  Param p{type, reinterpret_cast<const uint8_t*>(
                    flatbuffers::GetRoot<flatbuffers::Table>(buffer->data()))};
  out->storage.push_back(std::move(buffer));
  return p;
}

namespace compat {
namespace {

const flatbuffers::Table* FirstParam(const Operator& op, uint8_t type) {
  if (op.params.empty() || op.params[0].type != type || op.params[0].table == nullptr) {
    return nullptr;
  }
  return reinterpret_cast<const flatbuffers::Table*>(op.params[0].table);
}

// Numpy-style broadcast of two static shapes; nullopt when they do not broadcast.
std::optional<std::vector<uint32_t>> Broadcast(const std::vector<uint32_t>& a,
                                               const std::vector<uint32_t>& b) {
  std::vector<uint32_t> out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    uint32_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[out.size() - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

}  // namespace

uint32_t ParamMode(const Operator& op, uint8_t type) {
  const flatbuffers::Table* t = FirstParam(op, type);
  return t == nullptr ? 0 : t->GetField<uint32_t>(4, 0);
}

void Builder::UnsupportedAt(size_t opr, const std::string& what) const {
  const Operator& op = g_.oprs[opr];
  std::string label = OprLabel(opr, op.DisplayType());
  if (op.name) label += " '" + *op.name + "'";
  ErrorLocation where;
  where.opr = label;
  throw Error(ErrorCode::kUnsupported, "operator " + label + ": " + what, where);
}

uint32_t Builder::Add(Node n) {
  InferShape(&n);
  nodes_.push_back(std::move(n));
  return static_cast<uint32_t>(nodes_.size() - 1);
}

// Shapes graphport can tell without MegEngine's full static inference: tensors stored in
// the file, and Elemwise-like operators broadcasting their inputs. Mutability follows
// MegEngine's inference dependencies: a value depends on every input's value; a shape on the
// inputs' shapes, except Reshape's and Broadcast's, which come from their target's value.
void Builder::InferShape(Node* n) const {
  if (n->op.cls == nullptr) return;
  const std::string& key = n->op.cls->key;
  const bool h2d = key == "Host2DeviceCopy";
  n->value_mutable = h2d;
  n->shape_mutable = h2d;
  for (size_t k = 0; k < n->inputs.size(); ++k) {
    const Node& in = nodes_[n->inputs[k].node];
    n->value_mutable = n->value_mutable || in.value_mutable;
    if (key == "Reshape" || key == "Broadcast") {
      if (k == 1) n->shape_mutable = in.value_mutable;
    } else {
      n->shape_mutable = n->shape_mutable || in.shape_mutable;
    }
  }
  if (!n->op.tensors.empty() && n->inputs.empty()) {
    if (n->op.tensors[0].shape) n->shape = *n->op.tensors[0].shape;
    return;
  }
  if (key == "Elemwise" || key == "TypeCvt" || key == "PowC" || key == "ElemwiseMultiType") {
    std::optional<std::vector<uint32_t>> shape = std::vector<uint32_t>{};
    for (const Ref& r : n->inputs) {
      const auto& s = ShapeOf(r);
      if (!s || !shape) return;
      shape = Broadcast(*shape, *s);
    }
    if (!n->inputs.empty()) n->shape = shape;
    return;
  }
  if (!n->middle.empty() && n->middle[0].shape) n->shape = n->middle[0].shape;
}

const std::optional<std::vector<uint32_t>>& Builder::ShapeOf(Ref r) const {
  static const std::optional<std::vector<uint32_t>> kUnknown;
  return r.output == 0 ? nodes_[r.node].shape : kUnknown;
}

std::vector<uint32_t> Builder::RequireStaticShape(Ref x, const std::string& what) const {
  RequireMutableShape(x, what);
  if (!ShapeOf(x)) {
    Unsupported(what +
                " needs the static shape of its input, which graphport infers only from "
                "stored tensors and along Elemwise, TypeCvt and PowC (MegEngine's static "
                "inference goes further)");
  }
  return *ShapeOf(x);
}

void Builder::RequireMutableShape(Ref x, const std::string& what) const {
  RequireMutableValue(x, what);
  if (!nodes_[x.node].shape_mutable) {
    Unsupported(what +
                ": its input's shape is constant, so MegEngine would fold the shape "
                "operators of the rewrite into constants, which graphport does not emulate");
  }
}

void Builder::RequireMutableValue(Ref x, const std::string& what) const {
  if (!nodes_[x.node].value_mutable) {
    Unsupported(what +
                ": its input is computed from constants only, so MegEngine would fold the "
                "rewrite into constants, which graphport does not emulate");
  }
}

Operator Builder::NewOp(const std::string& key) {
  return NewOperatorFor(g_, key, current_priority_);
}

Param Builder::OwnedParam(uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                          flatbuffers::Offset<void> table) {
  return OwnParamIn(out_, type, fbb, table);
}

Node Builder::NewNode(const std::string& key, std::vector<Ref> in, std::optional<int> dtype) {
  Node n;
  n.op = NewOp(key);
  n.inputs = std::move(in);
  n.middle.resize(1);
  n.dtypes = {dtype};
  n.rank = next_rank_++;
  return n;
}

Ref Builder::Insert(Node n, const std::string& dedup_key) {
  auto key = std::make_pair(dedup_key, n.inputs);
  auto it = same_.find(key);
  if (it != same_.end()) {
    --next_rank_;  // MegEngine gives the discarded operator no var id either
    return {it->second, 0};
  }
  uint32_t index = Add(std::move(n));
  same_[key] = index;
  return {index, 0};
}

uint32_t Builder::AddExisting(Node n) {
  uint32_t index = Add(std::move(n));
  const Node& added = nodes_[index];
  const Operator& op = added.op;
  if (op.cls == nullptr) return index;
  const std::string& key = op.cls->key;
  if (key == "Elemwise") {
    same_.emplace(
        std::make_pair("Elemwise:" + std::to_string(ParamMode(op, kElemwiseParam)), added.inputs),
        index);
  } else if (key == "ImmutableTensor" && op.tensors.size() == 1) {
    const Tensor& t = op.tensors[0];
    if (t.shape && *t.shape == std::vector<uint32_t>{1} && t.dtype && t.value.size() == 4 &&
        (t.dtype->type == kFloat32 || t.dtype->type == kInt32)) {
      std::string locator = t.comp_node && *t.comp_node ? **t.comp_node : "";
      consts_.emplace(std::make_tuple(std::string(t.value) + "|1", t.dtype->type, locator), index);
    }
  }
  return index;
}

// The comp node of a var: its operator's, or its tensor's, or its first input's.
std::optional<std::string> Builder::LocatorOf(Ref r) const {
  for (int depth = 0; depth < 64; ++depth) {
    const Node& n = nodes_[r.node];
    if (n.op.comp_nodes && !n.op.comp_nodes->empty() && (*n.op.comp_nodes)[0]) {
      return (*n.op.comp_nodes)[0];
    }
    if (!n.op.tensors.empty() && n.op.tensors[0].comp_node && *n.op.tensors[0].comp_node) {
      return *n.op.tensors[0].comp_node;
    }
    if (n.inputs.empty()) return std::nullopt;
    r = n.inputs[0];
  }
  return std::nullopt;
}

void Builder::Emit(const std::vector<std::optional<Ref>>& replace) {
  std::vector<uint32_t> order;
  std::vector<int> state(nodes_.size(), 0);  // 0 new, 1 on the stack, 2 emitted
  for (const OutputVar& v : g_.outputs) {
    AppendPostOrder(nodes_, replace[v.compact_id]->node, &state, &order);
  }
  Graph& out = out_->graph;
  out.format = g_.format;
  out.magic = g_.magic;
  out.feature_bits = g_.feature_bits;
  out.version = g_.version;
  out.model_version = g_.model_version;
  out.hash = g_.hash;
  out.nr_shared_tensor = g_.nr_shared_tensor;
  out.has_middle_tensors = g_.has_middle_tensors;
  out.has_output_alias = g_.has_output_alias;
  out.aliases = g_.aliases;
  out.metadata = g_.metadata;
  std::map<Ref, uint32_t> ids;
  for (uint32_t index : order) {
    Node& n = nodes_[index];
    Operator op = n.op;
    if (!n.inputs.empty() || op.inputs) {
      op.inputs = std::vector<uint32_t>();
      for (const Ref& r : n.inputs) op.inputs->push_back(ids.at(r));
    }
    op.outputs.clear();
    op.output_names.reset();
    if (n.has_v1_names) {
      op.output_names = std::vector<std::string>();
      for (const auto& s : n.v1_names) op.output_names->push_back(s.value_or(""));
    }
    for (uint32_t k = 0; k < n.outputs; ++k) {
      uint32_t id = static_cast<uint32_t>(out.vars.size());
      ids[{index, k}] = id;
      op.outputs.push_back(id);
      Var var;
      var.opr = static_cast<uint32_t>(out.oprs.size());
      var.index = k;
      var.middle = k < n.middle.size() ? n.middle[k] : MiddleTensor();
      out.vars.push_back(var);
    }
    out.oprs.push_back(std::move(op));
  }
  for (const OutputVar& v : g_.outputs) {
    out.outputs.push_back({ids.at(*replace[v.compact_id]), v.original_id});
  }
  for (const Operator& op : out.oprs) {
    for (const Tensor& t : op.tensors) out.value_bytes += t.has_value ? t.value.size() : 0;
  }
}

}  // namespace compat
}  // namespace graphport::mge
