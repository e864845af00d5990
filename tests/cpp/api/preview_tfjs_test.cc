// model.preview() of TensorFlow.js models: written back to TF.js quantized or unfused, and to
// TensorFlow formats, the preview's nodes equal the real export's diff.
#include <gtest/gtest.h>

#include <filesystem>
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

constexpr char kSimple[] = "tfjs/tfjs-to-tf/simple";
constexpr char kPrelu[] = "tfjs/tfjs-to-tf/prelu";

// The model.json and its shard (the folder's frozen_graph.pb is the TensorFlow twin).
std::unique_ptr<Model> LoadTfjs(const std::string& relative, testing::HeldInputs* held) {
  *held = testing::ReadInputs(testing::CorpusDir() / relative);
  held->bytes.erase("frozen_graph.pb");
  return Model::Load(held->Set(relative), json::object());
}

// antispoof: 26 nodes, its weights stored as float16 (@vladmandic/human, a devDependency).
// uint8 changes the values of the nine weights it quantizes; float16 again changes none, and
// the preview says so.
TEST(PreviewTfjs, QuantizeChangesTheWeightsItQuantizes) {
  testing::HeldInputs held;
  const std::filesystem::path dir = GRAPHPORT_HUMAN_MODELS_DIR;
  held.bytes["antispoof.json"] = testing::ReadFile(dir / "antispoof.json");
  held.bytes["antispoof.bin"] = testing::ReadFile(dir / "antispoof.bin");
  auto model = Model::Load(held.Set("antispoof"), json::object());
  json preview = ExpectPreviewMatchesExport(model.get(), {{"to", "tfjs"}, {"quantize", "uint8"}});
  json quantize = OptionEntry(preview, "quantize");
  ASSERT_TRUE(quantize.is_object()) << preview.dump(1);
  EXPECT_EQ(quantize["changed"]["kinds"]["value changed"], 9);
  EXPECT_EQ(quantize["text"], "quantize uint8: 9 nodes changed");
  EXPECT_EQ(preview["dropped"]["count"], 0);
  json again = ExpectPreviewMatchesExport(model.get(), {{"to", "tfjs"}, {"quantize", "float16"}});
  EXPECT_EQ(again["changed"]["count"], 0) << again.dump(1);
}

TEST(PreviewTfjs, WrittenBackAsItIsChangesNothing) {
  testing::HeldInputs held;
  auto model = LoadTfjs(kSimple, &held);
  json preview = ExpectPreviewMatchesExport(model.get(), {{"to", "tfjs"}});
  EXPECT_EQ(preview["changed"]["count"], 0) << preview.dump(1);
  EXPECT_EQ(preview["dropped"]["count"], 0);
}

TEST(PreviewTfjs, UnfuseOpsMatchesTheExport) {
  testing::HeldInputs held;
  auto model = LoadTfjs(kPrelu, &held);
  json preview = ExpectPreviewMatchesExport(
      model.get(), {{"to", "tfjs"}, {"unfuseOps", true}, {"allowUnsupportedOps", true}});
  json unfuse = OptionEntry(preview, "unfuseOps");
  ASSERT_TRUE(unfuse.is_object()) << preview.dump(1);
  EXPECT_GT(unfuse["changed"]["count"].get<uint64_t>() + unfuse["added"]["count"].get<uint64_t>(),
            0u);
}

TEST(PreviewTfjs, ToGraphDefMatchesTheExport) {
  testing::HeldInputs held;
  auto model = LoadTfjs(kPrelu, &held);
  ExpectPreviewMatchesExport(model.get(), {{"to", "graph-def"}, {"allowUnsupportedOps", true}});
}

// A TensorFlow SavedModel written as TF.js: frozen, optimized, read back as TF.js.
TEST(PreviewTfjs, SavedModelToTfjsMatchesTheModelReadBack) {
  testing::HeldInputs held = testing::ReadInputs(
      testing::CorpusDir() /
      "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123");
  auto model = Model::Load(held.Set("tf2_cpu"), json::object());
  json preview = ExpectPreviewMatchesExport(model.get(), {{"to", "tfjs"}});
  EXPECT_TRUE(OptionEntry(preview, "freeze").is_object()) << preview.dump(1);
}

}  // namespace
}  // namespace graphport
