#include "mge/optimize/opr_maker.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "mge/optimize/eval/graph_eval.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/schema/mgb_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

constexpr uint8_t kEmptyParam = 1;
constexpr uint8_t kElemwiseParam = 17;
constexpr uint8_t kPowCParam = 19;
constexpr size_t kMaxConstFoldingSize = 1024;  // MegEngine's MAX_CONST_FOLDING_SIZE
constexpr size_t kCachedValueSize = 28;        // MAX_NDIM * 4: values ImmutableTensor caches

bool Commutative(uint32_t mode) {
  return mode == kAdd || mode == kMul || mode == kMax || mode == kMin;
}

std::string FloatBytes(float v) {
  std::string s(4, '\0');
  std::memcpy(s.data(), &v, 4);
  return s;
}

}  // namespace

bool AlmostEqual(float x, float y) {
  return std::fabs(x - y) < std::numeric_limits<float>::epsilon() * std::fabs(x + y) ||
         std::fabs(x - y) < std::numeric_limits<float>::min();
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

VarRef OprMaker::Insert(OptNode n, const std::string& dedup_key) {
  std::pair<std::string, std::vector<VarRef>> key;
  if (!dedup_key.empty()) {
    key = {dedup_key, n.inputs};
    auto it = same_.find(key);
    if (it != same_.end()) return it->second;
  }
  VarRef v{g_->Add(std::move(n)), 0};
  v = MaybeFold(v);
  if (!dedup_key.empty()) same_[key] = v;
  return v;
}

VarRef OprMaker::MaybeFold(VarRef v) {
  const OptNode& n = g_->node(v.node);
  if (!n.value_const || n.inputs.empty() || n.outputs.size() != 1) return v;
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
    auto it = consts_.find(key);
    if (it != consts_.end()) return it->second;
  }
  OptNode n;
  n.set_op(g_->NewOperator("ImmutableTensor"));
  if (locator) n.mutable_op().comp_nodes = std::vector<std::optional<std::string>>{locator};
  Tensor t;
  t.shape = value.shape;
  if (locator) t.comp_node = std::optional<std::string>(*locator);
  t.dtype = DType{};
  t.dtype->type = static_cast<int8_t>(value.dtype);
  if (g_->source().format == DumpFormat::kFbsV2) t.format = TensorFormat{1};
  t.has_value = true;
  t.value = g_->OwnBytes(std::move(bytes));
  n.mutable_op().tensors.push_back(t);
  n.mutable_op().has_tensors_vector = true;
  n.mutable_op().items = {{DumpItem::kTensor, 0}};
  n.outputs.resize(1);
  VarRef v{g_->Add(std::move(n)), 0};
  if (cached) consts_[key] = v;
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

VarRef OprMaker::Elemwise(uint32_t mode, std::vector<VarRef> in) {
  if (Commutative(mode) && in.size() == 2 && g_->var(in[1]).id < g_->var(in[0]).id) {
    std::swap(in[0], in[1]);
  }
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
  OptNode n;
  n.set_op(g_->NewOperator("Elemwise"));
  n.inputs = std::move(in);
  n.outputs.resize(1);
  flatbuffers::FlatBufferBuilder fbb(64);
  n.mutable_op().params.push_back(
      g_->OwnParam(kElemwiseParam, &fbb,
                   param::CreateElemwise(fbb, static_cast<param::ElemwiseMode>(mode)).Union()));
  n.mutable_op().items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "Elemwise:" + std::to_string(mode));
}

VarRef OprMaker::PowC(VarRef x, float exp) {
  if (AlmostEqual(exp, 1.0f)) return x;
  OptNode n;
  n.set_op(g_->NewOperator("PowC"));
  n.inputs = {x};
  n.outputs.resize(1);
  flatbuffers::FlatBufferBuilder fbb(64);
  n.mutable_op().params.push_back(
      g_->OwnParam(kPowCParam, &fbb, param::CreatePowC(fbb, exp).Union()));
  n.mutable_op().items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "PowC:" + FloatBytes(exp));
}

VarRef OprMaker::Broadcast(VarRef x, VarRef shape) {
  OptNode n;
  n.set_op(g_->NewOperator("Broadcast"));
  n.inputs = {x, shape};
  n.outputs.resize(1);
  flatbuffers::FlatBufferBuilder fbb(64);
  n.mutable_op().params.push_back(g_->OwnParam(kEmptyParam, &fbb, param::CreateEmpty(fbb).Union()));
  n.mutable_op().items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "Broadcast");
}

VarRef OprMaker::GetVarShape(VarRef x) {
  constexpr uint8_t kOptionalAxisV1Param = 54;
  constexpr int32_t kNoAxis = 7;
  OptNode n;
  n.set_op(g_->NewOperator("GetVarShape"));
  n.inputs = {x};
  n.outputs.resize(1);
  flatbuffers::FlatBufferBuilder fbb(64);
  n.mutable_op().params.push_back(
      g_->OwnParam(kOptionalAxisV1Param, &fbb, param::CreateOptionalAxisV1(fbb, kNoAxis).Union()));
  n.mutable_op().items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "GetVarShape");
}

VarRef OprMaker::Reduce(VarRef x, uint32_t mode, int32_t axis, uint32_t data_type) {
  constexpr uint8_t kReduceParam = 23;
  OptNode n;
  n.set_op(g_->NewOperator("Reduce"));
  n.inputs = {x};
  n.outputs.resize(1);
  flatbuffers::FlatBufferBuilder fbb(64);
  n.mutable_op().params.push_back(
      g_->OwnParam(kReduceParam, &fbb,
                   param::CreateReduce(fbb, static_cast<param::ReduceMode>(mode), axis,
                                       static_cast<param::ReduceDataType>(data_type))
                       .Union()));
  n.mutable_op().items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "Reduce:" + std::to_string(mode) + ":" + std::to_string(axis) + ":" +
                                  std::to_string(data_type));
}

uint32_t OprMaker::Copy(uint32_t node, const std::vector<VarRef>& inputs, bool keep_var_names) {
  const OptNode& old = g_->node(node);
  std::vector<VarRef> in = inputs;
  std::optional<uint32_t> mode = ElemwiseModeOf(old.op());
  if (mode && Commutative(*mode) && in.size() == 2 && g_->var(in[1]).id < g_->var(in[0]).id) {
    std::swap(in[0], in[1]);
  }
  const std::pair<std::string, std::vector<VarRef>> key{"copy:" + std::to_string(node), in};
  auto same = same_.find(key);
  if (same != same_.end()) return same->second.node;
  OptNode n;
  n.set_op(old.op());
  n.inputs = in;
  n.has_v1_names = old.has_v1_names && keep_var_names;
  for (const OptVar& v : old.outputs) {
    OptVar copy;
    if (keep_var_names) {
      copy.mutable_middle() = v.middle();
      if (v.v1_name()) copy.set_v1_name(*v.v1_name());
    }
    if (keep_var_names) copy.dtype = v.dtype;  // else inferred from the new inputs
    n.outputs.push_back(std::move(copy));
  }
  VarRef v{g_->Add(std::move(n)), 0};
  v = MaybeFold(v);
  same_[key] = v;
  return v.node;
}

}  // namespace graphport::mge::opt
