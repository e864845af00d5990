// Detection of TF.js graph models from model.json's first bytes.
#include "tfjs/detect.h"

#include <gtest/gtest.h>

#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;
using testing::OwnedInputSet;

Detection DetectIn(OwnedInputSet* inputs) {
  Probe probe(inputs->set());
  return DetectGraphModel(&probe);
}

TEST(TfjsDetectTest, CorpusGraphModelsAreFound) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  for (const char* folder : {"simple", "prelu"}) {
    OwnedInputSet inputs;
    inputs.AddFolder(testing::CorpusDir() / "tfjs/tfjs-to-tf" / folder);
    Detection d = DetectIn(&inputs);
    EXPECT_EQ(d.score, Detection::kByStructure) << d.reason;
    EXPECT_EQ(d.format, "tfjs-graph-model");
    EXPECT_EQ(d.encoding, "json");
    EXPECT_EQ(d.primary, "model.json");
    EXPECT_NE(d.reason.find("graph model"), std::string::npos) << d.reason;
  }
}

// Only the first megabyte is looked at: a model.json cut there still detects.
TEST(TfjsDetectTest, PrefixOfALargeModelJson) {
  json nodes = json::array();
  for (int i = 0; i < 40000; ++i) {
    nodes.push_back({{"name", "n" + std::to_string(i)}, {"op", "NoOp"}});
  }
  OwnedInputSet inputs;
  inputs.Add(
      "model.json",
      json({{"modelTopology", {{"node", nodes}}}, {"weightsManifest", json::array()}}).dump());
  ASSERT_GT(inputs.bytes("model.json").size(), size_t{1} << 20);
  EXPECT_EQ(DetectIn(&inputs).score, Detection::kByStructure);
}

TEST(TfjsDetectTest, PrefersModelJsonAmongSeveralJsonFiles) {
  OwnedInputSet inputs;
  inputs.Add("a/metadata.json", "{\"labels\": []}");
  inputs.Add("a/model.json", "{\"modelTopology\": {\"node\": []}, \"weightsManifest\": []}");
  Detection d = DetectIn(&inputs);
  EXPECT_EQ(d.primary, "a/model.json");
  EXPECT_EQ(d.score, Detection::kByStructure);
}

TEST(TfjsDetectTest, LayersModelsAndWeightsManifestsAreClaimedToBeExplained) {
  OwnedInputSet layers;
  layers.Add("model.json",
             "{\"format\": \"layers-model\", \"modelTopology\": {\"class_name\": \"Model\"}}");
  Detection d = DetectIn(&layers);
  EXPECT_EQ(d.score, Detection::kByStructure);
  EXPECT_NE(d.reason.find("Keras layers model"), std::string::npos) << d.reason;

  OwnedInputSet weights;
  weights.Add("weights_manifest.json", "[{\"paths\": [\"a\"], \"weights\": []}]");
  d = DetectIn(&weights);
  EXPECT_EQ(d.score, Detection::kByStructure);
  EXPECT_NE(d.reason.find("weights manifest"), std::string::npos) << d.reason;
}

TEST(TfjsDetectTest, OtherInputsAreNotClaimed) {
  OwnedInputSet binary;
  binary.Add("model.pb", std::string("\x0a\x03\x0a\x01x", 5));
  EXPECT_EQ(DetectIn(&binary).score, 0);
  OwnedInputSet other;
  other.Add("package.json", "{\"name\": \"x\"}");
  Detection d = DetectIn(&other);
  EXPECT_EQ(d.score, 0);
  EXPECT_NE(d.reason.find("package.json"), std::string::npos) << d.reason;
  OwnedInputSet broken;
  broken.Add("model.json", "{\"modelTopology\": [}");
  d = DetectIn(&broken);
  EXPECT_EQ(d.score, 0);
  EXPECT_NE(d.reason.find("not JSON"), std::string::npos) << d.reason;
}

}  // namespace
}  // namespace graphport::tfjs
