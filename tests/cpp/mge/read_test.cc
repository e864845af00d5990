// Both real FBS v1 files (mgeconvert fixtures) load through the Family interface and inspect()
// shows what the research says they hold (megengine.md §4, §2.9).
#include <gtest/gtest.h>

#include "mge/opr_registry.h"
#include "mge/summary_text.h"
#include "mge_test_util.h"

namespace graphport::mge {
namespace {

using testing::Count;
using testing::kConvFile;
using testing::kReshapeFile;
using testing::Load;
using testing::ReadCorpusFile;

std::vector<std::string> Types(const nlohmann::json& inspect) {
  std::vector<std::string> types;
  for (const auto& op : inspect["megengine"]["operators"]) types.push_back(op["type"]);
  return types;
}

TEST(MgeRead, ConvolutionFixtureHoldsWhatTheResearchSays) {
  auto l = Load(ReadCorpusFile(kConvFile));
  EXPECT_EQ(l.detection.format, "mge-fbs");
  nlohmann::json j = l.model->Inspect();
  EXPECT_EQ(j["family"], "megengine");
  EXPECT_EQ(j["format"], "mge-fbs");
  EXPECT_EQ(j["encoding"], "binary");
  EXPECT_EQ(j["inputBytes"], 1324);
  EXPECT_NE(j["producerText"].get<std::string>().find("MGBS"), std::string::npos);
  EXPECT_NE(j["producerText"].get<std::string>().find("1799900"), std::string::npos);
  const auto& m = j["megengine"];
  EXPECT_EQ(m["header"]["magic"], "MGBS");
  EXPECT_EQ(m["header"]["hash"], "0x9e62dbf156949217");
  EXPECT_EQ(m["header"]["version"], 1799900);
  EXPECT_TRUE(m["metadata"].is_null());
  EXPECT_EQ(Count(j, "operators"), 11);
  EXPECT_EQ(Count(j, "valueBytes"), 204);
  std::vector<std::string> expected = {"Host2DeviceCopy",
                                       "ImmutableTensor",
                                       "ImmutableTensor",
                                       "ConvolutionV2",
                                       "ImmutableTensor",
                                       "Elemwise",
                                       "GetVarShapeV1",
                                       "Broadcast",
                                       "GetVarShapeV1",
                                       "ReduceV2",
                                       "ConvolutionBackwardFilterV2"};
  EXPECT_EQ(Types(j), expected);
  // MGBS files carry unversioned ids (megengine.md §2.9, checked marks).
  const auto& ops = m["operators"];
  EXPECT_EQ(ops[0]["typeId"], "0x9f9db55d661d5f11");
  EXPECT_EQ(ops[1]["typeId"], "0x71fef6bc913ac154");
  EXPECT_EQ(ops[3]["typeId"], "0x0df58829a4c725cd");
  EXPECT_EQ(ops[5]["typeId"], "0xd6c488c11172ec08");
  EXPECT_EQ(ops[10]["typeId"], "0xaa1f9f08bae07230");
  EXPECT_EQ(ops[3]["class"], "ConvolutionForward");
  // The input: Host2DeviceCopy arg_0 [8,1,32,32] Float32, no value.
  EXPECT_EQ(ops[0]["tensors"][0]["name"], "arg_0");
  EXPECT_EQ(ops[0]["tensors"][0]["shape"], nlohmann::json({8, 1, 32, 32}));
  EXPECT_EQ(ops[0]["tensors"][0]["dtype"]["dtype"], "Float32");
  EXPECT_EQ(ops[0]["tensors"][0]["valueBytes"], 0);
  // Convolution: its param, then ExecutionPolicy, decoded by field name.
  ASSERT_EQ(ops[3]["params"].size(), 2u);
  EXPECT_EQ(ops[3]["params"][0]["union"], 3);
  EXPECT_EQ(ops[3]["params"][0]["type"], "Convolution");
  EXPECT_EQ(ops[3]["params"][0]["fields"]["mode"], "CROSS_CORRELATION");
  EXPECT_EQ(ops[3]["params"][0]["fields"]["format"], "NCHW");
  EXPECT_EQ(ops[3]["params"][1]["union"], 55);
  EXPECT_EQ(ops[3]["params"][1]["fields"]["strategy"], "HEURISTIC");
  // Beyond 2^53 - 1: a decimal string, so that JavaScript reads it exactly (json_int64.h).
  EXPECT_EQ(ops[3]["params"][1]["fields"]["workspace_limit"], "18446744073709551615");
  EXPECT_EQ(ops[5]["params"][0]["fields"]["mode"], "ADD");
  EXPECT_EQ(ops[9]["params"][0]["fields"]["mode"], "SUM");
  // The constants carry the comp node xpux:0.
  EXPECT_EQ(ops[1]["compNodes"], nlohmann::json({"xpux:0"}));
  // The output.
  ASSERT_EQ(m["outputs"].size(), 1u);
  EXPECT_EQ(m["outputs"][0]["name"], "OprAttr");
  EXPECT_EQ(m["outputs"][0]["id"], 10);
  EXPECT_EQ(m["ops"]["ImmutableTensor"], 3);
  EXPECT_EQ(m["ops"]["GetVarShapeV1"], 2);
  const auto& info = m["dumpInfo"];
  EXPECT_EQ(info["nr_opr"], 11);
  EXPECT_EQ(info["tot_bytes"], 1324);
  EXPECT_EQ(info["tensor_value_bytes"], 204);
  EXPECT_EQ(info["content_hash"], "0x9e62dbf156949217");
  EXPECT_EQ(info["inputs"], nlohmann::json({"arg_0"}));
  EXPECT_EQ(info["outputs"], nlohmann::json({"OprAttr"}));
}

TEST(MgeRead, ReshapeFixtureHoldsWhatTheResearchSays) {
  auto l = Load(ReadCorpusFile(kReshapeFile));
  nlohmann::json j = l.model->Inspect();
  const auto& m = j["megengine"];
  EXPECT_EQ(m["header"]["hash"], "0x0f003fe0f89b6571");
  std::vector<std::string> expected = {"Host2DeviceCopy", "ImmutableTensor", "ReshapeV1",
                                       "ImmutableTensor", "ReshapeV1",       "ImmutableTensor",
                                       "ReshapeV1"};
  EXPECT_EQ(Types(j), expected);
  const auto& ops = m["operators"];
  EXPECT_EQ(ops[0]["tensors"][0]["name"], "data");
  EXPECT_EQ(ops[0]["tensors"][0]["shape"], nlohmann::json({1, 2, 3, 4}));
  for (int i : {1, 3, 5}) EXPECT_EQ(ops[i]["tensors"][0]["dtype"]["dtype"], "Int32");
  EXPECT_EQ(ops[2]["typeId"], "0xba3296a9aa9b5098");
  EXPECT_EQ(m["outputs"][0]["name"], "reshape(reshape[8])[12]");
  EXPECT_EQ(m["dumpInfo"]["content_hash"], "0x0f003fe0f89b6571");
  EXPECT_EQ(Count(j, "operators"), 7);
}

// Every id of the research's registration table, computed from its token.
TEST(MgeRead, TypeIdsMatchTheResearchTable) {
  std::string csv = testing::ReadResearchFile("megengine_opr_type_ids.csv");
  ASSERT_FALSE(csv.empty());
  size_t checked = 0;
  size_t pos = csv.find('\n') + 1;
  while (pos < csv.size()) {
    size_t end = csv.find('\n', pos);
    if (end == std::string::npos) end = csv.size();
    std::string line = csv.substr(pos, end - pos);
    pos = end + 1;
    std::vector<std::string> col;
    size_t s = 0;
    while (true) {
      size_t c = line.find(',', s);
      col.push_back(line.substr(s, c == std::string::npos ? std::string::npos : c - s));
      if (c == std::string::npos) break;
      s = c + 1;
    }
    if (col.size() < 6) continue;
    auto hex = [](const std::string& h) { return std::stoull(h, nullptr, 16); };
    if (!col[2].empty()) {
      EXPECT_EQ(PersistTypeId(col[0]), hex(col[2])) << col[0];
      ++checked;
    }
    if (!col[3].empty()) {
      EXPECT_EQ(UnversionedTypeId(col[0]), hex(col[3])) << col[0];
      ++checked;
    }
    if (!col[4].empty()) {
      const OprClass* cls = FindV2Class(hex(col[4]), std::stoul(col[5]));
      ASSERT_NE(cls, nullptr) << col[0];
      EXPECT_EQ(cls->key, std::string(StripVersionSuffix(col[0])));
      ++checked;
    }
  }
  EXPECT_GT(checked, 400u);
}

}  // namespace
}  // namespace graphport::mge

namespace graphport::mge {
namespace {

// The CLI summary lines of a corpus file name what a user dumps by.
TEST(MgeSummaryText, CorpusFile) {
  auto l = testing::Load(testing::ReadCorpusFile(testing::kConvFile));
  std::string text = MgeSummaryText(l.model->Inspect());
  EXPECT_NE(text.find("producer:    MegEngine FBS v1 (MGBS), mgb_version 1799900\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("hash:        0x9e62dbf156949217\n"), std::string::npos) << text;
  EXPECT_NE(text.find("operators:   11 (8 types)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  ImmutableTensor             3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("inputs:      arg_0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("outputs:     OprAttr\n"), std::string::npos) << text;
  EXPECT_NE(text.find("metadata:    none\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace graphport::mge

namespace graphport::mge {
namespace {

// A file whose mgb_version names MegEngine v1.2.0 (8.9.0): its Convolution param is decoded and
// re-dumped with the layout that release wrote (schema/param_history.h), and the re-dump is
// still the same bytes.
TEST(MgeRead, ParamsDecodeWithTheWritersLayout) {
  std::string original = testing::ReadCorpusFile(testing::kConvFile);
  testing::V1Flatbuffer fb = testing::V1FlatbufferOf(original);
  auto* graph = const_cast<mgb::serialization::fbs::Graph*>(
      mgb::serialization::fbs::GetSizePrefixedGraph(fb.data()));
  ASSERT_TRUE(reinterpret_cast<flatbuffers::Table*>(graph)->SetField<uint32_t>(
      mgb::serialization::fbs::Graph::VT_MGB_VERSION, 800900, 0));
  std::string v120 = original;
  v120.replace(original.size() - fb.size, fb.size, reinterpret_cast<const char*>(fb.data()),
               fb.size);
  auto l = testing::Load(v120);
  nlohmann::json j = l.model->Inspect();
  const auto& conv = j["megengine"]["operators"][3]["params"];
  EXPECT_EQ(conv[0]["type"], "Convolution");
  EXPECT_EQ(conv[0]["layout"], "ConvolutionV1");
  EXPECT_EQ(conv[0]["fields"]["stride_h"], 2);
  EXPECT_EQ(conv[1]["layout"], "ExecutionPolicyV0");
  EXPECT_EQ(testing::Export(l.model.get(), testing::AsLoaded(testing::CompatV1Options())).model(),
            v120);
  // The corpus itself (8.9999.0) reads with today's layout, flagged where releases differed.
  auto c = testing::Load(original);
  nlohmann::json cj = c.model->Inspect();
  EXPECT_FALSE(cj["megengine"]["operators"][3]["params"][0].contains("layout"));
}

}  // namespace
}  // namespace graphport::mge
