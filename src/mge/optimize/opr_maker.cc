#include "mge/optimize/opr_maker.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "mge/elemwise_order.h"
#include "mge/optimize/eval/graph_eval.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/opr_name.h"
#include "mge/schema/cpp_opr_params_generated.h"
#include "mge/schema/mgb_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

constexpr size_t kMaxConstFoldingSize = 1024;  // MegEngine's MAX_CONST_FOLDING_SIZE
constexpr size_t kCachedValueSize = 28;        // MAX_NDIM * 4: values ImmutableTensor caches

uint64_t PowCCode(float exp) {
  uint32_t bits;
  std::memcpy(&bits, &exp, 4);
  return same_code::kPowC | bits;
}

}  // namespace

void SortElemwiseInputs(const OptGraph& g, uint32_t mode, VarList* in) {
  auto id = [&](size_t k) { return g.var((*in)[k]).id; };
  if (CommutativeElemwise(mode) && in->size() == 2 && id(1) < id(0)) std::swap((*in)[0], (*in)[1]);
  if (mode == kFuseMulAdd3 && in->size() == 3 && id(1) < id(0)) std::swap((*in)[0], (*in)[1]);
  if (mode == kFuseMulAdd4 && in->size() == 4) {
    if (id(1) < id(0)) std::swap((*in)[0], (*in)[1]);
    if (id(3) < id(2)) std::swap((*in)[2], (*in)[3]);
    if (id(2) < id(0)) {
      std::swap((*in)[0], (*in)[2]);
      std::swap((*in)[1], (*in)[3]);
    }
  }
}

bool AlmostEqual(float x, float y) {
  return std::fabs(x - y) < std::numeric_limits<float>::epsilon() * std::fabs(x + y) ||
         std::fabs(x - y) < std::numeric_limits<float>::min();
}

void TakeRestFrom(const Operator& source, Operator* op) {
  for (size_t k = 1; k < source.params.size(); ++k) op->params.push_back(source.params[k]);
  for (size_t k = 0; k < op->params.size(); ++k) op->items.push_back({DumpItem::kParam, k});
  op->name = source.name;
  op->comp_nodes = source.comp_nodes;
  op->output_dtype = source.output_dtype;
}

OptNode TensorHolderNode(OptGraph* g, const char* cls, const Shape& shape, int dtype,
                         std::string bytes, const std::optional<std::string>& locator,
                         const std::optional<std::string>& name) {
  OptNode n;
  n.set_op(g->NewOperator(cls));
  n.mutable_op().name = name;
  if (locator) n.mutable_op().comp_nodes = std::vector<std::optional<std::string>>{locator};
  Tensor t;
  t.name = name;
  t.shape = shape;
  if (locator) t.comp_node = std::optional<std::string>(*locator);
  t.dtype = DType{};
  t.dtype->type = static_cast<int8_t>(dtype);
  if (g->source().format == DumpFormat::kFbsV2) t.format = TensorFormat{1};
  t.has_value = true;
  t.value = g->OwnBytes(std::move(bytes));
  n.mutable_op().tensors.push_back(t);
  n.mutable_op().has_tensors_vector = true;
  n.mutable_op().items = {{DumpItem::kTensor, 0}};
  n.outputs.resize(1);
  return n;
}

std::optional<uint32_t> ElemwiseModeOf(const Operator& op) {
  if (op.cls == nullptr || op.cls->key != "Elemwise") return std::nullopt;
  if (op.params.empty() || op.params[0].type != kElemwiseParam || op.params[0].table == nullptr) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(
      reinterpret_cast<const param::Elemwise*>(op.params[0].table)->mode());
}

std::optional<float> ImmScalar(const OptGraph& g, VarRef v) {
  if (!g.Is(v, "ImmutableTensor")) return std::nullopt;
  std::optional<HostValue> value = StoredValue(g.node(v.node).op(), 0);
  if (!value || value->size() != 1) return std::nullopt;
  return value->AsFloat(0);
}

void OprMaker::NameMade(uint32_t node) {
  if (g_->node(node).op().name) return;
  g_->set_opr_name(node, DefaultOprName(*g_, node, naming_order_));
  g_->MarkDefaultNamed(node);
}

uint64_t OprMaker::SameKeyOf(uint32_t node) const {
  const OptNode& n = g_->node(node);
  if (n.outputs.size() != 1) return 0;
  if (std::optional<uint32_t> mode = n.elemwise_mode()) return same_code::kElemwise | *mode;
  if (g_->Key(node) == "PowC" && !n.op().params.empty() && n.op().params[0].type == kPowCParam &&
      n.op().params[0].table != nullptr) {
    return PowCCode(reinterpret_cast<const param::PowC*>(n.op().params[0].table)->exp());
  }
  // A TypeCvt under the key TypeCvt() makes it by, whoever made it (a pass, a copy, the
  // file): MegEngine's deduplication tells operators by class, param and inputs alone.
  if (g_->Key(node) == "TypeCvt" && !n.op().params.empty() && n.op().params[0].table != nullptr) {
    const auto dtype =
        reinterpret_cast<const mgb::serialization::fbs::DType*>(n.op().params[0].table)->type();
    return g_->same_index().Intern("TypeCvt:" + std::to_string(static_cast<int>(dtype)));
  }
  return 0;
}

void OprMaker::IndexGraph() {
  SameIndex& index = g_->same_index();
  for (; index.indexed < g_->size(); ++index.indexed) {
    const uint64_t code = SameKeyOf(index.indexed);
    if (code == 0) continue;
    // The oldest operator stays: what is there is kept.
    if (!index.Find(*g_, code, g_->node(index.indexed).inputs)) {
      index.Enter(*g_, index.indexed, code, VarRef{index.indexed, 0});
    }
  }
}

VarRef OprMaker::Insert(OptNode&& n, const std::string& dedup_key) {
  if (dedup_key.empty()) return AddMade(std::move(n), 0);
  IndexGraph();
  const uint64_t code = Code(dedup_key);
  if (std::optional<VarRef> found = g_->same_index().Find(*g_, code, n.inputs)) {
    g_->SpendIdsOfDeduplicated(g_->Key(found->node), n.outputs.size());
    return *found;
  }
  return AddMade(std::move(n), code);
}

template <typename MakeParam>
VarRef OprMaker::Make(const char* cls, uint8_t param_type, uint64_t code, VarList inputs,
                      const MakeParam& make_param) {
  IndexGraph();
  SameIndex& index = g_->same_index();
  if (std::optional<VarRef> found = index.Find(*g_, code, inputs)) {
    g_->SpendIdsOfDeduplicated(cls, 1);
    return *found;
  }
  OptNode n;
  n.set_op(g_->NewOperator(cls));
  n.inputs = std::move(inputs);
  n.outputs.resize(1);
  auto [cached, new_param] = index.params.try_emplace(code);
  if (new_param) {
    flatbuffers::FlatBufferBuilder fbb(64);
    const flatbuffers::Offset<void> table = make_param(&fbb);
    cached->second = g_->OwnParam(param_type, &fbb, table);
  }
  Operator& op = n.mutable_op();
  op.params.push_back(cached->second);
  op.items = {{DumpItem::kParam, 0}};
  return AddMade(std::move(n), code);
}

VarRef OprMaker::AddMade(OptNode&& n, uint64_t code) {
  const uint32_t node = g_->Add(std::move(n));
  NameMade(node);
  const VarRef v = MaybeFold({node, 0});
  if (code == 0) return v;
  g_->same_index().Enter(*g_, node, code, v);
  // The new node's key is the one just entered (its SameKeyOf is the dedup key, or "");
  // what folding added is ImmutableTensors, which have none: no need to look at them.
  g_->same_index().indexed = static_cast<uint32_t>(g_->size());
  return v;
}

// Whether a Dimshuffle's value, as MegEngine infers it (a view of its input's), is laid out
// contiguously: the input axes longer than 1 keep their order. A permuting one is not, and
// MegEngine folds only contiguous values.
static bool ContiguousDimshuffle(const OptGraph& g, uint32_t node) {
  const OptNode& n = g.node(node);
  const auto* p = n.op().ParamAs<param::Dimshuffle>(kDimshuffleParam);
  const VarShape& in = g.var(n.inputs[0]).shape;
  if (p == nullptr || p->pattern() == nullptr || !in) return false;
  int32_t last = -1;
  for (int32_t axis : *p->pattern()) {
    if (axis < 0 || static_cast<size_t>(axis) >= in->size() || (*in)[axis] == 1) continue;
    if (axis < last) return false;
    last = axis;
  }
  return true;
}

VarRef OprMaker::MaybeFold(VarRef v) {
  const OptNode& n = g_->node(v.node);
  if (!n.value_const || n.inputs.empty() || n.outputs.size() != 1) return v;
  if (g_->Key(v.node) == "Dimshuffle" && !ContiguousDimshuffle(*g_, v.node)) return v;
  const OptVar& out = g_->var(v);
  if (!out.shape || ElementCount(*out.shape) >= kMaxConstFoldingSize) return v;
  GraphEvaluator eval(*g_, EvalOptions{});
  std::string why;
  std::optional<HostValue> value = eval.Value(v, &why);
  if (!value) return v;  // the evaluator lacks something: the operator stays
  ++folded_;
  VarRef imm = Imm(*value, v);
  // A folded var keeps an explicit name it had (a copy of a named operator).
  OptVar& folded = g_->mutable_var(imm);
  if (!folded.middle().name && out.middle().name) folded.mutable_middle().name = out.middle().name;
  return imm;
}

VarRef OprMaker::Imm(const HostValue& value, VarRef like) {
  std::optional<std::string> locator = g_->LocatorOf(like);
  std::string bytes = EncodeValue(value);
  auto key = std::make_tuple(value.dtype, value.shape, bytes, locator.value_or(""));
  const bool cached = value.size() <= kCachedValueSize;
  if (cached) {
    auto it = g_->same_index().imm_cache.find(key);
    if (it != g_->same_index().imm_cache.end()) return it->second;
  }
  VarRef v{g_->Add(TensorHolderNode(g_, "ImmutableTensor", value.shape, value.dtype,
                                    std::move(bytes), locator)),
           0};
  NameMade(v.node);
  if (cached) g_->same_index().imm_cache[key] = v;
  return v;
}

VarRef OprMaker::ScalarImm(float value, int dtype, VarRef like) {
  HostValue v;
  v.dtype = dtype;
  v.shape = {1};
  if (IsFloatDType(dtype)) {
    v.f = {value};
  } else {
    v.i = {static_cast<int32_t>(value)};
  }
  return Imm(v, like);
}

VarRef OprMaker::TypeCvt(VarRef x, int dtype) {
  if (g_->var(x).dtype == dtype) return x;
  // The output's dtype is the param's: what inference tells from the new node.
  return Make("TypeCvt", kDTypeParam, Code("TypeCvt:" + std::to_string(dtype)), {x},
              [&](flatbuffers::FlatBufferBuilder* fbb) {
                return mgb::serialization::fbs::CreateDType(
                           *fbb, static_cast<mgb::serialization::fbs::DTypeEnum>(dtype))
                    .Union();
              });
}

VarRef OprMaker::Elemwise(uint32_t mode, VarList in) {
  const VarList given = in;
  SortElemwiseInputs(*g_, mode, &in);
  // The in-place shortcuts that give an input back unchanged (its shape is the result's).
  if ((mode == kAdd || mode == kMul) && in.size() == 2) {
    for (int k = 0; k < 2; ++k) {
      std::optional<float> c = ImmScalar(*g_, in[k]);
      if (!c) continue;
      const VarRef other = in[1 - k];
      const auto& shape = g_->var(other).shape;
      const auto& c_shape = g_->var(in[k]).shape;
      const bool same_shape = shape && c_shape && BroadcastShapes({*shape, *c_shape}) == shape;
      if (same_shape && AlmostEqual(*c, mode == kAdd ? 0.0f : 1.0f)) return other;
      break;
    }
  }
  naming_order_ = &given;
  const VarRef made =
      Make("Elemwise", kElemwiseParam, same_code::kElemwise | mode, std::move(in),
           [&](flatbuffers::FlatBufferBuilder* fbb) {
             return param::CreateElemwise(*fbb, static_cast<param::ElemwiseMode>(mode)).Union();
           });
  naming_order_ = nullptr;
  return made;
}

VarRef OprMaker::FloorDiv(VarRef x, VarRef y) {
  const bool scalar_shape =
      g_->node(x.node).shape_const && g_->var(x).shape && *g_->var(x).shape == Shape{1};
  if (x == y || ImmScalar(*g_, y) == 1.0f) {
    // a / a: a one of a's dtype; x / 1 (integers): x, broadcast to the shape of both, which
    // is x's own (a constant scalar's shape is left out of the GetVarShape).
    if (!scalar_shape) GetVarShape(x);
    return x == y ? ScalarImm(1, g_->var(x).dtype.value_or(kI32), x) : x;
  }
  return Elemwise(param::ElemwiseMode_FLOOR_DIV, {x, y});
}

VarRef OprMaker::Subtensor(VarRef x, const std::vector<IndexItem>& items, const VarList& index) {
  std::string key = "Subtensor";
  for (const IndexItem& i : items) {
    key += ":" + std::to_string(i.axis) + (i.begin ? "b" : "") + (i.end ? "e" : "") +
           (i.step ? "s" : "") + (i.idx ? "i" : "");
  }
  VarList inputs;
  inputs.push_back(x);
  for (const VarRef& v : index) inputs.push_back(v);
  return Make("Subtensor", kIndexDescParam, Code(key), std::move(inputs),
              [&](flatbuffers::FlatBufferBuilder* fbb) {
                std::vector<mgb::serialization::fbs::param::IndexDescMaskItem> stored;
                for (const IndexItem& i : items) {
                  stored.emplace_back(i.axis, i.begin, i.end, i.step, i.idx);
                }
                return param::CreateIndexDescMaskDumpDirect(*fbb, &stored).Union();
              });
}

VarRef OprMaker::PowC(VarRef x, float exp) {
  if (AlmostEqual(exp, 1.0f)) return x;
  return Make("PowC", kPowCParam, PowCCode(exp), {x}, [&](flatbuffers::FlatBufferBuilder* fbb) {
    return param::CreatePowC(*fbb, exp).Union();
  });
}

VarRef OprMaker::Broadcast(VarRef x, VarRef shape) {
  return Make(
      "Broadcast", kEmptyParam, Code("Broadcast"), {x, shape},
      [&](flatbuffers::FlatBufferBuilder* fbb) { return param::CreateEmpty(*fbb).Union(); });
}

VarRef OprMaker::GetVarShape(VarRef x, int32_t axis) {
  return Make("GetVarShape", kOptionalAxisV1Param,
              Code(axis == kNoAxis ? "GetVarShape" : "GetVarShape:" + std::to_string(axis)), {x},
              [&](flatbuffers::FlatBufferBuilder* fbb) {
                return param::CreateOptionalAxisV1(*fbb, axis).Union();
              });
}

VarRef OprMaker::Concat(VarList inputs, int32_t axis) {
  return Make(
      "Concat", kAxisParam, Code("Concat:" + std::to_string(axis)), std::move(inputs),
      [&](flatbuffers::FlatBufferBuilder* fbb) { return param::CreateAxis(*fbb, axis).Union(); });
}

VarRef OprMaker::Reshape(VarRef x, VarRef target, int32_t unspec_axis) {
  return Make("Reshape", kOptionalAxisV1Param, Code("Reshape:" + std::to_string(unspec_axis)),
              {x, target}, [&](flatbuffers::FlatBufferBuilder* fbb) {
                return param::CreateOptionalAxisV1(*fbb, unspec_axis).Union();
              });
}

VarRef OprMaker::Dimshuffle(VarRef x, const std::vector<int32_t>& pattern) {
  const std::optional<Shape>& shape = g_->var(x).shape;
  const uint32_t ndim = shape ? static_cast<uint32_t>(shape->size()) : 0;
  std::string key = "Dimshuffle:" + std::to_string(ndim);
  for (int32_t p : pattern) key += "," + std::to_string(p);
  return Make("Dimshuffle", kDimshuffleParam, Code(key), {x},
              [&](flatbuffers::FlatBufferBuilder* fbb) {
                return param::CreateDimshuffleDirect(*fbb, &pattern, ndim).Union();
              });
}

VarRef OprMaker::ShapeImm(const std::vector<int32_t>& dims, VarRef like) {
  return Imm(HostValue::Ints({static_cast<uint32_t>(dims.size())}, dims), like);
}

VarRef OprMaker::Reduce(VarRef x, uint32_t mode, int32_t axis, uint32_t data_type) {
  return Make("Reduce", kReduceParam,
              Code("Reduce:" + std::to_string(mode) + ":" + std::to_string(axis) + ":" +
                   std::to_string(data_type)),
              {x}, [&](flatbuffers::FlatBufferBuilder* fbb) {
                return param::CreateReduce(*fbb, static_cast<param::ReduceMode>(mode), axis,
                                           static_cast<param::ReduceDataType>(data_type))
                    .Union();
              });
}

VarRef OprMaker::ReduceTo(VarRef x, uint32_t mode, VarRef target) {
  constexpr int32_t kToTarget = 2147483647;  // Reduce's axis when a target shape is given
  return Make(
      "Reduce", kReduceParam, Code("Reduce:" + std::to_string(mode) + ":to"), {x, target},
      [&](flatbuffers::FlatBufferBuilder* fbb) {
        return param::CreateReduce(*fbb, static_cast<param::ReduceMode>(mode), kToTarget).Union();
      });
}

uint32_t OprMaker::Copy(uint32_t node, VarList in, bool keep_var_names) {
  const OptNode& old = g_->node(node);
  std::optional<uint32_t> mode = old.elemwise_mode();
  const VarList given = in;  // the order a new default name lists the inputs in
  if (mode) SortElemwiseInputs(*g_, *mode, &in);
  // A copy of a copy has the params of the operator first copied: deduplicated against
  // that one (which a copy reading its inputs is) and its other copies, or against any
  // operator of the same key (an Elemwise of the mode).
  // An ImmutableTensor's copy is made from its value, which the value cache has: itself.
  if (in.empty() && g_->Key(node) == "ImmutableTensor") return node;
  const OptNode& before = g_->node(node);
  const bool same_shapes = std::equal(
      in.begin(), in.end(), before.inputs.begin(), before.inputs.end(),
      [&](const VarRef& a, const VarRef& b) { return g_->var(a).shape == g_->var(b).shape; });
  SameIndex& index = g_->same_index();
  if (std::optional<uint32_t> cached = index.CachedCopy(node, in)) return *cached;
  const uint32_t root = node < index.copy_root.size() && index.copy_root[node] != SameIndex::kNoRoot
                            ? index.copy_root[node]
                            : node;
  if (g_->node(root).inputs == in) {
    g_->SpendIdsOfDeduplicated(g_->Key(node), old.outputs.size());
    index.RememberCopy(node, in, root);
    return root;
  }
  IndexGraph();
  const uint64_t same = SameKeyOf(root);
  const uint64_t code = same == 0 ? same_code::kCopy | root : same;
  if (std::optional<VarRef> found = index.Find(*g_, code, in)) {
    g_->SpendIdsOfDeduplicated(g_->Key(node), old.outputs.size());
    index.RememberCopy(node, in, found->node);
    return found->node;
  }
  const VarList key = in;
  OptNode n;
  n.ShareOp(old);
  n.inputs = std::move(in);
  n.has_v1_names = old.has_v1_names && keep_var_names;
  n.outputs.reserve(old.outputs.size());
  for (const OptVar& v : old.outputs) {
    OptVar copy = keep_var_names ? v.SameNames() : OptVar();
    if (keep_var_names) copy.dtype = v.dtype;  // else inferred from the new inputs
    n.outputs.push_back(std::move(copy));
  }
  const uint32_t added = g_->Add(std::move(n));
  // What static inference cannot tell (a class it lacks) is what the operator had on inputs
  // of the same shapes: the same params give the same output shapes.
  for (uint32_t k = 0; same_shapes && k < g_->node(added).outputs.size(); ++k) {
    if (!g_->var({added, k}).shape && k < g_->node(node).outputs.size()) {
      g_->mutable_var({added, k}).shape = g_->var({node, k}).shape;
    }
  }
  if (g_->default_named(node)) {
    if (keep_var_names) {
      g_->MarkDefaultNamed(added);  // the copy carries the same default name on
    } else {
      // The old name was a default one, which MegEngine does not keep in the config it
      // copies: the copy gets its own.
      g_->mutable_node(added).mutable_op().name.reset();
    }
  }
  if (!keep_var_names && !g_->node(added).op().name) {
    g_->ForgetNameSource(added);
    naming_order_ = &given;
    NameMade(added);
    naming_order_ = nullptr;
  }
  if (index.copy_root.size() <= added) index.copy_root.resize(added + 1, SameIndex::kNoRoot);
  index.copy_root[added] = root;
  const VarRef v = MaybeFold({added, 0});
  index.Enter(*g_, added, code, v);
  // The copy's key is the one just entered; folding adds only ImmutableTensors (no key).
  index.indexed = static_cast<uint32_t>(g_->size());
  index.RememberCopy(node, key, v.node);
  return v.node;
}

}  // namespace graphport::mge::opt
