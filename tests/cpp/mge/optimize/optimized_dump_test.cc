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
  t.Output(t.Elemwise(37 /*FUSE_ADD_RELU*/, {c, b}, "y"));
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
  // The output keeps its name, and a second dump with the option changes nothing.
  EXPECT_EQ(fused.info["outputs"], nlohmann::json({"y"}));
  auto back = Load(fused.model());
  EXPECT_EQ(Export(back.model.get(), {{"enableFuseConvBiasNonlinearity", true}}).model(),
            fused.model());
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
