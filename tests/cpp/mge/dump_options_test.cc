// Each Network.dump option's exact effect on the written bytes (dump/): names present or
// absent per format and level, priorities, param names, metadata fields and the pickled
// user_info, the seed's option errors, the optimize kwargs, append.
#include <gtest/gtest.h>

#include "mge/pickle/pickle_writer.h"
#include "mge_test_util.h"
#include "test_model.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT
namespace fbs = mgb::serialization::fbs;

// The FBS v1 Graph of an exported file (the storage lives in `fb`).
const fbs::Graph* V1Root(const std::string& file, V1Flatbuffer* fb) {
  *fb = V1FlatbufferOf(file);
  EXPECT_TRUE(VerifiesAsV1(file));
  return fbs::GetSizePrefixedGraph(fb->data());
}

struct V2Buffer {
  std::vector<uint64_t> storage;
  const v2::Model* root;
};
V2Buffer V2Root(const std::string& file) {
  EXPECT_TRUE(VerifiesAsV2(file));
  V2Buffer b;
  b.storage.resize((file.size() + 7) / 8);
  std::memcpy(b.storage.data(), file.data(), file.size());
  b.root = v2::GetSizePrefixedModel(b.storage.data());
  return b;
}

std::vector<std::string> V1OutputNames(const fbs::Operator* op) {
  std::vector<std::string> names;
  if (op->output_name() == nullptr) return names;
  for (const auto* s : *op->output_name()) names.push_back(s->str());
  return names;
}

class MgeDumpOptions : public ::testing::Test {
 protected:
  void SetUp() override { loaded_ = Load(BuildTestModelV2()); }
  Exported Dump(const nlohmann::json& options) { return Export(loaded_.model.get(), options); }
  Loaded loaded_;
};

TEST_F(MgeDumpOptions, KeepVarNameInFbsV1) {
  V1Flatbuffer fb;
  const fbs::Graph* g0 =
      V1Root(Dump(AsLoaded({{"dumpFormat", "FBS"}, {"keepVarName", 0}})).model(), &fb);
  for (const auto* op : *g0->oprs()) EXPECT_EQ(op->output_name(), nullptr);
  // Level 1: only the operator making a graph output, all of its outputs.
  Exported e1 = Dump(AsLoaded({{"dumpFormat", "FBS"}, {"keepVarName", 1}}));
  const fbs::Graph* g1 = V1Root(e1.model(), &fb);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(g1->oprs()->Get(i)->output_name(), nullptr) << i;
  EXPECT_EQ(V1OutputNames(g1->oprs()->Get(3)), std::vector<std::string>{"out"});
  EXPECT_EQ(e1.info["outputs"], nlohmann::json({"out"}));
  const fbs::Graph* g2 =
      V1Root(Dump(AsLoaded({{"dumpFormat", "FBS"}, {"keepVarName", 2}})).model(), &fb);
  EXPECT_EQ(V1OutputNames(g2->oprs()->Get(0)), std::vector<std::string>{"data"});
  EXPECT_EQ(V1OutputNames(g2->oprs()->Get(1)), (std::vector<std::string>{"w", "b"}));
  EXPECT_EQ(V1OutputNames(g2->oprs()->Get(2)), std::vector<std::string>{"mul"});
  EXPECT_EQ(Dump(AsLoaded({{"dumpFormat", "FBS"}, {"keepVarName", 0}})).info["outputs"],
            nlohmann::json({"unnamed0"}));
}

TEST_F(MgeDumpOptions, KeepVarNameInFbsV2) {
  std::string none = Dump(AsLoaded({{"keepVarName", 0}})).model();
  EXPECT_EQ(V2Root(none).root->middle_tensors(), nullptr);
  std::string one = Dump(AsLoaded({{"keepVarName", 1}})).model();
  // FBS_V2 names every var at level 1 and 2 alike.
  EXPECT_EQ(one, Dump(AsLoaded({{"keepVarName", 2}})).model());
  V2Buffer b = V2Root(one);
  ASSERT_NE(b.root->middle_tensors(), nullptr);
  std::vector<std::string> names;
  for (const auto* m : *b.root->middle_tensors()) names.push_back(m->name()->str());
  EXPECT_EQ(names, (std::vector<std::string>{"data", "w", "b", "mul", "out"}));
  EXPECT_LT(none.size(), one.size());
}

TEST_F(MgeDumpOptions, KeepOprName) {
  for (const char* format : {"FBS", "FBS_V2"}) {
    std::string off = Dump(AsLoaded({{"dumpFormat", format}})).model();
    std::string on = Dump(AsLoaded({{"dumpFormat", format}, {"keepOprName", true}})).model();
    std::vector<std::string> names;
    if (std::string(format) == "FBS") {
      V1Flatbuffer fb;
      for (const auto* op : *V1Root(off, &fb)->oprs()) EXPECT_EQ(op->name(), nullptr);
      for (const auto* op : *V1Root(on, &fb)->oprs()) {
        ASSERT_NE(op->name(), nullptr);
        names.push_back(op->name()->str());
      }
    } else {
      V2Buffer b_off = V2Root(off);
      for (const auto* op : *b_off.root->oprs()) EXPECT_EQ(op->name(), nullptr);
      V2Buffer b = V2Root(on);
      for (const auto* op : *b.root->oprs()) {
        ASSERT_NE(op->name(), nullptr);
        names.push_back(op->name()->str());
      }
    }
    EXPECT_EQ(names, (std::vector<std::string>{"data", "merged0", "mul", "add"})) << format;
  }
}

// Optimized (the default), the operators are named as MegEngine names them, so keep_opr_name
// writes a name for every operator: the merged params' holder is named by ParamMerge, the
// loaded operators keep theirs ("add", its inputs stored by var id on load as MegEngine's
// Elemwise constructor stores them, is made again as it was).
TEST_F(MgeDumpOptions, KeepOprNameNamesWhatTheOptimizerMakes) {
  for (const char* format : {"FBS", "FBS_V2"}) {
    Exported e = Dump({{"dumpFormat", format}, {"keepOprName", true}});
    std::vector<std::string> names;
    if (std::string(format) == "FBS") {
      V1Flatbuffer fb;
      for (const auto* op : *V1Root(e.model(), &fb)->oprs()) {
        ASSERT_NE(op->name(), nullptr) << format;
        names.push_back(op->name()->str());
      }
    } else {
      V2Buffer b = V2Root(e.model());
      for (const auto* op : *b.root->oprs()) {
        ASSERT_NE(op->name(), nullptr) << format;
        names.push_back(op->name()->str());
      }
    }
    ASSERT_EQ(names.size(), 4u) << format;
    EXPECT_EQ(names[0], "merged0");
    EXPECT_EQ(names[1], "data");
    EXPECT_EQ(names[2], "mul");
    EXPECT_EQ(names[3], "add");
    EXPECT_FALSE(e.info.contains("kept") && e.info["kept"].contains("oprNames")) << format;
  }
}

TEST_F(MgeDumpOptions, KeepParamName) {
  // The loaded graph's operators in their order (the optimizer may reorder them).
  Exported off = Dump(AsLoaded());
  Exported on = Dump(AsLoaded({{"keepParamName", true}}));
  EXPECT_EQ(off.info["params"], nlohmann::json::array());
  EXPECT_EQ(on.info["params"], nlohmann::json({"w", "b"}));
  EXPECT_EQ(off.info["inputs"], nlohmann::json({"data"}));  // inputs are always named
  V2Buffer b_off = V2Root(off.model());
  V2Buffer b_on = V2Root(on.model());
  const auto* holder_off = b_off.root->oprs()->Get(1);
  const auto* holder_on = b_on.root->oprs()->Get(1);
  EXPECT_EQ(holder_off->tensors()->Get(0)->name(), nullptr);
  EXPECT_EQ(holder_on->tensors()->Get(0)->name()->str(), "w");
  EXPECT_EQ(holder_on->tensors()->Get(1)->name()->str(), "b");
  EXPECT_EQ(b_off.root->oprs()->Get(0)->tensors()->Get(0)->name()->str(), "data");
  // FBS v1 writes the holder's u32 count blob first; FBS_V2 at opr_version 2 none.
  V1Flatbuffer fb;
  const auto* v1_holder =
      V1Root(Dump(AsLoaded({{"dumpFormat", "FBS"}})).model(), &fb)->oprs()->Get(1);
  ASSERT_NE(v1_holder->blobs(), nullptr);
  ASSERT_EQ(v1_holder->blobs()->size(), 1u);
  EXPECT_EQ(
      std::string(reinterpret_cast<const char*>(v1_holder->blobs()->Get(0)->data()->data()), 4),
      std::string("\x02\0\0\0", 4));
  EXPECT_EQ(holder_off->custom_data(), nullptr);
}

TEST_F(MgeDumpOptions, KeepOprPriority) {
  auto priorities = [&](const nlohmann::json& options) {
    std::vector<int32_t> p;
    V2Buffer b = V2Root(Dump(options).model());
    for (const auto* op : *b.root->oprs()) p.push_back(op->priority());
    return p;
  };
  EXPECT_EQ(priorities(nullptr), (std::vector<int32_t>{0, 0, 0, 0}));
  // Network.dump's set_priority_to_id: the operator without a priority takes its id, which
  // MegEngine counts from 0 (data, the first operator loaded, stays 0); asLoaded keeps the
  // priorities as they are. Optimized, "add" = ADD(mul, b) is made again with its inputs in
  // var id order, ADD(b, mul) (ReorderArithChain; the new ADD takes the priority 7 of the
  // operator visited), so the dumper's walk from the output meets merged0 before data:
  // {merged0, data, mul, add}.
  EXPECT_EQ(priorities({{"keepOprPriority", true}}), (std::vector<int32_t>{3, 0, 5, 7}));
  EXPECT_EQ(priorities(AsLoaded({{"keepOprPriority", true}})), (std::vector<int32_t>{0, 3, 5, 7}));
  V1Flatbuffer fb;
  const fbs::Graph* g =
      V1Root(Dump({{"dumpFormat", "FBS"}, {"keepOprPriority", true}}).model(), &fb);
  EXPECT_EQ(g->oprs()->Get(3)->priority(), 7);
}

TEST_F(MgeDumpOptions, MetadataAndUserInfo) {
  // Default: Network.dump's metadata, fresh: the loaded user_info is not carried over.
  V2Buffer b = V2Root(Dump(nullptr).model());
  const auto* m = b.root->metadata();
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->is_valid());
  EXPECT_TRUE(m->graph_modified());
  EXPECT_EQ(m->optimize_options(), 64u);
  EXPECT_EQ(m->user_info()->str(), PickleNone());
  // asLoaded keeps the loaded metadata as it is (graph_modified false there).
  V2Buffer kept = V2Root(Dump(AsLoaded()).model());
  EXPECT_FALSE(kept.root->metadata()->graph_modified());
  EXPECT_EQ(kept.root->metadata()->user_info()->str(), PickleStr("hi"));
  // userInfo "test": pickle.dumps("test") of Python 3.8+ (dump_details §5.2).
  V2Buffer t = V2Root(Dump({{"userInfo", "test"}}).model());
  const std::string expected("\x80\x04\x95\x08\0\0\0\0\0\0\0\x8c\x04test\x94.", 19);
  EXPECT_EQ(t.root->metadata()->user_info()->str(), expected);
  // Bytes pickle as bytes.
  V2Buffer by = V2Root(Dump({{"userInfo", BytesOption(std::string("\x01\x02", 2))}}).model());
  EXPECT_EQ(by.root->metadata()->user_info()->str(),
            std::string("\x80\x04\x95\x06\0\0\0\0\0\0\0\x43\x02\x01\x02\x94.", 17));
  // enable_metadata=False still writes an invalid Metadata with an empty user_info.
  for (const char* format : {"FBS", "FBS_V2"}) {
    Exported off = Dump({{"dumpFormat", format}, {"enableMetadata", false}});
    if (std::string(format) == "FBS") {
      V1Flatbuffer fb;
      const auto* mv1 = V1Root(off.model(), &fb)->metadata();
      ASSERT_NE(mv1, nullptr);
      EXPECT_FALSE(mv1->is_valid());
      EXPECT_EQ(mv1->user_info()->str(), "");
    } else {
      V2Buffer v = V2Root(off.model());
      ASSERT_NE(v.root->metadata(), nullptr);
      EXPECT_FALSE(v.root->metadata()->is_valid());
      EXPECT_FALSE(v.root->metadata()->graph_modified());
      ASSERT_NE(v.root->metadata()->user_info(), nullptr);
      EXPECT_EQ(v.root->metadata()->user_info()->str(), "");
    }
  }
  // optimize_for_inference=False: the word is 0.
  V2Buffer o = V2Root(Dump({{"optimizeForInference", false}}).model());
  EXPECT_EQ(o.root->metadata()->optimize_options(), 0u);
  // inspect decodes the pickled user_info and the optimize word.
  auto reloaded = Load(Dump({{"userInfo", "test"}}).model());
  nlohmann::json j = reloaded.model->Inspect();
  EXPECT_EQ(j["megengine"]["metadata"]["userInfo"]["value"], "test");
  EXPECT_EQ(j["megengine"]["metadata"]["optimizeFlags"], nlohmann::json({"enable_fuse_grain"}));
}

TEST(MgeDumpMetadata, CorpusWithoutMetadataKeptAsLoadedGetsItWhenAskedFor) {
  auto l = Load(ReadCorpusFile(kReshapeFile));
  V1Flatbuffer fb;
  nlohmann::json options = AsLoaded(CompatV1Options());
  options["userInfo"] = nullptr;
  options.erase("userInfo");
  const fbs::Graph* none = V1Root(Export(l.model.get(), options).model(), &fb);
  EXPECT_EQ(none->metadata(), nullptr);
  options["enableMetadata"] = true;
  Exported with = Export(l.model.get(), options);
  const fbs::Graph* g = V1Root(with.model(), &fb);
  ASSERT_NE(g->metadata(), nullptr);
  EXPECT_TRUE(g->metadata()->is_valid());
  EXPECT_EQ(g->metadata()->user_info()->str(), PickleNone());  // pickle.dumps(None)
}

TEST(MgeDumpRequest, SeedErrorsForCompatOlderVersion) {
  auto l = Load(ReadCorpusFile(kConvFile));
  try {
    Export(l.model.get(), {{"dumpFormat", "FBS"}, {"compatOlderVersion", "8.15"}});
    FAIL() << "8.15 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_STREQ(e.what(), "Forward compatibility for older version only support 8.14 currently.");
    EXPECT_EQ(e.where().option, "compatOlderVersion");
  }
  try {
    Export(l.model.get(), {{"compatOlderVersion", " 8.14 "}});
    FAIL() << "compat with FBS_V2 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_STREQ(e.what(),
                 "forward compatibility for older version only works when dump_format is FBS");
  }
  // Stripped like network.py does.
  EXPECT_EQ(Export(l.model.get(), {{"dumpFormat", "FBS"}, {"compatOlderVersion", " 8.14 "}})
                .model()
                .substr(0, 4),
            "MGBS");
}

TEST(MgeDumpRequest, OptimizeKwargsWithoutAPassAreRefused) {
  auto l = Load(ReadCorpusFile(kConvFile));
  for (const char* kwarg : {"enableNchw44Dot", "enableNchw4", "enableNchw32"}) {
    try {
      Export(l.model.get(), {{kwarg, true}});
      FAIL() << kwarg;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
      EXPECT_EQ(e.where().option, kwarg);
      EXPECT_NE(std::string(e.what()).find(kwarg), std::string::npos);
    }
  }
  // Defaults are fine, and so is any kwarg when optimize_for_inference is off (MegEngine
  // skips them all then).
  EXPECT_NO_THROW(Export(l.model.get(), {{"enableFuseGrain", true}, {"enableNchw44", false}}));
  EXPECT_NO_THROW(Export(l.model.get(), {{"enableFuseConvBiasNonlinearity", true}}));
  Exported e = Export(l.model.get(), {{"optimizeForInference", false}, {"enableNchw44", true}});
  EXPECT_EQ(e.info["optimized"], "no");
}

TEST(MgeDumpRequest, AppendPutsTheDumpAfterTheCallersBytes) {
  std::string conv = ReadCorpusFile(kConvFile);
  std::string reshape = ReadCorpusFile(kReshapeFile);
  auto l = Load(reshape);
  nlohmann::json options = AsLoaded(CompatV1Options());
  options["append"] = BytesOption(conv);
  Exported e = Export(l.model.get(), options);
  EXPECT_EQ(e.model(), conv + reshape);
  EXPECT_EQ(e.info["tot_bytes"], reshape.size());
  // The result holds both graphs.
  auto both = Load(e.model());
  EXPECT_EQ(Count(both.model->Inspect(), "graphs"), 2);
}

TEST(MgeDumpRequest, OptionSchemaFollowsTheSeed) {
  const OptionSchema& s = MegengineFamily().export_options();
  struct Expect {
    const char* name;
    const char* cli;
    const char* seed;
  };
  for (const Expect& x : std::vector<Expect>{
           {"dumpFormat", "dump-format", "dump_format"},
           {"keepVarName", "keep-var-name", "keep_var_name"},
           {"keepOprName", "keep-opr-name", "keep_opr_name"},
           {"keepParamName", "keep-param-name", "keep_param_name"},
           {"keepOprPriority", "keep-opr-priority", "keep_opr_priority"},
           {"stripInfoFile", "strip-info-file", "strip_info_file"},
           {"appendJson", "append-json", "append_json"},
           {"append", "append", "append"},
           {"userInfo", "user-info", "user_info"},
           {"enableMetadata", "enable-metadata", "enable_metadata"},
           {"compatOlderVersion", "compat-older-version", "compat_older_version"},
           {"optimizeForInference", "optimize-for-inference", "optimize_for_inference"},
           {"enableNchw44", "enable-nchw44", "enable_nchw44"},
           {"asLoaded", "as-loaded", ""},  // graphport's own
           {"filename", "", "file"}}) {
    const OptionSpec* spec = s.Find(x.name);
    ASSERT_NE(spec, nullptr) << x.name;
    EXPECT_EQ(spec->cli, x.cli);
    EXPECT_EQ(spec->seed, x.seed);
    EXPECT_FALSE(spec->help.empty()) << x.name;
  }
  EXPECT_EQ(s.Find("dumpFormat")->default_value, "FBS_V2");
  EXPECT_EQ(s.Find("keepVarName")->default_value, 1);
  EXPECT_EQ(s.Find("enableMetadata")->default_value, true);
  EXPECT_EQ(s.Find("optimizeForInference")->default_value, true);
  EXPECT_EQ(s.Find("enableFuseGrain")->default_value, true);
  EXPECT_EQ(s.Find("appendJson")->cli_value, CliValue::kFile);
  EXPECT_EQ(s.Find("append")->cli_value, CliValue::kFile);
  EXPECT_EQ(s.Find("userInfo")->cli_value, CliValue::kInline);
  EXPECT_EQ(s.Find("filename")->default_value, "model.mge");
}

}  // namespace
}  // namespace graphport::mge
