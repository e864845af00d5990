// Graphs for the optimize tests, built operator by operator as MegEngine's own pass tests
// build theirs (graph_opt_level 0 while building: nothing folds before the pass runs), and
// the numerics check: the reference evaluator on a graph before and after, with seeded inputs.
#ifndef GRAPHPORT_TESTS_CPP_MGE_OPTIMIZE_TEST_GRAPH_H_
#define GRAPHPORT_TESTS_CPP_MGE_OPTIMIZE_TEST_GRAPH_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "mge/optimize/eval/graph_eval.h"
#include "mge/optimize/eval/opr_eval.h"
#include "mge/optimize/opt_graph.h"
#include "mge/optimize/pass.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/cpp_opr_params_generated.h"
#include "mge/schema/dtype_generated.h"
#include "mge/schema/mgb_opr_params_generated.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt::testing {

namespace param = mgb::serialization::fbs::param;

class TestGraph {
 public:
  explicit TestGraph(DumpFormat format = DumpFormat::kFbsV2) {
    source_.format = format;
    source_.model_version = 2;
    source_.has_middle_tensors = true;
    g_ = std::make_unique<OptGraph>(source_, &storage_);
  }
  OptGraph& g() { return *g_; }

  VarRef Input(const std::string& name, Shape shape) {
    OptNode n = Node("Host2DeviceCopy", {});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(
        g_->OwnParam(63, &fbb, param::CreateHost2DeviceCopy(fbb).Union()));
    n.mutable_op().tensors.push_back(TensorOf(name, shape, kF32, ""));
    n.mutable_op().has_tensors_vector = true;
    n.mutable_op().items = {{DumpItem::kParam, 0}, {DumpItem::kTensor, 0}};
    n.mutable_op().name = name;
    return Add(std::move(n), name);
  }
  VarRef Imm(const HostValue& v, const std::string& name = "") {
    OptNode n = Node("ImmutableTensor", {});
    n.mutable_op().tensors.push_back(TensorOf("", v.shape, v.dtype, EncodeValue(v)));
    n.mutable_op().tensors[0].name.reset();
    n.mutable_op().has_tensors_vector = true;
    n.mutable_op().items = {{DumpItem::kTensor, 0}};
    return Add(std::move(n), name);
  }
  VarRef Shared(const std::string& name, const HostValue& v) {
    OptNode n = Node("SharedDeviceTensor", {});
    n.mutable_op().tensors.push_back(TensorOf(name, v.shape, v.dtype, EncodeValue(v)));
    n.mutable_op().has_tensors_vector = true;
    n.mutable_op().items = {{DumpItem::kTensor, 0}};
    n.mutable_op().name = name;
    return Add(std::move(n), name);
  }
  VarRef Elemwise(uint32_t mode, std::vector<VarRef> in, const std::string& name = "") {
    OptNode n = Node("Elemwise", std::move(in));
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(
        17, &fbb, param::CreateElemwise(fbb, static_cast<param::ElemwiseMode>(mode)).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), name);
  }
  VarRef Unary(const std::string& key, VarRef x, const std::string& name = "") {
    OptNode n = Node(key, {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(1, &fbb, param::CreateEmpty(fbb).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), name);
  }
  VarRef WithAxis(const std::string& key, std::vector<VarRef> in, int32_t axis = 7) {
    OptNode n = Node(key, std::move(in));
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(
        g_->OwnParam(54, &fbb, param::CreateOptionalAxisV1(fbb, axis).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  VarRef Concat(std::vector<VarRef> in, int32_t axis) {
    OptNode n = Node("Concat", std::move(in));
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(2, &fbb, param::CreateAxis(fbb, axis).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  VarRef Reduce(VarRef x, uint32_t mode, int32_t axis) {
    OptNode n = Node("Reduce", {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(
        23, &fbb, param::CreateReduce(fbb, static_cast<param::ReduceMode>(mode), axis).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  VarRef Broadcast(VarRef x, VarRef target) {
    OptNode n = Node("Broadcast", {x, target});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(1, &fbb, param::CreateEmpty(fbb).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  VarRef PowC(VarRef x, float exp) {
    OptNode n = Node("PowC", {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(19, &fbb, param::CreatePowC(fbb, exp).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  VarRef TypeCvt(VarRef x, int dtype) {
    OptNode n = Node("TypeCvt", {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(
        g_->OwnParam(67, &fbb,
                     mgb::serialization::fbs::CreateDType(
                         fbb, static_cast<mgb::serialization::fbs::DTypeEnum>(dtype))
                         .Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  VarRef Dimshuffle(VarRef x, const std::vector<int32_t>& pattern, uint32_t ndim) {
    OptNode n = Node("Dimshuffle", {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(
        g_->OwnParam(64, &fbb, param::CreateDimshuffleDirect(fbb, &pattern, ndim).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  VarRef AxisAdd(VarRef x, int32_t axis) {
    OptNode n = Node("AxisAddRemove", {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    std::vector<param::AxisDesc> desc{param::AxisDesc(param::AxisDescMethod_ADD_1, axis)};
    n.mutable_op().params.push_back(
        g_->OwnParam(65, &fbb, param::CreateAxisAddRemoveDirect(fbb, &desc).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  // Copy to comp node `locator`.
  VarRef Copy(VarRef x, const std::string& locator) {
    OptNode n = Node("Copy", {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(1, &fbb, param::CreateEmpty(fbb).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    n.mutable_op().comp_nodes = std::vector<std::optional<std::string>>{locator};
    return Add(std::move(n), "");
  }
  // AxisAddRemove with several descs, applied in order: (remove?, axis).
  VarRef AxisAddRemove(VarRef x, const std::vector<std::pair<bool, int32_t>>& descs) {
    OptNode n = Node("AxisAddRemove", {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    std::vector<param::AxisDesc> desc;
    for (const auto& [remove, axis] : descs) {
      desc.push_back(param::AxisDesc(
          remove ? param::AxisDescMethod_REMOVE : param::AxisDescMethod_ADD_1, axis));
    }
    n.mutable_op().params.push_back(
        g_->OwnParam(65, &fbb, param::CreateAxisAddRemoveDirect(fbb, &desc).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  // BatchNorm(x, scale, bias, mean, variance): six outputs, y last; in inference MegEngine
  // marks the first two (the running mean and variance) volatile, so a file numbers four.
  VarRef BatchNorm(std::vector<VarRef> in, double eps, bool inference) {
    OptNode n = Node("BatchNorm", std::move(in));
    n.outputs.resize(inference ? 4 : 6);
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(
        11, &fbb,
        param::CreateBN(fbb, param::BNParamDim_DIM_1C11,
                        inference ? param::BNFwdMode_INFERENCE : param::BNFwdMode_TRAINING, eps)
            .Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    n.mutable_op().name = "bn";
    uint32_t node = g_->Add(std::move(n));
    return {node, inference ? 3u : 5u};
  }
  // Convolution in NCHW, cross-correlation, stride 1; group weights (G, OCPG, ICPG, FH, FW).
  VarRef Convolution(VarRef x, VarRef w, uint32_t pad = 0, bool group = false) {
    OptNode n = Node("Convolution", {x, w});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(
        3, &fbb,
        param::CreateConvolution(
            fbb, param::ConvolutionV0Mode_CROSS_CORRELATION, pad, pad, 1, 1, 1, 1,
            group ? param::ConvolutionV0Sparse_GROUP : param::ConvolutionV0Sparse_DENSE)
            .Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  VarRef MatrixMul(VarRef a, VarRef b, bool transpose_a = false, bool transpose_b = false) {
    OptNode n = Node("MatrixMul", {a, b});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(
        g_->OwnParam(20, &fbb, param::CreateMatrixMul(fbb, transpose_a, transpose_b).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  // Convolution in NCHW, cross-correlation, with its stride and padding (both axes alike).
  VarRef ConvolutionStrided(VarRef x, VarRef w, uint32_t pad, uint32_t stride, bool group) {
    OptNode n = Node("Convolution", {x, w});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(
        3, &fbb,
        param::CreateConvolution(
            fbb, param::ConvolutionV0Mode_CROSS_CORRELATION, pad, pad, stride, stride, 1, 1,
            group ? param::ConvolutionV0Sparse_GROUP : param::ConvolutionV0Sparse_DENSE)
            .Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  // Pooling in NCHW, no padding, a square window and stride.
  VarRef Pooling(VarRef x, param::PoolingV0Mode mode, uint32_t window, uint32_t stride) {
    OptNode n = Node("Pooling", {x});
    flatbuffers::FlatBufferBuilder fbb(64);
    n.mutable_op().params.push_back(g_->OwnParam(
        9, &fbb, param::CreatePooling(fbb, mode, 0, 0, stride, stride, window, window).Union()));
    n.mutable_op().items = {{DumpItem::kParam, 0}};
    return Add(std::move(n), "");
  }
  void Output(VarRef v) { g_->AddEndpoint(v); }

  // The graph as a Graph (in the dumper's order), which OptimizeForInference reads.
  const Graph& Emit() { return g_->Emit(); }

 private:
  OptNode Node(const std::string& key, std::vector<VarRef> in) {
    OptNode n;
    n.set_op(g_->NewOperator(key));
    if (key == "ShapeHint") {
      // MegEngine registers no serializer for ShapeHint, so it never comes from a file; a
      // graph built in memory has it, and RemoveShapeHint removes it before any dump.
      static const OprClass shape_hint{"ShapeHint", "", "", "ShapeHint"};
      n.mutable_op().cls = &shape_hint;
    }
    EXPECT_NE(n.op().cls, nullptr) << key;
    n.inputs = std::move(in);
    n.outputs.resize(1);
    return n;
  }
  VarRef Add(OptNode n, const std::string& name) {
    if (!name.empty()) n.outputs[0].mutable_middle().name = name;
    return {g_->Add(std::move(n)), 0};
  }
  Tensor TensorOf(const std::string& name, const Shape& shape, int dtype, std::string bytes) {
    Tensor t;
    t.name = name;
    t.shape = shape;
    t.comp_node = std::optional<std::string>("cpu0:0");
    t.dtype = DType{};
    t.dtype->type = static_cast<int8_t>(dtype);
    t.format = TensorFormat{1};
    if (!bytes.empty() || ElementCount(shape) == 0) {
      t.has_value = true;
      t.value = g_->OwnBytes(std::move(bytes));
    }
    return t;
  }

  Graph source_;
  RewrittenGraph storage_;
  std::unique_ptr<OptGraph> g_;
};

// The expression a var stands for, to compare structures the way MegEngine's pass tests
// do: inputs by name, ImmutableTensors by value (up to 4 elements), Elemwise by mode, any
// other operator by class, its inputs in order: "Broadcast(RELU(x),GetVarShape(y))".
//
// `canonical` sorts the operands of commutative modes (ADD, MUL, MAX, MIN, FUSE_ADD_RELU /
// SIGMOID / TANH, FUSE_MUL_ADD3's factors, FUSE_MUL_ADD4's factors and pairs) by their text:
// MegEngine's pass tests compare with an expression built in the same graph, whose
// constructor orders those operands by var id, so they assert the structure up to that order.
// A head that MegEngine's fuse_grain folds: BatchNorm, then a global average pooling written
// as Reshape, Reduce SUM, a division by the count and axis operators (FoldingGlobalPooling).
// The Reshape's last axis is worked out from the input's size, so the shape follows the input
// (as a Reshape built from GetVarShape of a network's feature map does) and the count stays a
// GetVarShape: a constant count would fold away at the first re-made operator, as in MegEngine.
inline void AddGlobalPoolingHead(TestGraph* t) {
  VarRef x = t->Input("x", {1, 2, 3, 4});
  VarRef p = t->Imm(HostValue::Floats({1, 2, 1, 1}, {1.5f, 0.5f}));
  VarRef q = t->Imm(HostValue::Floats({1, 2, 1, 1}, {0.25f, -1.0f}));
  VarRef bn = t->BatchNorm({x, p, q, q, p}, 1e-5, true);
  VarRef flat = t->WithAxis("Reshape", {bn, t->Imm(HostValue::Ints({3}, {1, 2, -1}))}, 2);
  VarRef sum = t->AxisAddRemove(t->Reduce(flat, 0 /*SUM*/, 2), {{true, 2}});
  VarRef count = t->TypeCvt(t->WithAxis("GetVarShape", {flat}, 2), kF32);
  VarRef mean = t->Elemwise(27 /*TRUE_DIV*/, {sum, count});
  t->Output(t->AxisAddRemove(mean, {{false, 2}, {false, 3}}));
}

inline std::string Expr(const OptGraph& g, VarRef v, bool canonical = false) {
  const OptNode& n = g.node(v.node);
  const Operator& op = n.op();
  const std::string key(g.Key(v.node));
  if (key == "Host2DeviceCopy" || key == "SharedDeviceTensor") return op.name.value_or("?");
  if (key == "ImmutableTensor") {
    std::optional<HostValue> value = StoredValue(op, 0);
    if (!value || value->size() > 4) return "imm";
    std::string text = "imm(";
    for (size_t k = 0; k < value->size(); ++k) {
      const float x = value->AsFloat(k);
      text += (k ? "," : "") +
              (x == static_cast<int>(x) ? std::to_string(static_cast<int>(x)) : std::to_string(x));
    }
    return text + ")";
  }
  std::string head = key;
  if (key == "Elemwise") {
    static const std::map<uint32_t, std::string> kModes = {{0, "RELU"},
                                                           {6, "EXP"},
                                                           {11, "NEGATE"},
                                                           {12, "SIGMOID"},
                                                           {14, "TANH"},
                                                           {16, "ADD"},
                                                           {21, "MUL"},
                                                           {22, "POW"},
                                                           {24, "SUB"},
                                                           {27, "TRUE_DIV"},
                                                           {35, "FMA3"},
                                                           {36, "FMA4"},
                                                           {37, "FUSE_ADD_RELU"},
                                                           {38, "FUSE_ADD_SIGMOID"},
                                                           {39, "FUSE_ADD_TANH"},
                                                           {49, "H_SWISH"},
                                                           {51, "FUSE_ADD_H_SWISH"}};
    const auto* p = reinterpret_cast<const flatbuffers::Table*>(op.params[0].table);
    const uint32_t mode = p->GetField<uint32_t>(4, 0);
    auto it = kModes.find(mode);
    head = it != kModes.end() ? it->second : "Elemwise" + std::to_string(mode);
  } else if (key == "TypeCvt") {
    const auto* p = reinterpret_cast<const mgb::serialization::fbs::DType*>(op.params[0].table);
    head = "TypeCvt" + std::to_string(static_cast<int>(p->type()));
  } else if (key == "Reduce") {
    const auto* p = reinterpret_cast<const param::Reduce*>(op.params[0].table);
    head = "Reduce" + std::to_string(static_cast<int>(p->mode()));
    if (p->data_type() != param::ReduceDataType_DEFAULT) {
      head += "dt" + std::to_string(static_cast<int>(p->data_type()));
    }
  } else if (key == "AdaptivePooling") {
    const auto* p = reinterpret_cast<const param::AdaptivePooling*>(op.params[0].table);
    head = p->mode() == param::PoolingV0Mode_MAX_ ? "AdaptivePoolingMAX" : "AdaptivePoolingAVG";
  } else if (key == "PowC") {
    head = "PowC" + std::to_string(reinterpret_cast<const param::PowC*>(op.params[0].table)->exp());
  }
  std::vector<std::string> in;
  for (const VarRef& r : n.inputs) in.push_back(Expr(g, r, canonical));
  if (canonical && key == "Elemwise") {
    static const std::set<std::string> kCommutative = {
        "ADD",          "MUL", "Elemwise18", "Elemwise19", "FUSE_ADD_RELU", "FUSE_ADD_SIGMOID",
        "FUSE_ADD_TANH"};
    if (kCommutative.count(head) && in.size() == 2) std::sort(in.begin(), in.end());
    if ((head == "FMA3" && in.size() == 3) || (head == "FMA4" && in.size() == 4)) {
      std::sort(in.begin(), in.begin() + 2);
    }
    if (head == "FMA4" && in.size() == 4) {
      std::sort(in.begin() + 2, in.end());
      if (in[2] < in[0]) {
        std::swap(in[0], in[2]);
        std::swap(in[1], in[3]);
      }
    }
  }
  std::string text = head + "(";
  for (size_t k = 0; k < in.size(); ++k) text += (k ? "," : "") + in[k];
  return text + ")";
}

// The outputs of `graph` on inputs drawn from a seeded generator (each Host2DeviceCopy from
// the seed and its name), computed by the reference evaluator; float reductions left to right.
inline std::vector<HostValue> Run(const Graph& graph, uint32_t seed) {
  RewrittenGraph scratch;
  OptGraph g(graph, &scratch);
  GraphEvaluator eval(g, EvalOptions{false});
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  for (uint32_t i = 0; i < g.size(); ++i) {
    if (g.Key(i) != "Host2DeviceCopy") continue;
    // Seeded by the input's name too: a pass may change the order the inputs are written in.
    const Operator& op = g.node(i).op();
    const std::string name = g.var({i, 0}).middle().name ? *g.var({i, 0}).middle().name
                             : op.tensors.empty()        ? op.name.value_or("")
                                                         : op.tensors[0].name.value_or("");
    std::seed_seq seq(name.begin(), name.end());
    std::vector<uint32_t> words(1);
    seq.generate(words.begin(), words.end());
    std::mt19937 rng(seed ^ words[0]);
    const Shape& shape = *g.var({i, 0}).shape;
    std::vector<float> values(ElementCount(shape));
    for (float& v : values) v = dist(rng);
    eval.SetInput(i, HostValue::Floats(shape, values));
  }
  std::vector<HostValue> out;
  for (const VarRef& v : g.endpoints()) {
    std::string why;
    std::optional<HostValue> value = eval.Value(v, &why);
    EXPECT_TRUE(value) << why;
    out.push_back(value ? *value : HostValue{});
  }
  return out;
}

// Outputs equal within `rel` relative (absolute near zero).
inline void ExpectSameOutputs(const Graph& before, const Graph& after, double rel = 1e-6) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    std::vector<HostValue> a = Run(before, seed), b = Run(after, seed);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k].shape, b[k].shape) << "output " << k;
      ASSERT_EQ(a[k].size(), b[k].size());
      for (size_t e = 0; e < a[k].size(); ++e) {
        const double x = a[k].AsFloat(e), y = b[k].AsFloat(e);
        EXPECT_LE(std::fabs(x - y), rel * std::max(1.0, std::fabs(x)))
            << "output " << k << " element " << e << " seed " << seed;
      }
    }
  }
}

// Outputs equal within `rel` of the output's largest magnitude (the normwise relative error):
// a rewrite that moves a scale into convolution weights rounds each product differently, and
// where a sum of many products cancels to near zero the elementwise relative error says
// nothing about the rewrite.
inline void ExpectSameOutputsNormwise(const Graph& before, const Graph& after, double rel) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    std::vector<HostValue> a = Run(before, seed), b = Run(after, seed);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k].shape, b[k].shape) << "output " << k;
      double scale = 1.0, worst = 0.0;
      for (size_t e = 0; e < a[k].size(); ++e)
        scale = std::max(scale, double{std::fabs(a[k].AsFloat(e))});
      for (size_t e = 0; e < a[k].size(); ++e) {
        worst = std::max(worst, std::fabs(double{a[k].AsFloat(e)} - b[k].AsFloat(e)));
      }
      EXPECT_LE(worst, rel * scale) << "output " << k << " seed " << seed;
    }
  }
}

// Runs `pass` on the graph `t` built: the expression of each endpoint after it, with the
// numerics check of the graph before against the graph after.
template <typename Pass>
std::vector<std::string> ApplyPass(TestGraph* t, Pass pass, PassReport* report = nullptr,
                                   bool canonical = false) {
  const Graph& before = t->Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  PassReport r = pass(&g);
  if (report != nullptr) *report = r;
  std::vector<std::string> exprs;
  for (const VarRef& v : g.endpoints()) exprs.push_back(Expr(g, v, canonical));
  ExpectSameOutputs(before, g.Emit());
  return exprs;
}

// Float32 values start, start + step, ... filling `shape`: inputs and weights whose every
// element differs, so that a misplaced element shows.
inline HostValue Ramp(Shape shape, float start, float step) {
  std::vector<float> v(ElementCount(shape));
  for (size_t k = 0; k < v.size(); ++k) v[k] = start + step * static_cast<float>(k);
  return HostValue::Floats(std::move(shape), std::move(v));
}

}  // namespace graphport::mge::opt::testing

#endif  // GRAPHPORT_TESTS_CPP_MGE_OPTIMIZE_TEST_GRAPH_H_
