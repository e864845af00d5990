// The TensorFlow family's graph view on the corpus, through the facade: every level
// consistent, each node reached once, each input drawn once as an edge, and the details
// panel's view of half_plus_two's nodes.
#include "tf/graph_source.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "api/model.h"
#include "core/error.h"
#include "graph_view_check.h"
#include "test_util.h"

namespace graphport {
namespace {

using nlohmann::json;
using testing::CorpusGraph;

std::unique_ptr<Model> LoadCorpus(const std::string& relative, std::string* bytes) {
  *bytes = testing::ReadCorpus(relative);
  MemorySource source(*bytes);
  LoadOptions options;
  options.name = relative;
  return Model::Load(&source, options);
}

class TfGraphViewCorpusTest : public ::testing::TestWithParam<CorpusGraph> {};

TEST_P(TfGraphViewCorpusTest, LevelsCoverEveryNodeAndEveryInputOnce) {
  std::string bytes;
  auto model = LoadCorpus(GetParam().relative, &bytes);
  testing::GraphViewTotals totals = testing::WalkGraph(model.get());

  auto reference = testing::ReferenceParse(GetParam().kind, bytes);
  ASSERT_NE(reference, nullptr);
  const tensorflow::GraphDef& graph = testing::GraphOf(GetParam().kind, *reference);
  EXPECT_EQ(totals.node_count, static_cast<uint64_t>(graph.node_size()));
  std::set<std::string> names;
  for (const auto& node : graph.node()) names.insert(node.name());
  uint64_t inputs = 0, data_inputs = 0;
  for (const auto& node : graph.node()) {
    for (const std::string& input : node.input()) {
      bool control = !input.empty() && input[0] == '^';
      std::string producer = input.substr(control ? 1 : 0);
      if (!names.count(producer) && producer.find(':') != std::string::npos) {
        producer = producer.substr(0, producer.rfind(':'));
      }
      if (!names.count(producer) || producer == node.name()) continue;
      ++inputs;
      data_inputs += control ? 0 : 1;
    }
  }
  EXPECT_EQ(totals.inner_edges, inputs);
  EXPECT_EQ(totals.data_edges, data_inputs);
  EXPECT_EQ(totals.nodes, names);
}

INSTANTIATE_TEST_SUITE_P(Corpus, TfGraphViewCorpusTest,
                         ::testing::ValuesIn(testing::CorpusGraphs()), testing::CorpusTestName);

constexpr char kHalfPlusTwo[] =
    "tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta";

TEST(TfGraphViewTest, HalfPlusTwoTopLevelAndTheDetailsOfItsNodes) {
  std::string bytes;
  auto model = LoadCorpus(kHalfPlusTwo, &bytes);
  json top = json::parse(model->GraphJson(""));
  EXPECT_EQ(top["nodeCount"], 57);
  EXPECT_EQ(top["separator"], "/");
  std::map<std::string, json> by_name;
  for (const json& c : top["children"]) by_name[c["name"]] = c;
  // y = a * x + b: the variables a and b are scopes (a/read, a/Assign, a/initial_value).
  ASSERT_TRUE(by_name.count("a"));
  EXPECT_EQ(by_name["a"]["kind"], "group");
  EXPECT_EQ(by_name["y"]["kind"], "node");
  EXPECT_EQ(by_name["y"]["op"], "Add");
  ASSERT_TRUE(by_name.count("save"));

  json y = json::parse(model->NodeJson("y"));
  EXPECT_EQ(y["op"], "Add");
  EXPECT_EQ(y["attrs"]["T"], "float32");
  ASSERT_EQ(y["inputs"].size(), 2u);
  EXPECT_EQ(y["inputs"][0]["node"], "Mul");
  EXPECT_EQ(y["inputs"][0]["dtype"], "float32");
  // _output_shapes gives the shape, T the dtype.
  EXPECT_EQ(y["outputs"], json::parse(R"([{"index": 0, "dtype": "float32", "shape": [-1, 1]}])"));
  EXPECT_EQ(y["weightBytes"], 0);

  json a = json::parse(model->NodeJson("a"));
  EXPECT_EQ(a["op"], "Variable");
  EXPECT_EQ(a["attrs"]["dtype"], "float32");
  EXPECT_EQ(a["weightBytes"], 4);  // a float scalar
  EXPECT_EQ(a["outputs"][0]["shape"], json::array());
  bool read = false;
  for (const json& c : a["consumers"]) read = read || c == "a/read";
  EXPECT_TRUE(read) << a["consumers"];
}

TEST(TfGraphViewTest, SearchFindsNodesByNameOrOpInAnyCase) {
  std::string bytes;
  auto model = LoadCorpus(kHalfPlusTwo, &bytes);
  json by_op = json::parse(model->GraphSearchJson(R"({"query": "ADD"})"));
  EXPECT_EQ(by_op["total"], 1);
  EXPECT_EQ(by_op["matches"], json::parse(R"([{"name": "y", "op": "Add"}])"));
  json by_name = json::parse(model->GraphSearchJson(R"({"query": "a/read", "limit": 1})"));
  EXPECT_EQ(by_name["matches"].size(), 1u);
  EXPECT_EQ(by_name["matches"][0]["name"], "a/read");
  json restore = json::parse(model->GraphSearchJson(R"({"query": "restorev2", "limit": 1})"));
  EXPECT_GT(restore["total"].get<int>(), 1);  // the RestoreV2 ops and nodes named after them
  EXPECT_EQ(restore["matches"].size(), 1u);
  EXPECT_EQ(json::parse(model->GraphSearchJson(R"({"query": ""})"))["total"], 0);
}

TEST(TfGraphViewTest, UnknownNodesGroupsAndOptionsAreClearErrors) {
  std::string bytes;
  auto model = LoadCorpus(kHalfPlusTwo, &bytes);
  try {
    model->NodeJson("no/such/node");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_EQ(e.where().node, "no/such/node");
  }
  try {
    model->GraphJson(R"({"group": "nowhere"})");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
  }
  for (const char* bad : {R"({"group": 3})", R"({"limit": 0})", R"({"depth": 1})", "[1]"}) {
    try {
      model->GraphJson(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidOption) << bad;
    }
  }
}

}  // namespace
}  // namespace graphport
