// enable_nchw44 and enable_nchw88 through the export request, as the CLIs and the page send
// them, on the corpus's MegEngine files and on a small CNN written as a file: each dump passes
// the FlatBuffers verifier in FBS_V2, FBS and FBS 8.14, loads back, computes what the loaded
// model computes, and re-dumps with default options; the same layout kwarg given again on a
// packed model is refused, as MegEngine refuses it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/byte_stream.h"
#include "core/error.h"
#include "mge/dump/dump_plan.h"
#include "mge/read.h"
#include "mge/write_v2.h"
#include "mge_test_util.h"
#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using mge::testing::Export;
using mge::testing::Load;
namespace param = testing::param;

const nlohmann::json& Formats() {
  static const auto* formats = new nlohmann::json(nlohmann::json::array({
      nlohmann::json::object(),
      {{"dumpFormat", "FBS"}},
      {{"dumpFormat", "FBS"}, {"compatOlderVersion", "8.14"}},
  }));
  return *formats;
}

bool Verifies(const nlohmann::json& options, const std::string& file) {
  return options.contains("dumpFormat") ? mge::testing::VerifiesAsV1(file)
                                        : mge::testing::VerifiesAsV2(file);
}

// Operator classes with the format of each convolution, ConvBias and pooling.
std::map<std::string, int> Counts(const std::string& file) {
  std::unique_ptr<MgeFile> m = ReadMgeFile(file, "dump");
  std::map<std::string, int> counts;
  for (const Operator& op : m->graphs.at(0).oprs) {
    std::string key = op.cls ? op.cls->key : "?";
    if (key == "Convolution") {
      key +=
          ":" + std::to_string(
                    reinterpret_cast<const param::Convolution*>(op.params.at(0).table)->format());
    } else if (key == "ConvBiasForward") {
      key += ":" + std::to_string(
                       reinterpret_cast<const param::ConvBias*>(op.params.at(0).table)->format());
    } else if (key == "Pooling") {
      key += ":" + std::to_string(
                       reinterpret_cast<const param::Pooling*>(op.params.at(0).table)->format());
    }
    ++counts[key];
  }
  return counts;
}

// The corpus's two MegEngine files. The convolution file's one Convolution (1 input and 5
// output channels) gets its output channels padded to 8 (PaddingChannel) and runs as
// MegEngine's hybrid first convolution, NCHW in and packed out, its output relaid back and
// sliced to 5 channels: the bytes are MegEngine's own (tests/js/mge_reference.test.mjs). The
// reshape file has no convolution: the optimize_options word alone records the layout.
TEST(NchwxxCorpus, CorpusConvolutionIsPaddedAndPackedAndTheLayoutRecorded) {
  for (const std::string& name : mge::testing::CorpusFiles()) {
    auto l = Load(mge::testing::ReadCorpusFile(name));
    for (nlohmann::json options : Formats()) {
      const std::string plain = Export(l.model.get(), options).model();
      const bool has_conv = Counts(plain)["Convolution:0"] == 1;
      for (const auto& [kwarg, word, format] :
           {std::tuple<const char*, uint64_t, int>{"enableNchw44", 0x4'0000'0040, 7},
            std::tuple<const char*, uint64_t, int>{"enableNchw88", 0x3'0000'0040, 6}}) {
        nlohmann::json with = options;
        with[kwarg] = true;
        SCOPED_TRACE(name + " " + with.dump());
        mge::testing::Exported e = Export(l.model.get(), with);
        EXPECT_TRUE(Verifies(with, e.model()));
        EXPECT_EQ(e.info["optimized"]["optimizeOptions"], word);
        if (!options.contains("compatOlderVersion")) {
          EXPECT_EQ(ReadMgeFile(e.model(), "dump")->graphs.at(0).metadata.optimize_options, word);
        }
        std::vector<std::string> changed;
        for (const auto& p : e.info["optimized"]["passes"]) {
          changed.push_back(p["pass"].get<std::string>());
        }
        std::map<std::string, int> counts = Counts(e.model());
        auto back = Load(e.model());
        if (!has_conv) {
          EXPECT_EQ(counts, Counts(plain));
          for (const std::string& pass : changed) EXPECT_NE(pass.rfind("EnableNchwxx", 0), 0u);
          // Nothing was packed: the kwarg again is fine, and changes nothing.
          EXPECT_EQ(Counts(Export(back.model.get(), with).model()), Counts(plain));
          continue;
        }
        EXPECT_EQ(counts["Convolution:" + std::to_string(format)], 1);
        EXPECT_EQ(counts["Convolution:0"], 0);
        EXPECT_EQ(counts["Subtensor"], 5);  // the relayout's 4 shape axes, the channel slice
        const std::string pack = format == 7 ? "nchw44" : "nchw88";
        EXPECT_NE(std::find(changed.begin(), changed.end(), "PaddingChannel(" + pack + ")"),
                  changed.end());
        EXPECT_NE(std::find(changed.begin(), changed.end(), "EnableNchwxx(" + pack + ")"),
                  changed.end());
        // (Its output is a ConvolutionBackwardFilter, which the evaluator lacks: the padding's
        // numerics are checked on EnableNchwxx's model, whose conv5 is padded.)
        // Packed once: the kwarg again is refused, as MegEngine refuses it.
        EXPECT_THROW(Export(back.model.get(), with), Error);
      }
    }
  }
}

// A small CNN of the kinds EnableNchwxx converts, written as an FBS_V2 file.
std::string SmallCnn() {
  testing::TestGraph t;
  auto weights = [](const Shape& shape, uint32_t salt) {
    std::vector<float> v(ElementCount(shape));
    for (size_t k = 0; k < v.size(); ++k) {
      v[k] = static_cast<float>(static_cast<int>((k * 5 + salt) % 19) - 9) / 16;
    }
    return HostValue::Floats(shape, v);
  };
  VarRef x = t.Input("x", {1, 3, 12, 12});
  VarRef c1 = t.ConvolutionStrided(x, t.Shared("w1", weights({8, 3, 3, 3}, 1)), 1, 1, false);
  VarRef r1 = t.Elemwise(
      param::ElemwiseMode_RELU,
      {t.Elemwise(param::ElemwiseMode_ADD, {c1, t.Shared("b1", weights({1, 8, 1, 1}, 2))})});
  VarRef c2 = t.ConvolutionStrided(r1, t.Shared("w2", weights({8, 1, 1, 3, 3}, 3)), 1, 1, true);
  VarRef c3 = t.ConvolutionStrided(c2, t.Shared("w3", weights({8, 8, 1, 1}, 4)), 0, 1, false);
  t.Output(t.Pooling(c3, param::PoolingV0Mode_MAX_, 2, 2));
  DumpRequest request;
  DumpPlan plan = MakeDumpPlan(t.Emit(), request);
  StringSink sink;
  WriteV2(plan).WriteTo(&sink);
  return sink.Take();
}

void ExpectRefusedAgain(FamilyModel* model, nlohmann::json options, const char* kwarg) {
  options[kwarg] = true;
  try {
    Export(model, options);
    FAIL() << options.dump() << " accepted on a packed model";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported) << e.what();
    EXPECT_EQ(e.where().option, kwarg);
    EXPECT_NE(std::string(e.what()).find("only support converting NCHW to NCHWXX"),
              std::string::npos)
        << e.what();
  }
}

TEST(NchwxxCorpus, PackedDumpVerifiesLoadsBackComputesTheSameAndIsNotPackedTwice) {
  const std::string original = SmallCnn();
  auto l = Load(original);
  const std::string plain = Export(l.model.get(), nullptr).model();
  for (const auto& [kwarg, format] : {std::pair<const char*, int>{"enableNchw44", 7},
                                      std::pair<const char*, int>{"enableNchw88", 6}}) {
    for (nlohmann::json options : Formats()) {
      options[kwarg] = true;
      SCOPED_TRACE(options.dump());
      const std::string packed = Export(l.model.get(), options).model();
      EXPECT_TRUE(Verifies(options, packed));
      const std::string f = std::to_string(format);
      // conv1 + bias + relu a hybrid ConvBias, conv2 channel-wise, conv3 dense, the pooling.
      std::map<std::string, int> counts = Counts(packed);
      EXPECT_EQ(counts["ConvBiasForward:" + f], 1);
      EXPECT_EQ(counts["Convolution:" + f], 2);
      EXPECT_EQ(counts["Pooling:" + f], 1);
      EXPECT_EQ(counts["Dimshuffle"], 1);  // the output relaid back to NCHW
      std::unique_ptr<MgeFile> a = ReadMgeFile(plain, "plain");
      std::unique_ptr<MgeFile> b = ReadMgeFile(packed, "packed");
      testing::ExpectSameOutputs(a->graphs.at(0), b->graphs.at(0), 1e-5);
      // Loaded back: a default re-dump keeps it packed; the kwarg again is refused.
      nlohmann::json defaults = options;
      defaults.erase(kwarg);
      auto back = Load(packed);
      const std::string again = Export(back.model.get(), defaults).model();
      EXPECT_TRUE(Verifies(defaults, again));
      EXPECT_EQ(Counts(again), counts);
      // and from there a default re-dump is a fixed point.
      auto back_again = Load(again);
      EXPECT_EQ(Export(back_again.model.get(), defaults).model(), again);
      ExpectRefusedAgain(back.model.get(), defaults, "enableNchw44");
      ExpectRefusedAgain(back.model.get(), defaults, "enableNchw88");
    }
  }
}

}  // namespace
}  // namespace graphport::mge::opt
