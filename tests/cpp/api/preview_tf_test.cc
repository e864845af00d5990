// model.preview() of TensorFlow models: for a MetaGraphDef and SavedModel folders, each
// export_meta_graph option and the freeze, the preview's nodes equal the real export's diff
// (tests/cpp/preview_check.h), and each option's entry says what it did.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "api/model.h"
#include "preview_check.h"
#include "test_util.h"

namespace graphport {
namespace {

using nlohmann::json;
using testing::ExpectPreviewMatchesExport;
using testing::OptionEntry;

constexpr char kHalfPlusTwoMeta[] =
    "tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta";
constexpr char kGpuSavedModel[] =
    "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_gpu/00000123";
constexpr char kTf2SavedModel[] =
    "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123";

std::unique_ptr<Model> LoadCorpus(const std::string& relative, testing::HeldInputs* held) {
  *held = testing::ReadInputs(testing::CorpusDir() / relative);
  return Model::Load(held->Set(relative), json::object());
}

TEST(PreviewTf, ExportScopeKeepsRenamesAndDropsAsTheExportDoes) {
  testing::HeldInputs held;
  auto model = LoadCorpus(kHalfPlusTwoMeta, &held);
  auto strip = [](const std::string& name) {
    return name.rfind("save/", 0) == 0 ? name.substr(5) : std::string();
  };
  json preview = ExpectPreviewMatchesExport(model.get(), {{"exportScope", "save"}}, strip);
  json scope = OptionEntry(preview, "exportScope");
  ASSERT_TRUE(scope.is_object()) << preview.dump(1);
  EXPECT_EQ(scope["label"], "exportScope 'save'");
  EXPECT_EQ(scope["kept"],
            preview["nodes"]["after"].get<uint64_t>() - preview["added"]["count"].get<uint64_t>());
  EXPECT_GT(scope["dropped"]["count"].get<uint64_t>(), 0u);
  EXPECT_GT(scope["changed"]["kinds"]["renamed"].get<uint64_t>(), 0u);
  EXPECT_EQ(scope["text"].get<std::string>().rfind("exportScope 'save': ", 0), 0u) << scope["text"];
}

TEST(PreviewTf, ClearDevicesChangesTheNodesThatHadOne) {
  testing::HeldInputs held;
  auto model = LoadCorpus(kGpuSavedModel, &held);
  json preview = ExpectPreviewMatchesExport(model.get(), {{"clearDevices", true}});
  json clear = OptionEntry(preview, "clearDevices");
  ASSERT_TRUE(clear.is_object()) << preview.dump(1);
  uint64_t changed = clear["changed"]["count"];
  EXPECT_GT(changed, 0u);
  EXPECT_EQ(clear["changed"]["kinds"]["device cleared"], changed);
  EXPECT_EQ(clear["text"], "clearDevices: " + std::to_string(changed) + " nodes changed");
  EXPECT_EQ(preview["dropped"]["count"], 0);
  EXPECT_EQ(preview["added"]["count"], 0);
}

TEST(PreviewTf, NoOptionNoChange) {
  testing::HeldInputs held;
  auto model = LoadCorpus(kGpuSavedModel, &held);
  json preview = ExpectPreviewMatchesExport(model.get(), json::object());
  EXPECT_EQ(preview["changed"]["count"], 0);
  EXPECT_EQ(preview["nodes"]["before"], preview["nodes"]["after"]);
  EXPECT_TRUE(preview["options"].empty()) << preview.dump(1);
}

TEST(PreviewTf, StripDefaultAttrsAndClearExtraneousSaversMatchTheExport) {
  testing::HeldInputs held;
  auto model = LoadCorpus(kHalfPlusTwoMeta, &held);
  json preview = ExpectPreviewMatchesExport(
      model.get(), {{"stripDefaultAttrs", true}, {"clearExtraneousSavers", true}});
  json strip = OptionEntry(preview, "stripDefaultAttrs");
  ASSERT_TRUE(strip.is_object()) << preview.dump(1);
  EXPECT_GT(strip["changed"]["kinds"]["attrs removed"].get<uint64_t>(), 0u);
}

TEST(PreviewTf, SavedModelOptionsTogetherMatchTheExport) {
  testing::HeldInputs held;
  auto model = LoadCorpus(kGpuSavedModel, &held);
  ExpectPreviewMatchesExport(model.get(), {{"clearDevices", true},
                                           {"stripDefaultAttrs", true},
                                           {"clearExtraneousSavers", true},
                                           {"to", "graph-def"}});
}

TEST(PreviewTf, FreezeDropsAndFoldsAsTheExportDoes) {
  testing::HeldInputs held;
  auto model = LoadCorpus(kTf2SavedModel, &held);
  json preview = ExpectPreviewMatchesExport(model.get(), {{"freeze", true}, {"to", "graph-def"}});
  json freeze = OptionEntry(preview, "freeze");
  ASSERT_TRUE(freeze.is_object()) << preview.dump(1);
  EXPECT_GT(freeze["dropped"]["count"].get<uint64_t>() + freeze["added"]["count"].get<uint64_t>(),
            0u);
  EXPECT_EQ(freeze["facts"]["signature"], "serving_default");
}

TEST(PreviewTf, WritesNothingAndThrowsWhatTheExportThrows) {
  testing::HeldInputs held;
  auto model = LoadCorpus(kHalfPlusTwoMeta, &held);
  EXPECT_THROW(model->PreviewJson(R"({"noSuchOption": true})"), Error);
  EXPECT_THROW(model->PreviewJson("[1]"), Error);
}

}  // namespace
}  // namespace graphport
