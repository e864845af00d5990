// The TensorFlow.js family's graph view: the corpus's tfjs-to-tf/simple model read from its
// folder, grouped by name scope, each weight's node with its manifest entry and shard bytes.
#include "tfjs/graph_source.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "api/model.h"
#include "graph_view_check.h"
#include "tfjs_test_util.h"

namespace graphport {
namespace {

using nlohmann::json;

class TfjsGraphViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    inputs_.Add("model.json", testing::ReadCorpus("tfjs/tfjs-to-tf/simple/model.json"));
    inputs_.Add("group1-shard1of1.bin",
                testing::ReadCorpus("tfjs/tfjs-to-tf/simple/group1-shard1of1.bin"));
    auto set = std::make_unique<MemoryInputSet>("simple");
    set->Add("model.json", inputs_.bytes("model.json"));
    set->Add("group1-shard1of1.bin", inputs_.bytes("group1-shard1of1.bin"));
    model_ = Model::Load(std::move(set), json::object());
  }
  testing::OwnedInputSet inputs_;
  std::unique_ptr<Model> model_;
};

TEST_F(TfjsGraphViewTest, TheModelGroupsByScopeAndReachesEveryNode) {
  json summary = json::parse(model_->InspectJson());
  EXPECT_EQ(summary["family"], "tfjs");
  testing::GraphViewTotals totals = testing::WalkGraph(model_.get());
  EXPECT_EQ(totals.node_count, summary["nodeCount"]);
  EXPECT_EQ(totals.nodes, (std::set<std::string>{"simple_5x/output/MatMul/ReadVariableOp",
                                                 "simple_5x/output/BiasAdd/ReadVariableOp", "x",
                                                 "simple_5x/output/BiasAdd", "Identity"}));
  EXPECT_EQ(totals.inner_edges, 4u);  // the fused MatMul's three inputs, Identity's one

  json top = json::parse(model_->GraphJson(""));
  ASSERT_EQ(top["children"].size(), 3u);
  EXPECT_EQ(top["children"][0]["name"], "simple_5x");
  EXPECT_EQ(top["children"][0]["nodes"], 3);
  EXPECT_EQ(top["children"][0]["weightBytes"], 8);  // two float32 weights of one element
}

TEST_F(TfjsGraphViewTest, AWeightsNodeHasItsManifestEntry) {
  json w = json::parse(model_->NodeJson("simple_5x/output/MatMul/ReadVariableOp"));
  EXPECT_EQ(w["op"], "Const");
  EXPECT_EQ(w["weightBytes"], 4);
  EXPECT_EQ(w["weight"]["dtype"], "float32");
  EXPECT_EQ(w["weight"]["shape"], json::array({1, 1}));
  EXPECT_EQ(w["outputs"][0]["shape"], json::array({1, 1}));
  EXPECT_EQ(w["consumers"], json::array({"simple_5x/output/BiasAdd"}));

  json fused = json::parse(model_->NodeJson("simple_5x/output/BiasAdd"));
  EXPECT_EQ(fused["op"], "_FusedMatMul");
  ASSERT_EQ(fused["inputs"].size(), 3u);
  EXPECT_EQ(fused["inputs"][0]["node"], "x");
  EXPECT_FALSE(fused.contains("weight"));
}

}  // namespace
}  // namespace graphport
