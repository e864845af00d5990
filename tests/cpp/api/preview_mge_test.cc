// model.preview() of MegEngine models: with optimize_for_inference's passes and without, the
// preview's operators equal the real dump's diff (read back with operator names kept).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "api/model.h"
#include "mge/test_model.h"
#include "preview_check.h"
#include "test_util.h"

namespace graphport {
namespace {

using nlohmann::json;
using testing::ExpectPreviewMatchesExport;
using testing::OptionEntry;

constexpr char kTestModel[] = "mge/mgeconvert_e4a1261_test_test_model.mge";
constexpr char kBackwardFilter[] = "mge/mgeconvert_HEAD_test_mge_convolution-backward-filter.mge";

std::unique_ptr<Model> LoadMge(const std::string& relative, testing::HeldInputs* held) {
  *held = testing::ReadInputs(testing::CorpusDir() / relative);
  return Model::Load(held->Set(relative), json::object());
}

class PreviewMge : public ::testing::TestWithParam<const char*> {};

TEST_P(PreviewMge, OptimizedDumpMatchesTheExport) {
  testing::HeldInputs held;
  auto model = LoadMge(GetParam(), &held);
  // The real dump keeps operator names too: this test knows operators by them.
  json preview = ExpectPreviewMatchesExport(model.get(), {{"keepOprName", true}});
  json info = json::parse(model->InspectJson());
  EXPECT_EQ(preview["nodes"]["before"], info["counts"][0][1]);
  json optimize = OptionEntry(preview, "optimizeForInference");
  if (optimize.is_object()) {
    EXPECT_EQ(optimize["facts"]["operators"]["after"], preview["nodes"]["after"]);
  }
}

// As loaded, no pass runs: what differs (a nameless ConvolutionV2 written as Convolution, so
// named again) is the writer's, listed under the export.
TEST_P(PreviewMge, AsLoadedIsTheWritersOnly) {
  testing::HeldInputs held;
  auto model = LoadMge(GetParam(), &held);
  json preview =
      ExpectPreviewMatchesExport(model.get(), {{"keepOprName", true}, {"asLoaded", true}});
  EXPECT_EQ(OptionEntry(preview, "optimizeForInference"), nullptr);
  for (const json& o : preview["options"]) EXPECT_EQ(o["option"], "export") << preview.dump(1);
}

INSTANTIATE_TEST_SUITE_P(Corpus, PreviewMge, ::testing::Values(kTestModel, kBackwardFilter));

// data [1,3] * w + b with named operators and b of w's shape (tests/cpp/mge/test_model.h):
// ArithFuse makes the product and the sum one FUSE_MUL_ADD3, as MegEngine does; the preview
// lists it under optimizeForInference with the pass that did it, and the export's read-back
// agrees (ExpectPreviewMatchesExport).
TEST(PreviewMgeOptimize, APassThatChangesTheGraphIsListedWithWhatItDid) {
  testing::HeldInputs held;
  held.bytes["model.mge"] = mge::testing::BuildTestModelV2({1, 3});
  auto model = Model::Load(held.Set("model.mge"), json::object());
  json preview = ExpectPreviewMatchesExport(model.get(), {{"keepOprName", true}});
  json entry = OptionEntry(preview, "optimizeForInference");
  ASSERT_NE(entry, nullptr) << preview.dump(1);
  EXPECT_EQ(entry["dropped"]["names"], json::array({"mul", "add"}));
  EXPECT_EQ(entry["added"]["count"], 1);
  ASSERT_EQ(entry["facts"]["passes"].size(), 1u) << entry.dump(1);
  EXPECT_EQ(entry["facts"]["passes"][0]["pass"], "ArithFuse");
  EXPECT_EQ(preview["nodes"]["after"].get<int>(), preview["nodes"]["before"].get<int>() - 1);
}

TEST(PreviewMgeOptimize, ANamelessDumpIsPreviewedWithNames) {
  testing::HeldInputs held;
  held.bytes["model.mge"] = mge::testing::BuildTestModelV2();
  auto model = Model::Load(held.Set("model.mge"), json::object());
  // The caller's keepOprName: false would write no names; the preview's dry run keeps them.
  json named = json::parse(model->PreviewJson(R"({"keepOprName": true})"));
  json nameless = json::parse(model->PreviewJson(R"({"keepOprName": false})"));
  EXPECT_EQ(named, nameless);
}

}  // namespace
}  // namespace graphport
