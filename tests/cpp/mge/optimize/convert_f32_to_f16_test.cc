// ConvertF32ToF16 (enable_ioc16 and enable_io16xc32) on the graphs of MegEngine's
// Float16IOFloat32Compute* and Float32TOFloat16* tests (research megengine_optimize.md §5.3,
// §4.3): the dtypes of the vars, the TypeCvt after each Float32 source and back to Float32 at
// each output, compute_mode and Reduce's data_type; the numerics of the converted graph
// against the loaded one within 1e-3; MegEngine's float16 rounding of the constants it
// converts; the optimize_options word; and the corpus files converted, verified, loaded back
// and converted again to the same bytes in FBS_V2, FBS and FBS 8.14.
#include "mge/optimize/convert_f32_to_f16/convert_f32_to_f16.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "mge/optimize/eval/half.h"
#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/fuse_conv_bias_nonlin/fuse_conv_bias_nonlin.h"
#include "mge/read.h"
#include "mge_test_util.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::Expr;
using testing::TestGraph;
namespace fbs = mgb::serialization::fbs;

// The graph after the pass(es), kept for looking at; Emit() only at the end (numerics).
struct Converted {
  const Graph* before = nullptr;
  RewrittenGraph out;
  std::unique_ptr<OptGraph> g;
  PassReport report;

  std::string ExprOf(size_t endpoint) const { return Expr(*g, g->endpoints()[endpoint], true); }
  VarRef Endpoint(size_t k) const { return g->endpoints()[k]; }
  // Input `k` of the operator making `v`.
  VarRef In(VarRef v, size_t k = 0) const { return g->node(v.node).inputs.at(k); }
  std::optional<int> DType(VarRef v) const { return g->var(v).dtype; }
};

template <typename... Pass>
std::unique_ptr<Converted> Convert(TestGraph* t, Pass... passes) {
  auto c = std::make_unique<Converted>();
  c->before = &t->Emit();
  c->g = std::make_unique<OptGraph>(*c->before, &c->out);
  for (auto pass : {passes...}) c->report = pass(c->g.get());
  return c;
}

// Weights exactly representable in float16 (multiples of 1/8 up to 4), so that what the
// numerics check measures is the float16 rounding of the activations.
HostValue Weights(const Shape& shape) {
  std::vector<float> v(ElementCount(shape));
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(static_cast<int>(k % 17) - 8) / 8;
  return HostValue::Floats(shape, v);
}

uint32_t ComputeMode(const OptGraph& g, uint32_t node) {
  std::optional<ConvParams> p = ConvParamsOf(g, node);
  EXPECT_TRUE(p) << "operator " << node << " is no convolution";
  return p ? p->compute_mode : 99;
}

uint32_t MatrixMulComputeMode(const OptGraph& g, uint32_t node) {
  const Operator& op = g.node(node).op();
  return reinterpret_cast<const testing::param::MatrixMul*>(op.params.at(0).table)->compute_mode();
}

// Float16IOFloat32Compute: x -> conv -> y; the output stays Float32, fed by the Float16
// convolution, which computes in Float32.
TEST(ConvertF32ToF16, Float16IOFloat32ComputeConvolution) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3, 8, 8});
  VarRef w = t.Shared("w", Weights({4, 3, 3, 3}));
  t.Output(t.Convolution(x, w, 1));
  auto c = Convert(&t, ConvertF32ToF16Io16xc32);
  EXPECT_TRUE(c->report.changed);
  EXPECT_EQ(c->ExprOf(0), "TypeCvt0(Convolution(TypeCvt9(x),TypeCvt9(w)))");
  const VarRef y = c->Endpoint(0), conv = c->In(y);
  EXPECT_EQ(c->DType(y), kF32);
  EXPECT_EQ(c->DType(conv), kF16);
  EXPECT_EQ(c->DType(c->In(conv, 0)), kF16);
  EXPECT_EQ(c->DType(c->In(conv, 1)), kF16);
  EXPECT_EQ(ComputeMode(*c->g, conv.node), testing::param::ConvolutionV1ComputeMode_FLOAT32);
  testing::ExpectSameOutputsNormwise(*c->before, c->g->Emit(), 1e-3);
}

// Float32TOFloat16: relu(conv(x, w) + b) computed in Float16 throughout (compute_mode stays
// DEFAULT), the bias constant converted at once, a TypeCvt back to Float32 at the end.
TEST(ConvertF32ToF16, Float32ToFloat16ConvBiasRelu) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 3, 6, 6});
  VarRef w = t.Shared("w", Weights({4, 3, 3, 3}));
  VarRef b = t.Imm(HostValue::Floats({1, 4, 1, 1}, {0.5f, -1, 2, 0.25f}));
  t.Output(t.Elemwise(kRelu, {t.Elemwise(kAdd, {t.Convolution(x, w, 1), b})}, "y"));
  auto c = Convert(&t, ConvertF32ToF16Ioc16);
  EXPECT_EQ(
      c->ExprOf(0),
      "TypeCvt0(RELU(ADD(Convolution(TypeCvt9(x),TypeCvt9(w)),imm(0.500000,-1,2,0.250000))))");
  const VarRef y = c->Endpoint(0), relu = c->In(y), add = c->In(relu);
  EXPECT_EQ(c->DType(y), kF32);
  EXPECT_EQ(c->DType(relu), kF16);
  EXPECT_EQ(c->DType(add), kF16);
  EXPECT_EQ(c->DType(c->In(add, 1)), kF16);  // the bias, folded into a Float16 constant
  EXPECT_EQ(c->g->Key(c->In(add, 1).node), "ImmutableTensor");
  EXPECT_EQ(ComputeMode(*c->g, c->In(add, 0).node),
            testing::param::ConvolutionV1ComputeMode_DEFAULT);
  // The output keeps its name: the TypeCvt back takes it from the Float16 var it replaces.
  EXPECT_EQ(c->g->var(y).middle().name, "y");
  testing::ExpectSameOutputsNormwise(*c->before, c->g->Emit(), 1e-3);
}

// Float32TOFloat16C32: the ConvBias FuseConvBiasNonlin made computes in Float32 under
// io16xc32.
TEST(ConvertF32ToF16, Float32ToFloat16C32ConvBiasComputesInFloat32) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 3, 6, 6});
  VarRef w = t.Shared("w", Weights({4, 3, 3, 3}));
  VarRef b = t.Shared("b", HostValue::Floats({1, 4, 1, 1}, {1, 2, 3, 4}));
  t.Output(t.Elemwise(kFuseAddRelu, {t.Convolution(x, w, 1), b}, "y"));
  auto c = Convert(&t, FuseConvBiasNonlin, ConvertF32ToF16Io16xc32);
  EXPECT_EQ(c->ExprOf(0), "TypeCvt0(ConvBiasForward(TypeCvt9(x),TypeCvt9(w),TypeCvt9(b)))");
  const VarRef conv_bias = c->In(c->Endpoint(0));
  EXPECT_EQ(c->DType(conv_bias), kF16);
  std::optional<ConvParams> p = ConvParamsOf(*c->g, conv_bias.node);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->compute_mode, testing::param::ConvolutionV1ComputeMode_FLOAT32);
  EXPECT_EQ(p->nonline, kNonlineRelu);
  EXPECT_EQ(p->pad_h, 1u);  // the other fields as they were
}

// Float32TOFloat16Endpoints: both outputs stay Float32, each fed by a Float16 var.
TEST(ConvertF32ToF16, EveryOutputGoesBackToFloat32) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 5});
  VarRef one = t.Imm(HostValue::Floats({1}, {1.5f}));
  t.Output(t.Elemwise(kAdd, {x, one}, "y0"));
  t.Output(t.Elemwise(kRelu, {x}, "y1"));
  auto c = Convert(&t, ConvertF32ToF16Ioc16);
  for (size_t k = 0; k < 2; ++k) {
    const VarRef y = c->Endpoint(k);
    EXPECT_EQ(c->g->Key(y.node), "TypeCvt");
    EXPECT_EQ(c->DType(y), kF32);
    EXPECT_EQ(c->DType(c->In(y)), kF16);
  }
  EXPECT_EQ(c->ExprOf(0), "TypeCvt0(ADD(TypeCvt9(x),imm(1.500000)))");
  EXPECT_EQ(c->ExprOf(1), "TypeCvt0(RELU(TypeCvt9(x)))");
  testing::ExpectSameOutputs(*c->before, c->g->Emit(), 1e-3);
}

TEST(ConvertF32ToF16, MatrixMulComputesInFloat32UnderIo16xc32Only) {
  for (bool f32_comp : {true, false}) {
    TestGraph t;
    VarRef a = t.Input("a", {4, 6});
    VarRef b = t.Shared("b", Weights({6, 3}));
    t.Output(t.Elemwise(kMul, {t.MatrixMul(a, b), t.Imm(HostValue::Floats({1}, {0.5f}))}));
    auto c = Convert(&t, f32_comp ? ConvertF32ToF16Io16xc32 : ConvertF32ToF16Ioc16);
    SCOPED_TRACE(f32_comp ? "io16xc32" : "ioc16");
    EXPECT_EQ(c->ExprOf(0), "TypeCvt0(MUL(MatrixMul(TypeCvt9(a),TypeCvt9(b)),imm(0.500000)))");
    const VarRef mul = c->In(c->Endpoint(0));
    const VarRef mm = c->g->Key(c->In(mul, 0).node) == "MatrixMul" ? c->In(mul, 0) : c->In(mul, 1);
    EXPECT_EQ(c->DType(mm), kF16);
    EXPECT_EQ(MatrixMulComputeMode(*c->g, mm.node),
              f32_comp ? testing::param::MatrixMulV1ComputeMode_FLOAT32
                       : testing::param::MatrixMulV1ComputeMode_DEFAULT);
    testing::ExpectSameOutputsNormwise(*c->before, c->g->Emit(), 1e-3);
  }
}

TEST(ConvertF32ToF16, ReduceAccumulatesInFloat32UnderIo16xc32) {
  for (bool f32_comp : {true, false}) {
    TestGraph t;
    VarRef x = t.Input("x", {3, 16});
    t.Output(t.Reduce(x, 0 /*SUM*/, 1));
    auto c = Convert(&t, f32_comp ? ConvertF32ToF16Io16xc32 : ConvertF32ToF16Ioc16);
    SCOPED_TRACE(f32_comp ? "io16xc32" : "ioc16");
    // FLOAT_O16xC32 is data_type 3; ioc16 leaves DEFAULT.
    EXPECT_EQ(c->ExprOf(0),
              f32_comp ? "TypeCvt0(Reduce0dt3(TypeCvt9(x)))" : "TypeCvt0(Reduce0(TypeCvt9(x)))");
    EXPECT_EQ(c->DType(c->In(c->Endpoint(0))), kF16);
    testing::ExpectSameOutputsNormwise(*c->before, c->g->Emit(), 1e-3);
  }
}

// TypeCvt to Float32 becomes a TypeCvt to Float16; one to another dtype is made again on the
// Float16 var and the output keeps that dtype (no TypeCvt back).
TEST(ConvertF32ToF16, TypeCvtToFloat32BecomesFloat16AndOthersStay) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3});
  VarRef i = t.TypeCvt(x, kI32);
  t.Output(i);
  t.Output(t.Elemwise(kAdd, {x, t.TypeCvt(i, kF32)}));
  auto c = Convert(&t, ConvertF32ToF16Ioc16);
  EXPECT_EQ(c->ExprOf(0), "TypeCvt4(TypeCvt9(x))");
  EXPECT_EQ(c->DType(c->Endpoint(0)), kI32);
  EXPECT_EQ(c->ExprOf(1), "TypeCvt0(ADD(TypeCvt9(TypeCvt4(TypeCvt9(x))),TypeCvt9(x)))");
}

// Float16IOFloat32ComputeWarpPerspective: the matrix stays Float32 (the Float32 source of the
// TypeCvt the pass put after it), the image is Float16.
TEST(ConvertF32ToF16, WarpPerspectiveKeepsItsMatrixFloat32) {
  TestGraph t;
  VarRef x = t.Input("x", {1, 3, 8, 8});
  VarRef mat = t.Input("mat", {1, 3, 3});
  OptGraph& g = t.g();
  OptNode warp;
  warp.set_op(g.NewOperator("WarpPerspective"));
  ASSERT_NE(warp.op().cls, nullptr);
  flatbuffers::FlatBufferBuilder fbb(64);
  warp.mutable_op().params.push_back(
      g.OwnParam(fbs::OperatorParam_param_WarpPerspective, &fbb,
                 testing::param::CreateWarpPerspective(fbb).Union()));
  warp.mutable_op().items = {{DumpItem::kParam, 0}};
  warp.inputs = {x, mat};
  warp.outputs.resize(1);
  t.Output({g.Add(std::move(warp)), 0});
  auto c = Convert(&t, ConvertF32ToF16Io16xc32);
  EXPECT_EQ(c->ExprOf(0), "TypeCvt0(WarpPerspective(TypeCvt9(x),mat))");
  const VarRef w = c->In(c->Endpoint(0));
  EXPECT_EQ(c->DType(w), kF16);
  EXPECT_EQ(c->DType(c->In(w, 1)), kF32);
}

// An operator outside MegEngine's table whose outputs do not simply take the input's dtype:
// refused, naming it and the kwarg.
TEST(ConvertF32ToF16, AnOperatorItCannotTellIsRefused) {
  TestGraph t;
  VarRef x = t.Input("x", {2, 3});
  t.Output(t.Unary("ElemwiseMultiType", x, "q"));
  const Graph& before = t.Emit();
  RewrittenGraph out;
  OptGraph g(before, &out);
  try {
    ConvertF32ToF16Io16xc32(&g);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(e.where().option, "enableIo16xc32");
    EXPECT_NE(std::string(e.what()).find("enable_io16xc32"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ElemwiseMultiType"), std::string::npos) << e.what();
  }
}

// The float16 bits of a Float16 ImmutableTensor.
std::vector<uint16_t> HalfBits(const OptGraph& g, VarRef v) {
  std::optional<HostValue> value = StoredValue(g.node(v.node).op(), 0);
  EXPECT_TRUE(value);
  EXPECT_EQ(value->dtype, kF16);
  const std::string bytes = EncodeValue(*value);
  std::vector<uint16_t> bits(bytes.size() / 2);
  std::memcpy(bits.data(), bytes.data(), bytes.size());
  return bits;
}

float FloatOfBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// The constants the pass converts are rounded as MegEngine's half library rounds: to
// nearest, ties away from zero; 65520 overflows to infinity; [2^-25, 2^-24) gives the
// smallest subnormal; a NaN keeps the top of its payload.
TEST(ConvertF32ToF16, ConstantsAreRoundedTiesAwayFromZero) {
  TestGraph t;
  VarRef x = t.Input("x", {7});
  const float tie = 1.0f + std::ldexp(1.0f, -11);  // halfway between 0x3c00 and 0x3c01
  VarRef c7 = t.Imm(HostValue::Floats({7}, {tie, -tie, 65520.0f, 65519.0f, std::ldexp(1.0f, -25),
                                            std::ldexp(3.0f, -16), FloatOfBits(0x7fc00000)}));
  t.Output(t.Elemwise(kAdd, {x, c7}));
  auto c = Convert(&t, ConvertF32ToF16Ioc16);
  const VarRef add = c->In(c->Endpoint(0));
  const VarRef imm =
      c->g->Key(c->In(add, 1).node) == "ImmutableTensor" ? c->In(add, 1) : c->In(add, 0);
  ASSERT_EQ(c->g->Key(imm.node), "ImmutableTensor");
  // IEEE ties-to-even would give 0x3c00 / 0xbc00 for the first two.
  EXPECT_EQ(HalfBits(*c->g, imm),
            (std::vector<uint16_t>{0x3c01, 0xbc01, 0x7c00, 0x7bff, 0x0001, 0x0300, 0x7e00}));
}

// optimize_options as MegEngine serializes it: bit 0 f16_io_f32_comp, bit 1 f16_io_comp,
// next to fuse_grain's bit 6; info lists the pass.
TEST(ConvertF32ToF16, OptimizeOptionsWordAndInfo) {
  auto l = mge::testing::Load(mge::testing::ReadCorpusFile(mge::testing::kConvFile));
  const std::pair<nlohmann::json, uint64_t> cases[] = {
      {{{"enableIo16xc32", true}}, 65},
      {{{"enableIoc16", true}}, 66},
      {{{"enableIo16xc32", true}, {"enableIoc16", true}}, 67},
      {{{"enableIo16xc32", true}, {"enableFuseGrain", false}}, 1},
  };
  for (const auto& [options, word] : cases) {
    SCOPED_TRACE(options.dump());
    mge::testing::Exported e = mge::testing::Export(l.model.get(), options);
    std::unique_ptr<MgeFile> back = ReadMgeFile(e.model(), "written");
    EXPECT_EQ(back->graphs.at(0).metadata.optimize_options, word);
    EXPECT_EQ(e.info["optimized"]["optimizeOptions"], word);
    std::vector<std::string> passes;
    for (const auto& p : e.info["optimized"]["passes"]) passes.push_back(p["pass"]);
    EXPECT_NE(std::find_if(passes.begin(), passes.end(),
                           [](const std::string& p) { return p.rfind("ConvertF32ToF16", 0) == 0; }),
              passes.end())
        << e.info["optimized"].dump();
  }
}

std::vector<std::string> OperatorClasses(const Graph& graph) {
  std::vector<std::string> classes;
  for (const Operator& op : graph.oprs) classes.push_back(op.cls ? op.cls->key : "?");
  std::sort(classes.begin(), classes.end());
  return classes;
}

// The corpus files converted in each format: verified, loaded back and converted again. The
// second conversion is MegEngine's rules at work on a converted model, not a byte-identity:
// the input's var now has an explicit name (written by the first dump), which the new TypeCvt
// after it inherits, and a commutative Elemwise reading a constant converted in the first
// dump (now the older var) orders its inputs the other way. From the second dump on it is a
// fixed point, and the operators are the same throughout.
TEST(ConvertF32ToF16, CorpusDumpsVerifyLoadBackAndReachAFixedPoint) {
  const nlohmann::json formats[] = {
      nlohmann::json::object(),
      {{"dumpFormat", "FBS"}},
      {{"dumpFormat", "FBS"}, {"compatOlderVersion", "8.14"}},
  };
  for (const std::string& name : mge::testing::CorpusFiles()) {
    auto l = mge::testing::Load(mge::testing::ReadCorpusFile(name));
    for (const char* kwarg : {"enableIo16xc32", "enableIoc16"}) {
      for (nlohmann::json options : formats) {
        options[kwarg] = true;
        SCOPED_TRACE(name + " " + options.dump());
        const std::string once = mge::testing::Export(l.model.get(), options).model();
        if (options.contains("dumpFormat")) {
          EXPECT_TRUE(mge::testing::VerifiesAsV1(once));
        } else {
          EXPECT_TRUE(mge::testing::VerifiesAsV2(once));
        }
        auto back = mge::testing::Load(once);
        const std::string twice = mge::testing::Export(back.model.get(), options).model();
        auto back_again = mge::testing::Load(twice);
        EXPECT_EQ(mge::testing::Export(back_again.model.get(), options).model(), twice);
        std::unique_ptr<MgeFile> first = ReadMgeFile(once, "first");
        std::unique_ptr<MgeFile> second = ReadMgeFile(twice, "second");
        const Graph& graph = first->graphs.at(0);
        EXPECT_EQ(OperatorClasses(graph), OperatorClasses(second->graphs.at(0)));
        // The input is converted to Float16 and the output back to Float32.
        int to_half = 0, to_float = 0;
        for (const Operator& op : graph.oprs) {
          if (op.cls == nullptr || op.cls->key != "TypeCvt") continue;
          const auto type = reinterpret_cast<const fbs::DType*>(op.params.at(0).table)->type();
          to_half += type == fbs::DTypeEnum_Float16;
          to_float += type == fbs::DTypeEnum_Float32;
        }
        EXPECT_EQ(to_half, 1);
        EXPECT_EQ(to_float, 1);
        EXPECT_EQ(graph.oprs.at(graph.vars.at(graph.outputs.at(0).compact_id).opr).cls->key,
                  "TypeCvt");
      }
    }
  }
}

// The reshape model's numerics: the converted file against the default dump (whose input
// var has the same written name, which seeds the inputs), within 1e-3 (the evaluator has no
// ConvolutionBackwardFilter for the other corpus file).
TEST(ConvertF32ToF16, CorpusNumericsWithinATolerance) {
  auto l = mge::testing::Load(mge::testing::ReadCorpusFile(mge::testing::kReshapeFile));
  const std::string original = mge::testing::Export(l.model.get(), nullptr).model();
  for (const char* kwarg : {"enableIo16xc32", "enableIoc16"}) {
    const std::string converted = mge::testing::Export(l.model.get(), {{kwarg, true}}).model();
    std::unique_ptr<MgeFile> a = ReadMgeFile(original, "original");
    std::unique_ptr<MgeFile> b = ReadMgeFile(converted, "converted");
    testing::ExpectSameOutputs(a->graphs.at(0), b->graphs.at(0), 1e-3);
  }
}

}  // namespace
}  // namespace graphport::mge::opt
