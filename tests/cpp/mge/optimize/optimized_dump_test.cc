// Network.dump's optimize_for_inference through the family's export: the default dump
// optimizes and writes Network.dump's metadata (optimize_options 64), each kwarg's word and
// pass, the kwargs refused with the backend they target, MegEngine's rules for several layout
// kwargs and for optimize_for_inference off, asLoaded, info.optimized, and every optimized
// dump of the corpus files verified, loaded back and re-dumped to the same bytes in FBS_V2,
// FBS and FBS 8.14.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/byte_stream.h"
#include "mge/dump/dump_plan.h"
#include "mge/pickle/pickle_writer.h"
#include "mge/read.h"
#include "mge/write_v2.h"
#include "mge_test_util.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using mge::testing::CorpusFiles;
using mge::testing::Export;
using mge::testing::Exported;
using mge::testing::Load;
using mge::testing::ReadCorpusFile;
using mge::testing::WithOriginalIdsOf;
namespace fbs = mgb::serialization::fbs;

// The metadata of a written file, either format.
Metadata MetadataOf(const std::string& file) {
  std::unique_ptr<MgeFile> back = ReadMgeFile(file, "written");
  return back->graphs.at(0).metadata;
}

std::vector<std::string> OperatorClasses(const std::string& file) {
  std::unique_ptr<MgeFile> back = ReadMgeFile(file, "written");
  std::vector<std::string> classes;
  for (const Operator& op : back->graphs.at(0).oprs) {
    classes.push_back(op.cls ? op.cls->key : op.DisplayType());
  }
  return classes;
}

void ExpectRefused(mge::testing::Loaded* l, const nlohmann::json& options, ErrorCode code,
                   const std::string& option, const std::string& words) {
  try {
    Export(l->model.get(), options);
    FAIL() << options.dump() << " accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_EQ(e.where().option, option) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(OptimizedDump, DefaultDumpWritesNetworkDumpsMetadata) {
  auto l = Load(ReadCorpusFile(mge::testing::kReshapeFile));  // a file without metadata
  Exported e = Export(l.model.get(), nullptr);
  const Metadata m = MetadataOf(e.model());
  EXPECT_TRUE(m.present);
  EXPECT_TRUE(m.is_valid);
  EXPECT_TRUE(m.graph_modified);
  EXPECT_EQ(m.optimize_options, 64u);
  EXPECT_EQ(m.user_info, PickleNone());
  const nlohmann::json& o = e.info["optimized"];
  EXPECT_EQ(o["optimizeOptions"], 64);
  EXPECT_EQ(o["flags"], nlohmann::json({"enable_fuse_grain"}));
  EXPECT_EQ(o["operators"]["before"], o["operators"]["after"]);
  EXPECT_EQ(o["passes"], nlohmann::json::array());  // nothing in this graph to optimize
}

TEST(OptimizedDump, EachKwargSetsItsBitOfTheWord) {
  auto l = Load(ReadCorpusFile(mge::testing::kConvFile));
  const std::pair<nlohmann::json, uint64_t> cases[] = {
      {{{"enableFuseGrain", false}}, 0},  // optimized, yet the word says not (as MegEngine)
      {{{"enableFuseConvBiasNonlinearity", true}}, 68},
      {{{"enableFuseConvBiasWithZ", true}}, 72},
      {{{"enableFusePreprocess", true}}, 96},
      {{{"enableFuseConvBiasNonlinearity", true}, {"enableFuseGrain", false}}, 4},
      // The layout in the high word: NCHW88 3, NCHW44 4; the last in MegEngine's order wins.
      {{{"enableNchw44", true}}, 0x4'0000'0040},
      {{{"enableNchw88", true}}, 0x3'0000'0040},
      {{{"enableNchw44", true}, {"enableNchw88", true}}, 0x4'0000'0040},
      {{{"enableNchw88", true}, {"enableNchw44", false}}, 0x3'0000'0040},
  };
  for (const auto& [options, word] : cases) {
    Exported e = Export(l.model.get(), options);
    EXPECT_EQ(MetadataOf(e.model()).optimize_options, word) << options.dump();
    EXPECT_EQ(e.info["optimized"]["optimizeOptions"], word) << options.dump();
  }
}

// The layout kwargs other than enable_nchw44 and enable_nchw88 (which EnableNchwxx runs).
TEST(OptimizedDump, LayoutKwargsAreRefusedNamingTheirBackend) {
  auto l = Load(ReadCorpusFile(mge::testing::kConvFile));
  ExpectRefused(&l, {{"enableNchw44Dot", true}}, ErrorCode::kUnsupported, "enableNchw44Dot",
                "enable_nchw44_dot (enableNchw44Dot) converts the graph to a layout for Armv8.2 "
                "CPUs with the dot-product instructions");
  ExpectRefused(&l, {{"enableNchw4", true}}, ErrorCode::kUnsupported, "enableNchw4", "NVIDIA");
  ExpectRefused(&l, {{"enableHwcd4", true}}, ErrorCode::kUnsupported, "enableHwcd4", "OpenCL");
  ExpectRefused(&l, {{"enableNchw32", true}}, ErrorCode::kUnsupported, "enableNchw32",
                "tensor cores");
  ExpectRefused(&l, {{"enableChwn4", true}}, ErrorCode::kUnsupported, "enableChwn4", "NVIDIA");
  ExpectRefused(&l, {{"enableNchw64", true}}, ErrorCode::kUnsupported, "enableNchw64", "int4");
  // Several layout kwargs: the last in MegEngine's order wins (nchw32 comes after nchw88,
  // nchw44_dot after nchw44), and a falsy one is no layout at all.
  ExpectRefused(&l, {{"enableNchw32", true}, {"enableNchw88", true}}, ErrorCode::kUnsupported,
                "enableNchw32", "NVIDIA");
  ExpectRefused(&l, {{"enableNchw44", true}, {"enableNchw44Dot", true}}, ErrorCode::kUnsupported,
                "enableNchw44Dot", "Armv8.2");
  ExpectRefused(&l, {{"enableHwcd4", true}, {"enableNchw4", false}}, ErrorCode::kUnsupported,
                "enableHwcd4", "OpenCL");
  // enable_weight_preprocess is no Network.dump kwarg.
  ExpectRefused(&l, {{"enableWeightPreprocess", true}}, ErrorCode::kInvalidOption, "",
                "unknown export option 'enableWeightPreprocess'");
}

TEST(OptimizedDump, OptimizeForInferenceOffIgnoresTheKwargs) {
  auto l = Load(ReadCorpusFile(mge::testing::kConvFile));
  Exported e = Export(l.model.get(), {{"optimizeForInference", false},
                                      {"enableNchw44", true},
                                      {"enableIo16xc32", true},
                                      {"enableFuseGrain", false}});
  EXPECT_EQ(e.info["optimized"], "no");
  const Metadata m = MetadataOf(e.model());
  EXPECT_TRUE(m.is_valid);
  EXPECT_TRUE(m.graph_modified);
  EXPECT_EQ(m.optimize_options, 0u);  // absent: no optimization ran
}

TEST(OptimizedDump, AsLoadedKeepsTheFileAndItsMetadata) {
  for (const std::string& name : CorpusFiles()) {
    const std::string original = ReadCorpusFile(name);
    auto l = Load(original);
    nlohmann::json options = mge::testing::CompatV1Options();
    options["asLoaded"] = true;
    Exported e = Export(l.model.get(), options);
    EXPECT_EQ(e.model(), original) << name;
    EXPECT_EQ(e.info["optimized"], "as loaded");
    EXPECT_FALSE(MetadataOf(e.model()).present);
  }
}

// Every optimized dump of the corpus files passes the verifier, loads back, and a second
// dump with the same options is the same bytes.
TEST(OptimizedDump, CorpusDumpsVerifyLoadBackAndAreFixedPoints) {
  const nlohmann::json configurations[] = {
      nlohmann::json::object(),
      {{"dumpFormat", "FBS"}},
      {{"dumpFormat", "FBS"}, {"compatOlderVersion", "8.14"}},
      {{"enableFuseConvBiasNonlinearity", true}},
      {{"dumpFormat", "FBS"}, {"enableFuseConvBiasWithZ", true}, {"keepOprPriority", true}},
  };
  for (const std::string& name : CorpusFiles()) {
    auto l = Load(ReadCorpusFile(name));
    for (const nlohmann::json& options : configurations) {
      SCOPED_TRACE(name + " " + options.dump());
      const std::string once = Export(l.model.get(), options).model();
      if (options.value("dumpFormat", "FBS_V2") == "FBS") {
        EXPECT_TRUE(mge::testing::VerifiesAsV1(once));
        EXPECT_EQ(once.substr(0, 4), options.contains("compatOlderVersion") ? "MGBS" : "MGBC");
      } else {
        EXPECT_TRUE(mge::testing::VerifiesAsV2(once));
      }
      auto back = Load(once);
      Exported twice = Export(back.model.get(), options);
      EXPECT_EQ(twice.model(), once);
      EXPECT_EQ(twice.info["optimized"]["passes"], nlohmann::json::array());
    }
  }
}

// A built conv + bias + relu model, written and loaded as a file: the default dump keeps the
// Convolution, enable_fuse_conv_bias_nonlinearity writes one ConvBias, and info says so.
TEST(OptimizedDump, FuseConvBiasNonlinearityWritesAConvBias) {
  testing::TestGraph t;
  VarRef x = t.Input("x", {1, 2, 4, 4});
  OptGraph& g = t.g();
  OptNode conv;
  conv.set_op(g.NewOperator("Convolution"));
  flatbuffers::FlatBufferBuilder fbb(64);
  conv.mutable_op().params.push_back(
      g.OwnParam(3, &fbb, testing::param::CreateConvolution(fbb).Union()));
  conv.mutable_op().items = {{DumpItem::kParam, 0}};
  conv.inputs = {x, t.Imm(HostValue::Floats({3, 2, 1, 1}, {1, 2, 3, 4, 5, 6}))};
  conv.outputs.resize(1);
  const VarRef c{g.Add(std::move(conv)), 0};
  VarRef b = t.Imm(HostValue::Floats({1, 3, 1, 1}, {0.5f, -1, 2}));
  t.Output(t.Elemwise(kFuseAddRelu, {c, b}, "y"));
  DumpRequest request;
  DumpPlan plan = MakeDumpPlan(t.Emit(), request);
  StringSink sink;
  WriteV2(plan).WriteTo(&sink);
  auto l = Load(sink.Take());

  Exported plain = Export(l.model.get(), nullptr);
  std::vector<std::string> classes = OperatorClasses(plain.model());
  EXPECT_EQ(std::count(classes.begin(), classes.end(), "Convolution"), 1);
  EXPECT_EQ(std::count(classes.begin(), classes.end(), "ConvBiasForward"), 0);

  Exported fused = Export(l.model.get(), {{"enableFuseConvBiasNonlinearity", true}});
  classes = OperatorClasses(fused.model());
  EXPECT_EQ(std::count(classes.begin(), classes.end(), "Convolution"), 0);
  EXPECT_EQ(std::count(classes.begin(), classes.end(), "Elemwise"), 0);
  EXPECT_EQ(std::count(classes.begin(), classes.end(), "ConvBiasForward"), 1);
  const nlohmann::json& o = fused.info["optimized"];
  EXPECT_EQ(o["operators"]["before"].get<int>() - o["operators"]["after"].get<int>(), 1);
  std::vector<std::string> passes;
  for (const auto& p : o["passes"]) passes.push_back(p["pass"]);
  EXPECT_EQ(std::count(passes.begin(), passes.end(), "FuseConvBiasNonlin"), 1) << o.dump();
  // The output keeps its name, and a second dump with the option changes nothing but the
  // output's original_id (the var's id in the graph that dumped it).
  EXPECT_EQ(fused.info["outputs"], nlohmann::json({"y"}));
  auto back = Load(fused.model());
  const std::string again =
      Export(back.model.get(), {{"enableFuseConvBiasNonlinearity", true}}).model();
  EXPECT_EQ(again, WithOriginalIdsOf(fused.model(), again));
}

// The built graph written as an FBS_V2 file, as graphport writes it unoptimized.
std::string FileOf(testing::TestGraph* t) {
  DumpRequest request;
  DumpPlan plan = MakeDumpPlan(t->Emit(), request);
  StringSink sink;
  WriteV2(plan).WriteTo(&sink);
  return sink.Take();
}

// conv + BatchNorm + ReLU (ConvertBatchNormToElemwise, ParamRedistribute, ParamFuse,
// ArithFuse).
std::string ConvBatchNormRelu() {
  testing::TestGraph t;
  VarRef x = t.Input("x", {1, 2, 4, 4});
  VarRef conv = t.Convolution(x, t.Imm(HostValue::Floats({3, 2, 1, 1}, {1, 2, 3, 4, 5, 6})));
  VarRef p = t.Imm(HostValue::Floats({1, 3, 1, 1}, {1.0f, 2.0f, 3.0f}));
  VarRef q = t.Imm(HostValue::Floats({1, 3, 1, 1}, {0.5f, 0.25f, 2.0f}));
  t.Output(t.Elemwise(kRelu, {t.BatchNorm({conv, p, q, q, p}, 1e-3, true)}, "out"));
  return FileOf(&t);
}

// conv + bias + a residual input + ReLU (ReorderArithChain, ArithFuse).
std::string ConvBiasAddRelu() {
  testing::TestGraph t;
  VarRef x = t.Input("x", {1, 3, 5, 5}), y = t.Input("y", {1, 4, 3, 3});
  VarRef conv = t.Convolution(x, t.Imm(opt::testing::Ramp({4, 3, 3, 3}, -1.0f, 0.07f)));
  VarRef sum = t.Elemwise(
      16, {t.Elemwise(kAdd, {conv, t.Imm(opt::testing::Ramp({1, 4, 1, 1}, 0.5f, -0.5f))}), y});
  t.Output(t.Elemwise(kRelu, {sum}, "out"));
  return FileOf(&t);
}

// Matrix products with per-column scales and biases (ParamRedistribute's MulMatmul).
std::string MatmulChain() {
  testing::TestGraph t;
  VarRef h = t.MatrixMul(t.Input("x", {4, 8}), t.Imm(opt::testing::Ramp({8, 6}, -2.0f, 0.09f)));
  h = t.Elemwise(kAdd, {t.Elemwise(kMul, {h, t.Imm(opt::testing::Ramp({1, 6}, 0.5f, 0.25f))}),
                        t.Imm(opt::testing::Ramp({1, 6}, -1.0f, 0.5f))});
  h = t.Elemwise(kRelu, {h});
  t.Output(t.Elemwise(kMul,
                      {t.MatrixMul(h, t.Imm(opt::testing::Ramp({6, 3}, 1.0f, -0.1f))),
                       t.Imm(opt::testing::Ramp({1, 3}, 2.0f, 1.0f))},
                      "out"));
  return FileOf(&t);
}

// A sum over an axis divided by its size (FoldingReduceMean).
std::string ReduceMeanHead() {
  testing::TestGraph t;
  VarRef x = t.Input("x", {2, 3, 4});
  VarRef s = t.Elemwise(kMul, {x, t.Imm(opt::testing::Ramp({1, 3, 1}, 0.25f, 0.75f))});
  VarRef sum = t.Reduce(s, 0 /*SUM*/, 2);
  VarRef count = t.TypeCvt(t.WithAxis("GetVarShape", {s}, 2), kF32);
  t.Output(t.Elemwise(kTrueDiv, {sum, count}, "out"));
  return FileOf(&t);
}

// BatchNorm, then a global average pooling (FoldingGlobalPooling).
std::string GlobalPoolingHead() {
  testing::TestGraph t;
  testing::AddGlobalPoolingHead(&t);
  return FileOf(&t);
}

// Each pass pattern's graph, optimized by the default dump in FBS_V2, FBS and FBS 8.14:
// the dump verifies, the pattern's pass changed it, and the default re-dump of the dump is
// the same bytes with no pass reporting a change (research megengine_optimize.md §6.1: a
// deployed CNN is a fixed point; none of these graphs holds a §6.3 case).
TEST(OptimizedDump, EachPassPatternsDumpIsAFixedPoint) {
  const std::pair<const char*, std::string> patterns[] = {
      {"conv+BN+ReLU", ConvBatchNormRelu()},   {"conv+bias+add+ReLU", ConvBiasAddRelu()},
      {"matmul chain", MatmulChain()},         {"reduce-mean head", ReduceMeanHead()},
      {"global pooling", GlobalPoolingHead()},
  };
  const nlohmann::json configurations[] = {
      nlohmann::json::object(),
      {{"dumpFormat", "FBS"}},
      {{"dumpFormat", "FBS"}, {"compatOlderVersion", "8.14"}},
  };
  for (const auto& [pattern, file] : patterns) {
    auto l = Load(file);
    for (const nlohmann::json& options : configurations) {
      SCOPED_TRACE(std::string(pattern) + " " + options.dump());
      Exported once = Export(l.model.get(), options);
      EXPECT_NE(once.info["optimized"]["passes"], nlohmann::json::array());
      EXPECT_LT(once.info["optimized"]["operators"]["after"].get<int>(),
                once.info["optimized"]["operators"]["before"].get<int>());
      if (options.contains("dumpFormat")) {
        EXPECT_TRUE(mge::testing::VerifiesAsV1(once.model()));
        EXPECT_EQ(once.model().substr(0, 4),
                  options.contains("compatOlderVersion") ? "MGBS" : "MGBC");
      } else {
        EXPECT_TRUE(mge::testing::VerifiesAsV2(once.model()));
      }
      auto back = Load(once.model());
      Exported twice = Export(back.model.get(), options);
      EXPECT_EQ(twice.model(), WithOriginalIdsOf(once.model(), twice.model()));
      EXPECT_EQ(twice.info["optimized"]["passes"], nlohmann::json::array());
    }
  }
}

// A var a pass makes without inheriting a name shows its operator's name, and keep_var_name
// writes what MegEngine shows (research megengine_optimize.md §2.1.6): the re-made
// Convolution's var and the folded weight and bias are written under their operators'
// default names, the output keeps "out", and no name is made up as var<id>.
TEST(OptimizedDump, KeepVarNameWritesTheOperatorsNameForAMadeVar) {
  auto l = Load(ConvBatchNormRelu());
  const std::pair<const char*, int> cases[] = {{"FBS_V2", 1}, {"FBS_V2", 2}, {"FBS", 2}};
  for (const auto& [format, level] : cases) {
    SCOPED_TRACE(std::string(format) + " keepVarName " + std::to_string(level));
    Exported e = Export(l.model.get(),
                        {{"dumpFormat", format}, {"keepVarName", level}, {"keepOprName", true}});
    EXPECT_FALSE(e.info["kept"].contains("varNames")) << e.info["kept"].dump();
    EXPECT_EQ(e.info["outputs"], nlohmann::json({"out"}));
    std::unique_ptr<MgeFile> back = ReadMgeFile(e.model(), "written");
    const Graph& g = back->graphs.at(0);
    std::vector<std::string> made;
    for (const Operator& op : g.oprs) {
      if (op.cls->key == "Host2DeviceCopy") continue;
      ASSERT_TRUE(op.name.has_value()) << op.cls->key;
      ASSERT_EQ(op.outputs.size(), 1u);
      const std::optional<std::string> name = g.VarName(op.outputs[0]);
      ASSERT_TRUE(name.has_value()) << *op.name;
      if (*name == "out") continue;
      EXPECT_EQ(*name, *op.name);
      made.push_back(op.cls->key + " " + name->substr(0, name->find('[')));
    }
    EXPECT_EQ(made, (std::vector<std::string>{"ImmutableTensor const{3,2,1,1}",
                                              "Convolution conv(x,const{3,2,1,1}",
                                              "ImmutableTensor const{1,3,1,1}"}));
    // Loaded back, the names are explicit, and a second dump writes the same file but for
    // the output's original_id.
    auto again = Load(e.model());
    const std::string twice =
        Export(again.model.get(),
               {{"dumpFormat", format}, {"keepVarName", level}, {"keepOprName", true}})
            .model();
    EXPECT_EQ(twice, WithOriginalIdsOf(e.model(), twice));
  }
}

TEST(OptimizedDump, FusePreprocessRefusesWhatItWouldFuse) {
  testing::TestGraph t;
  VarRef x = t.Input("x", {1, 3, 2, 2});
  t.Output(t.TypeCvt(x, 13 /*QuantizedS8*/));
  DumpRequest request;
  DumpPlan plan = MakeDumpPlan(t.Emit(), request);
  StringSink sink;
  WriteV2(plan).WriteTo(&sink);
  auto l = Load(sink.Take());
  ExpectRefused(&l, {{"enableFusePreprocess", true}}, ErrorCode::kUnsupported,
                "enableFusePreprocess", "a TypeCvt to a quantized dtype");
}

}  // namespace
}  // namespace graphport::mge::opt
