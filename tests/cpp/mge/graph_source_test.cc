// The MegEngine family's graph view on the corpus files: operators as nodes with their
// inputs' producers as edges, the details of an operator (params, vars, dtypes, shapes).
#include "mge/graph_source.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "api/model.h"
#include "graph_view_check.h"
#include "test_util.h"

namespace graphport {
namespace {

using nlohmann::json;

std::unique_ptr<Model> LoadMge(const std::string& relative, std::string* bytes) {
  *bytes = testing::ReadCorpus(relative);
  MemorySource source(*bytes);
  LoadOptions options;
  options.name = relative;
  return Model::Load(&source, options);
}

// The corpus's test_model.mge: data -> Reshape (3 times, each with an ImmutableTensor shape).
constexpr char kTestModel[] = "mge/mgeconvert_e4a1261_test_test_model.mge";

TEST(MgeGraphViewTest, EveryOperatorIsANodeAndEveryInputVarAnEdge) {
  for (const char* relative :
       {kTestModel, "mge/mgeconvert_HEAD_test_mge_convolution-backward-filter.mge"}) {
    SCOPED_TRACE(relative);
    std::string bytes;
    auto model = LoadMge(relative, &bytes);
    json summary = json::parse(model->InspectJson());
    const json& operators = summary["megengine"]["operators"];
    testing::GraphViewTotals totals = testing::WalkGraph(model.get());
    EXPECT_EQ(totals.node_count, operators.size());
    uint64_t inputs = 0;
    for (const json& op : operators) inputs += op["inputs"].size();
    EXPECT_EQ(totals.inner_edges, inputs);
    EXPECT_EQ(totals.data_edges, inputs);
  }
}

TEST(MgeGraphViewTest, TestModelNodesAreNamedByTypeAndIndexAndHaveDetails) {
  std::string bytes;
  auto model = LoadMge(kTestModel, &bytes);
  json top = json::parse(model->GraphJson(""));
  EXPECT_EQ(top["separator"], ".");
  ASSERT_EQ(top["children"].size(), 7u);
  EXPECT_EQ(top["children"][0]["name"], "Host2DeviceCopy#0");
  EXPECT_EQ(top["children"][2]["name"], "ReshapeV1#2");
  EXPECT_EQ(top["children"][1]["weightBytes"], 12);  // the Int32 shape [3] of the reshape
  // Host2DeviceCopy -> Reshape, ImmutableTensor -> Reshape, then each Reshape to the next.
  EXPECT_EQ(top["edges"].size(), 6u);

  json reshape = json::parse(model->NodeJson("ReshapeV1#2"));
  EXPECT_EQ(reshape["op"], "ReshapeV1");
  EXPECT_EQ(reshape["operator"], 2);
  ASSERT_EQ(reshape["inputs"].size(), 2u);
  EXPECT_EQ(reshape["inputs"][0]["node"], "Host2DeviceCopy#0");
  EXPECT_EQ(reshape["inputs"][1]["node"], "ImmutableTensor#1");
  EXPECT_EQ(reshape["inputs"][1]["shape"], json::array({3}));
  EXPECT_EQ(reshape["inputs"][1]["dtype"], "Int32");
  ASSERT_EQ(reshape["params"].size(), 1u);
  EXPECT_EQ(reshape["params"][0]["fields"]["axis"], 7);
  EXPECT_EQ(reshape["consumers"], json::array({"ReshapeV1#4"}));

  json data = json::parse(model->NodeJson("Host2DeviceCopy#0"));
  EXPECT_EQ(data["device"], "xpux:0");
  EXPECT_EQ(data["outputs"][0]["shape"], json::array({1, 2, 3, 4}));
  EXPECT_EQ(data["outputs"][0]["dtype"], "Float32");
}

}  // namespace
}  // namespace graphport
