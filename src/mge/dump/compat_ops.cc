// The operators the converters make, as MegEngine's SymbolVar constructors make them: the
// constants ImmutableTensor::make caches, Elemwise::make's input order and in-place rewrites,
// and one maker per operator class with its param table.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "mge/dump/compat_graph.h"
#include "mge/elemwise_order.h"
#include "mge/param_copy.h"
#include "mge/schema/cpp_opr_params_generated.h"
#include "mge/schema/mgb_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::compat {
namespace {

namespace param = mgb::serialization::fbs::param;

// MegEngine's almost_equal for floats (one unit in the last place).
bool AlmostEqual(float x, float y) {
  return std::fabs(x - y) < std::numeric_limits<float>::epsilon() * std::fabs(x + y) ||
         std::fabs(x - y) < std::numeric_limits<float>::min();
}

std::string FloatKey(float v) {
  std::string s(4, '\0');
  std::memcpy(s.data(), &v, 4);
  return s;
}

}  // namespace

// ImmutableTensor::make with a config holding the reference var's comp node; small values
// are cached, so the same value, dtype and comp node is the same operator.
Ref Builder::ConstTensor(int dtype, const std::string& bytes, const std::vector<uint32_t>& shape,
                         Ref like) {
  std::optional<std::string> locator = LocatorOf(like);
  std::string shape_key;
  for (uint32_t d : shape) shape_key += "|" + std::to_string(d);
  auto key = std::make_tuple(bytes + shape_key, dtype, locator.value_or(""));
  auto it = consts_.find(key);
  if (it != consts_.end()) return {it->second, 0};
  Node n;
  n.op = NewOp("ImmutableTensor");
  if (locator) n.op.comp_nodes = std::vector<std::optional<std::string>>{locator};
  Tensor t;
  t.shape = shape;
  if (locator) t.comp_node = std::optional<std::string>(*locator);
  t.dtype = DType{};
  t.dtype->type = static_cast<int8_t>(dtype);
  if (g_.format == DumpFormat::kFbsV2) t.format = TensorFormat{1};
  auto value = std::make_unique<std::string>(bytes);
  t.has_value = true;
  t.value = *value;
  out_->values.push_back(std::move(value));
  n.op.tensors.push_back(t);
  n.op.has_tensors_vector = true;
  n.op.items = {{DumpItem::kTensor, 0}};
  n.middle.resize(1);
  n.dtypes = {dtype};
  n.rank = next_rank_++;
  uint32_t index = Add(std::move(n));
  consts_[key] = index;
  return {index, 0};
}

Ref Builder::Const(float v, Ref like) { return ConstTensor(kFloat32, FloatKey(v), {1}, like); }

Ref Builder::ConstInt32(const std::vector<int32_t>& v, const std::vector<uint32_t>& shape,
                        Ref like) {
  std::string bytes(v.size() * 4, '\0');
  if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
  return ConstTensor(kInt32, bytes, shape, like);
}

std::optional<float> Builder::ScalarConstOf(Ref r) const {
  const Operator& op = nodes_[r.node].op;
  if (op.cls == nullptr || op.cls->key != "ImmutableTensor" || op.tensors.size() != 1) {
    return std::nullopt;
  }
  const Tensor& t = op.tensors[0];
  if (!t.dtype || t.value.size() != 4) return std::nullopt;
  if (t.dtype->type == kFloat32) {
    float f;
    std::memcpy(&f, t.value.data(), 4);
    return f;
  }
  if (t.dtype->type == kInt32) {
    int32_t i;
    std::memcpy(&i, t.value.data(), 4);
    return static_cast<float>(i);
  }
  return std::nullopt;
}

void Builder::SortByRank(std::vector<Ref>* in, size_t from, size_t to) const {
  std::stable_sort(in->begin() + from, in->begin() + to, [&](const Ref& a, const Ref& b) {
    return std::make_pair(nodes_[a.node].rank, a.output) <
           std::make_pair(nodes_[b.node].rank, b.output);
  });
}

Ref Builder::Elemwise(uint32_t mode, std::vector<Ref> in) {
  if (CommutativeElemwise(mode) && in.size() == 2) SortByRank(&in, 0, 2);
  if (mode == FUSE_MUL_ADD3) SortByRank(&in, 0, 2);
  // The in-place rewrites of Elemwise::make: a + 0 and a * 1 are a, a * 0 is a zero fill.
  if ((mode == ADD || mode == MUL) && in.size() == 2) {
    for (int k = 0; k < 2; ++k) {
      std::optional<float> c = ScalarConstOf(in[k]);
      if (!c) continue;
      if (AlmostEqual(*c, mode == ADD ? 0.0f : 1.0f)) return in[1 - k];
      if (mode == MUL && AlmostEqual(*c, 0.0f)) {
        Unsupported(
            "MegEngine replaces a product with a constant 0 by a zero fill, which "
            "graphport does not emulate");
      }
      break;  // MegEngine looks at the other input only when the first is no constant
    }
  }
  Node n = NewNode("Elemwise", in, in.empty() ? std::nullopt : DTypeOf(in[0]));
  flatbuffers::FlatBufferBuilder fbb(64);
  n.op.params.push_back(
      OwnedParam(kElemwiseParam, &fbb,
                 param::CreateElemwise(fbb, static_cast<param::ElemwiseMode>(mode)).Union()));
  n.op.items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "Elemwise:" + std::to_string(mode));
}

// TypeCvt::make: the input itself when the dtype already matches.
Ref Builder::TypeCvt(Ref x, int dtype) {
  if (DTypeOf(x) && *DTypeOf(x) == dtype) return x;
  Node n = NewNode("TypeCvt", {x}, dtype);
  flatbuffers::FlatBufferBuilder fbb(64);
  DType d;
  d.type = static_cast<int8_t>(dtype);
  n.op.params.push_back(OwnedParam(kDTypeParam, &fbb, BuildDType(&fbb, d)));
  n.op.items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "TypeCvt:" + std::to_string(dtype));
}

Ref Builder::Reduce(Ref x, uint32_t mode, int32_t axis) {
  Node n = NewNode("Reduce", {x}, DTypeOf(x));
  flatbuffers::FlatBufferBuilder fbb(64);
  n.op.params.push_back(
      OwnedParam(kReduceParam, &fbb,
                 param::CreateReduce(fbb, static_cast<param::ReduceMode>(mode), axis).Union()));
  n.op.items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "Reduce:" + std::to_string(mode) + ":" + std::to_string(axis));
}

Ref Builder::PowC(Ref x, float exp) {
  Node n = NewNode("PowC", {x}, DTypeOf(x));
  flatbuffers::FlatBufferBuilder fbb(64);
  n.op.params.push_back(OwnedParam(kPowCParam, &fbb, param::CreatePowC(fbb, exp).Union()));
  n.op.items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "PowC:" + FloatKey(exp));
}

Ref Builder::GetVarShape(Ref x) {
  Node n = NewNode("GetVarShape", {x}, kInt32);
  flatbuffers::FlatBufferBuilder fbb(64);
  n.op.params.push_back(
      OwnedParam(kOptionalAxisV1Param, &fbb, param::CreateOptionalAxisV1(fbb, 7).Union()));
  n.op.items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "GetVarShape");
}

Ref Builder::Reshape(Ref x, Ref shape, int32_t unspec_axis) {
  Node n = NewNode("Reshape", {x, shape}, DTypeOf(x));
  flatbuffers::FlatBufferBuilder fbb(64);
  n.op.params.push_back(OwnedParam(kOptionalAxisV1Param, &fbb,
                                   param::CreateOptionalAxisV1(fbb, unspec_axis).Union()));
  n.op.items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "Reshape:" + std::to_string(unspec_axis));
}

// Subtensor with one index item on axis 0 that has only an end: the dumper writes the
// IndexDescMaskDump of its items, then the index vars follow the data input.
Ref Builder::SubtensorEnd(Ref x, Ref end) {
  Node n = NewNode("Subtensor", {x, end}, DTypeOf(x));
  flatbuffers::FlatBufferBuilder fbb(64);
  std::vector<param::IndexDescMaskItem> items = {
      param::IndexDescMaskItem(0, false, true, false, false)};
  n.op.params.push_back(
      OwnedParam(kIndexDescParam, &fbb, param::CreateIndexDescMaskDumpDirect(fbb, &items).Union()));
  n.op.items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "Subtensor:end0");
}

Ref Builder::Concat(std::vector<Ref> in, int32_t axis) {
  std::optional<int> dtype = in.empty() ? std::nullopt : DTypeOf(in[0]);
  Node n = NewNode("Concat", std::move(in), dtype);
  flatbuffers::FlatBufferBuilder fbb(64);
  n.op.params.push_back(OwnedParam(kAxisParam, &fbb, param::CreateAxis(fbb, axis).Union()));
  n.op.items = {{DumpItem::kParam, 0}};
  return Insert(std::move(n), "Concat:" + std::to_string(axis));
}

// RNG operators are never deduplicated.
Ref Builder::UniformRng(Ref shape, uint64_t seed) {
  Node n = NewNode("UniformRNG", {shape}, kFloat32);
  flatbuffers::FlatBufferBuilder fbb(64);
  n.op.params.push_back(
      OwnedParam(kUniformRngParam, &fbb, param::CreateUniformRNG(fbb, seed).Union()));
  n.op.items = {{DumpItem::kParam, 0}};
  return {Add(std::move(n)), 0};
}

}  // namespace graphport::mge::compat
