// strip_info_file: the second output's JSON (key order dtypes, elemwise_modes, opr_types,
// hash; Python json.dump spacing), C++ class names, the v1 content hash / 0 for FBS_V2, and
// the append_json merge.
#include "mge/dump/strip_info.h"

#include <gtest/gtest.h>

#include "mge_test_util.h"
#include "test_model.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT

TEST(MgeStripInfo, ConvolutionFixtureAsFbsV1) {
  auto l = Load(ReadCorpusFile(kConvFile));
  nlohmann::json options = AsLoaded(CompatV1Options());
  options["stripInfoFile"] = "strip.json";
  Exported e = Export(l.model.get(), options);
  ASSERT_EQ(e.files.size(), 2u);
  EXPECT_EQ(e.files[1].name, "strip.json");
  EXPECT_EQ(e.info["files"], nlohmann::json({"model.mge", "strip.json"}));
  // The stored hash of the fixture is the dump's hash; Byte for the conv workspaces.
  uint64_t hash = 0x9e62dbf156949217;
  EXPECT_EQ(e.files[1].bytes,
            "{\"dtypes\": [\"Byte\", \"Float32\", \"Int32\"], \"elemwise_modes\": [\"ADD\"], "
            "\"opr_types\": [\"Broadcast\", \"ConvolutionBackwardFilter\", "
            "\"ConvolutionForward\", \"Elemwise\", \"GetVarShape\", \"Host2DeviceCopy\", "
            "\"ImmutableTensor\", \"Reduce\"], \"hash\": " +
                std::to_string(hash) + "}");
}

TEST(MgeStripInfo, FbsV2HashIsZero) {
  auto l = Load(BuildTestModelV2());
  Exported e = Export(l.model.get(), {{"stripInfoFile", "s.json"}});
  EXPECT_EQ(e.files[1].bytes,
            "{\"dtypes\": [\"Float32\"], \"elemwise_modes\": [\"ADD\", \"MUL\"], \"opr_types\": "
            "[\"Elemwise\", \"Host2DeviceCopy\", \"MultipleDeviceTensorHolder\"], \"hash\": 0}");
}

TEST(MgeStripInfo, AppendJsonMergesAsMegEngineDoes) {
  auto l = Load(BuildTestModelV2());
  nlohmann::json options = {{"dumpFormat", "FBS"}, {"stripInfoFile", "s.json"}};
  options["appendJson"] = BytesOption(
      "{\"opr_types\": [\"Zeta\", \"Elemwise\"], \"dtypes\": [\"Int8\"], \"other\": [1], "
      "\"hash\": 5}");
  Exported e = Export(l.model.get(), options);
  std::string hash =
      std::to_string(std::stoull(e.info["content_hash"].get<std::string>().substr(2), nullptr, 16));
  // Old key order kept, new values appended sorted, keys only in the new info dropped
  // (elemwise_modes), hash replaced.
  EXPECT_EQ(e.files[1].bytes,
            "{\"opr_types\": [\"Zeta\", \"Elemwise\", \"Host2DeviceCopy\", "
            "\"MultipleDeviceTensorHolder\"], \"dtypes\": [\"Int8\", \"Float32\"], \"other\": "
            "[1], \"hash\": " +
                hash + "}");
  // An empty existing file is a fresh one.
  options["appendJson"] = BytesOption("");
  EXPECT_EQ(Export(l.model.get(), options).files[1].bytes.substr(0, 12), "{\"dtypes\": [");
  options["appendJson"] = BytesOption("[1, 2]");
  try {
    Export(l.model.get(), options);
    FAIL();
  } catch (const Error& err) {
    EXPECT_EQ(err.code(), ErrorCode::kInvalidOption);
    EXPECT_EQ(err.where().option, "appendJson");
  }
}

TEST(MgeStripInfo, PythonJsonFormattingOfOldValues) {
  StripInfo info;
  info.dtypes = {"Float32"};
  info.hash = 7;
  std::string out = StripInfoJson(
      info, std::string("{\"dtypes\": [], \"x\": {\"a\": 1.5, \"b\": null, \"c\": \"\xc3\xa9\"}}"));
  EXPECT_EQ(out,
            "{\"dtypes\": [\"Float32\"], \"x\": {\"a\": 1.5, \"b\": null, \"c\": \"\\u00e9\"}, "
            "\"hash\": 7}");
}

TEST(MgeStripInfo, OldKeyOrderAndRepeatedKeysAsPythonReadsThem) {
  StripInfo info;
  info.dtypes = {"Float32"};
  info.hash = 9;
  // json.load keeps a repeated key at its first place with its last value.
  EXPECT_EQ(StripInfoJson(info, std::string("{\"z\": 1, \"dtypes\": [\"Int8\"], \"z\": {\"b\": 2, "
                                            "\"a\": [1e+20, -0.0]}}")),
            "{\"z\": {\"b\": 2, \"a\": [1e+20, -0.0]}, \"dtypes\": [\"Int8\", \"Float32\"], "
            "\"hash\": 9}");
  // Too deep or not JSON: the option's error, saying why.
  for (const std::string& bad :
       {std::string(100, '[') + std::string(100, ']'), std::string("{\"a\": 1e400}")}) {
    try {
      StripInfoJson(info, bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
      EXPECT_EQ(e.where().option, "appendJson");
      EXPECT_NE(std::string(e.what()).find("): "), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace graphport::mge
