// Files holding several dumps: appended graphs are each listed and the load option `graph`
// picks one; an mgbtest0 container lists its test cases and keeps them on re-dump.
#include <gtest/gtest.h>

#include "mge_test_util.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT

TEST(MgeContainer, AppendedGraphsAreListedAndPicked) {
  std::string conv = ReadCorpusFile(kConvFile);
  std::string reshape = ReadCorpusFile(kReshapeFile);
  auto first = Load(conv + reshape);
  nlohmann::json j = first.model->Inspect();
  ASSERT_EQ(j["megengine"]["graphs"].size(), 2u);
  EXPECT_EQ(j["megengine"]["graphs"][1]["offset"], conv.size());
  EXPECT_EQ(j["megengine"]["graphs"][1]["bytes"], reshape.size());
  EXPECT_EQ(Count(j, "operators"), 11);
  EXPECT_EQ(Export(first.model.get(), AsLoaded(CompatV1Options())).model(), conv);
  auto second = Load(conv + reshape, {{"graph", 1}});
  EXPECT_EQ(Count(second.model->Inspect(), "operators"), 7);
  EXPECT_EQ(Export(second.model.get(), AsLoaded(CompatV1Options())).model(), reshape);
  try {
    Load(conv + reshape, {{"graph", 2}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_EQ(e.where().option, "graph");
  }
}

TEST(MgeContainer, TestCasesAreListedAndKept) {
  std::string conv = ReadCorpusFile(kConvFile);
  std::string reshape = ReadCorpusFile(kReshapeFile);
  std::string container = std::string("mgbtest0\x01\0\0\0", 12) + conv + reshape;
  auto l = Load(container);
  EXPECT_EQ(l.detection.format, "mge-test");
  nlohmann::json j = l.model->Inspect();
  EXPECT_EQ(j["format"], "mge-test");
  ASSERT_EQ(j["megengine"]["testCases"].size(), 1u);
  EXPECT_EQ(j["megengine"]["testCases"][0]["operators"], 7);
  EXPECT_EQ(j["megengine"]["graphs"][1]["role"], "test case");
  // Re-dumped with its own options, kept as loaded: the same bytes, test case included.
  Exported same = Export(l.model.get(), AsLoaded(CompatV1Options()));
  EXPECT_EQ(same.model(), container);
  EXPECT_EQ(same.info["tot_bytes"], conv.size());
  // As FBS_V2: the model changes, the container and the test case stay.
  Exported v2 = Export(l.model.get(), nullptr);
  const std::string& out = v2.model();
  EXPECT_EQ(out.substr(0, 12), container.substr(0, 12));
  EXPECT_EQ(out.substr(out.size() - reshape.size()), reshape);
  auto reloaded = Load(out);
  EXPECT_EQ(reloaded.model->Inspect()["megengine"]["graphs"][0]["format"], "mge-fbs-v2");
}

}  // namespace
}  // namespace graphport::mge
