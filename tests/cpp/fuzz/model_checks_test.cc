// The checks the Model-based fuzz targets share: a good input set really loads and exports
// (so the targets reach the writers), bad input and refused options are not findings, and a
// property that fails is reported.
#include "fuzz/targets/model_checks.h"

#include <gtest/gtest.h>

#include "core/output_set.h"
#include "test_util.h"

namespace graphport::fuzz {
namespace {

using testing::CorpusDir;
using testing::ReadFile;

std::vector<std::pair<std::string, std::string>> TfjsSimple() {
  std::filesystem::path dir = CorpusDir() / "tfjs/tfjs-to-tf/simple";
  return {{"group1-shard1of1.bin", ReadFile(dir / "group1-shard1of1.bin")},
          {"model.json", ReadFile(dir / "model.json")}};
}

TEST(ModelChecksTest, AGoodInputSetLoadsExportsAndLoadsBack) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto owned = TfjsSimple();
  std::vector<PackedFile> files(owned.begin(), owned.end());
  std::unique_ptr<Model> model;
  EXPECT_EQ(LoadAndInspect(files, &model), "");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->family().id(), "tfjs");
  int checked = 0;
  auto count = [&](const MemoryOutputSet& out) {
    checked += static_cast<int>(out.files().size());
    return std::string();
  };
  EXPECT_EQ(ExportLoadsBack(model.get(), R"({"to": "tfjs"})", true, count), "");
  EXPECT_EQ(checked, 2);  // model.json and one shard
}

TEST(ModelChecksTest, BadInputAndRefusedOptionsAreNotFindings) {
  std::unique_ptr<Model> model;
  EXPECT_EQ(LoadAndInspect({{"model.json", "{\"format\": 3}"}}, &model), "");
  EXPECT_EQ(model, nullptr);
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto owned = TfjsSimple();
  ASSERT_EQ(LoadAndInspect({owned.begin(), owned.end()}, &model), "");
  EXPECT_EQ(ExportLoadsBack(model.get(), R"({"to": "nowhere"})", false), "");
}

TEST(ModelChecksTest, AFailedPropertyIsReported) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  auto owned = TfjsSimple();
  std::unique_ptr<Model> model;
  ASSERT_EQ(LoadAndInspect({owned.begin(), owned.end()}, &model), "");
  std::string failure = ExportLoadsBack(model.get(), R"({"to": "graph-def"})", false,
                                        [](const MemoryOutputSet&) { return "wrong"; });
  EXPECT_EQ(failure, R"(export {"to": "graph-def"}: wrong)");
  bool done = true;
  EXPECT_NE(Attempt(
                "step", [] { throw std::runtime_error("boom"); }, &done),
            "");
  EXPECT_FALSE(done);
  EXPECT_EQ(Attempt(
                "step", [] { throw Error(ErrorCode::kInternal, "bug"); }, &done),
            "step: INTERNAL: bug");
}

}  // namespace
}  // namespace graphport::fuzz
