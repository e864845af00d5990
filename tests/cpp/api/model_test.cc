#include "api/model.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "test_util.h"

namespace graphport {
namespace {

using nlohmann::json;
using testing::CorpusGraph;

std::unique_ptr<Model> LoadBytes(const std::string& bytes, LoadOptions options = {}) {
  MemorySource source(bytes);
  return Model::Load(&source, options);
}

MemoryOutputSet::File ExportSingle(Model* model, const std::string& options_json,
                                   json* info = nullptr) {
  MemoryOutputSet out;
  std::string info_text = model->ExportJson(options_json, &out);
  if (info != nullptr) *info = json::parse(info_text);
  EXPECT_EQ(out.files().size(), 1u);
  return out.files().empty() ? MemoryOutputSet::File{} : out.files()[0];
}

class ModelCorpusTest : public ::testing::TestWithParam<CorpusGraph> {
 protected:
  void SetUp() override {
    bytes_ = testing::ReadFile(GetParam().path());
    reference_ = testing::ReferenceParse(GetParam().kind, bytes_);
    ASSERT_NE(reference_, nullptr);
    const tensorflow::MetaGraphDef* mg = nullptr;
    if (GetParam().kind == tf::TfKind::kSavedModel) {
      mg = &static_cast<const tensorflow::SavedModel&>(*reference_).meta_graphs(0);
    } else if (GetParam().kind == tf::TfKind::kMetaGraphDef) {
      mg = &static_cast<const tensorflow::MetaGraphDef&>(*reference_);
    }
    meta_graph_ = mg;
    graph_ = mg ? &mg->graph_def() : &static_cast<const tensorflow::GraphDef&>(*reference_);
  }
  std::string bytes_;
  std::unique_ptr<google::protobuf::MessageLite> reference_;
  const tensorflow::MetaGraphDef* meta_graph_ = nullptr;
  const tensorflow::GraphDef* graph_ = nullptr;
};

TEST_P(ModelCorpusTest, InspectJsonHasTheExpectedFields) {
  LoadOptions options;
  options.name = GetParam().relative;
  json s = json::parse(LoadBytes(bytes_, options)->InspectJson());
  EXPECT_EQ(s["family"], "tensorflow");
  EXPECT_EQ(s["format"], tf::KindName(GetParam().kind));
  EXPECT_EQ(s["encoding"], "binary");
  EXPECT_EQ(s["nodeCount"], graph_->node_size());
  int sum = 0;
  for (const auto& [op, n] : s["ops"].items()) sum += n.get<int>();
  EXPECT_EQ(sum, graph_->node_size());
  int consts = 0;
  for (const auto& node : graph_->node()) consts += node.op() == "Const";
  EXPECT_EQ(s["constants"]["count"], consts);
  std::set<std::string> collections, signatures, got_collections, got_signatures;
  std::vector<std::string> tags;
  if (meta_graph_ != nullptr) {
    for (const auto& [k, v] : meta_graph_->collection_def()) collections.insert(k);
    for (const auto& [k, v] : meta_graph_->signature_def()) signatures.insert(k);
    tags.assign(meta_graph_->meta_info_def().tags().begin(),
                meta_graph_->meta_info_def().tags().end());
  }
  for (const auto& c : s["collections"]) got_collections.insert(c["name"].get<std::string>());
  for (const auto& c : s["signatures"]) got_signatures.insert(c["name"].get<std::string>());
  EXPECT_EQ(got_collections, collections);
  EXPECT_EQ(got_signatures, signatures);
  EXPECT_EQ(s["tags"].get<std::vector<std::string>>(), tags);
  size_t meta_graphs =
      GetParam().kind == tf::TfKind::kSavedModel
          ? static_cast<const tensorflow::SavedModel&>(*reference_).meta_graphs_size()
          : 0;
  EXPECT_EQ(s["metaGraphs"].size(), meta_graphs);
}

TEST_P(ModelCorpusTest, StreamedLoadInspectsTheSame) {
  testing::ChunkedSource chunks(bytes_);
  auto streamed = Model::Load(&chunks, LoadOptions{});
  EXPECT_EQ(json::parse(streamed->InspectJson()), json::parse(LoadBytes(bytes_)->InspectJson()));
}

TEST_P(ModelCorpusTest, ExportToTheSameKindEqualsTheInput) {
  auto model = LoadBytes(bytes_);
  for (bool as_text : {false, true}) {
    json info;
    json options = {{"to", tf::KindName(GetParam().kind)}, {"asText", as_text}};
    auto file = ExportSingle(model.get(), options.dump(), &info);
    MemorySource source(file.bytes);
    // Reload through the facade, forcing the format.
    LoadOptions load;
    load.format = std::string(tf::KindName(GetParam().kind)) + (as_text ? "-text" : "-binary");
    auto reloaded = Model::Load(&source, load);
    auto again = ExportSingle(reloaded.get(), json{{"to", tf::KindName(GetParam().kind)}}.dump());
    auto roundtrip = testing::ReferenceParse(GetParam().kind, again.bytes);
    ASSERT_NE(roundtrip, nullptr);
    EXPECT_TRUE(testing::MessagesEqual(*reference_, *roundtrip));
    EXPECT_EQ(info["format"], tf::KindName(GetParam().kind));
    EXPECT_EQ(info["encoding"], as_text ? "text" : "binary");
    EXPECT_EQ(info["nodeCount"], graph_->node_size());
  }
}

TEST_P(ModelCorpusTest, DefaultExportIsABinaryMetaGraph) {
  auto model = LoadBytes(bytes_);
  for (const char* empty : {"", "{}"}) {
    auto file = ExportSingle(model.get(), empty);
    EXPECT_EQ(file.name, "model.meta");
    tensorflow::MetaGraphDef mg;
    ASSERT_TRUE(mg.ParseFromString(file.bytes));
    EXPECT_TRUE(testing::MessagesEqual(*graph_, mg.graph_def()));
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, ModelCorpusTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

TEST(ModelTest, KerasMetadataIsUnknownFormatNamingFileAndOffset) {
  std::string bytes = testing::ReadCorpus(testing::kKerasMetadata);
  LoadOptions options;
  options.name = "keras_metadata.pb";
  try {
    LoadBytes(bytes, options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnknownFormat);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("keras_metadata.pb: ", 0), 0u) << msg;
    auto offset = testing::ByteOffsetIn(msg);
    ASSERT_TRUE(offset.has_value()) << msg;
    EXPECT_LT(*offset, bytes.size());
  }
}

TEST(ModelTest, ExplicitServeTagsWork) {
  LoadOptions options;
  options.tags = {"serve"};
  auto model = LoadBytes(testing::ReadCorpus(testing::kTf2CpuSavedModel), options);
  json s = json::parse(model->InspectJson());
  EXPECT_EQ(s["tags"], json::array({"serve"}));
  EXPECT_EQ(s["selectedMetaGraph"], 0);
}

TEST(ModelTest, ExplicitUnknownTagsAreNotFoundListingTheAvailableSets) {
  std::string bytes = testing::ReadCorpus(testing::kTf2CpuSavedModel);
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(bytes));
  LoadOptions options;
  options.tags = {"nope"};
  options.name = "tf2.pb";
  try {
    LoadBytes(bytes, options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    std::string msg = e.what();
    EXPECT_NE(msg.find("tf2.pb"), std::string::npos) << msg;
    EXPECT_NE(msg.find("nope"), std::string::npos) << msg;
    ASSERT_EQ(sm.meta_graphs_size(), 1);
    ASSERT_EQ(sm.meta_graphs(0).meta_info_def().tags_size(), 1);
    EXPECT_NE(msg.find("[" + sm.meta_graphs(0).meta_info_def().tags(0) + "]"), std::string::npos)
        << msg;
  }
}

TEST(ModelTest, EmptyNameBecomesInput) {
  LoadOptions options;
  options.name = "";
  try {
    LoadBytes("", options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kEmptyInput);
    EXPECT_EQ(std::string(e.what()).rfind("input: ", 0), 0u) << e.what();
  }
}

TEST(ModelTest, ExportsBetweenKindsThroughTheFacade) {
  std::string bytes = testing::ReadCorpus(testing::kFrozenGraph);
  tensorflow::GraphDef input;
  ASSERT_TRUE(input.ParseFromString(bytes));
  auto model = LoadBytes(bytes);

  auto meta = ExportSingle(model.get(), R"({"to": "meta-graph"})");
  tensorflow::MetaGraphDef mg;
  ASSERT_TRUE(mg.ParseFromString(meta.bytes));
  EXPECT_TRUE(testing::MessagesEqual(input, mg.graph_def()));

  auto saved = ExportSingle(model.get(), R"({"to": "saved-model", "filename": "sm.pb"})");
  EXPECT_EQ(saved.name, "sm.pb");
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(saved.bytes));
  EXPECT_EQ(sm.saved_model_schema_version(), 1);
  ASSERT_EQ(sm.meta_graphs_size(), 1);
  EXPECT_EQ(std::vector<std::string>(sm.meta_graphs(0).meta_info_def().tags().begin(),
                                     sm.meta_graphs(0).meta_info_def().tags().end()),
            std::vector<std::string>{"serve"});
  EXPECT_TRUE(testing::MessagesEqual(input, sm.meta_graphs(0).graph_def()));

  // The SavedModel loads back, with the default tags, to the same graph.
  auto reloaded = LoadBytes(saved.bytes);
  auto graph = ExportSingle(reloaded.get(), R"({"to": "graph-def"})");
  auto graph_back = testing::ReferenceParse(tf::TfKind::kGraphDef, graph.bytes);
  ASSERT_NE(graph_back, nullptr);
  EXPECT_TRUE(testing::MessagesEqual(input, *graph_back));
}

}  // namespace
}  // namespace graphport
