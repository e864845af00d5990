#include "tf/tf_model.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/error.h"
#include "core/limits.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using testing::CorpusGraph;

// The corpus must be there: CI places ../shared beside the clone. This test names the
// problem when it is not (every corpus test fails too).
TEST(CorpusTest, IsPresentWithTheExpectedGraphs) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  int saved_models = 0, meta_graphs = 0, graph_defs = 0;
  for (const CorpusGraph& g : testing::CorpusGraphs()) {
    EXPECT_TRUE(testing::fs::is_regular_file(g.path())) << g.relative;
    saved_models += g.kind == TfKind::kSavedModel;
    meta_graphs += g.kind == TfKind::kMetaGraphDef;
    graph_defs += g.kind == TfKind::kGraphDef;
  }
  // research/tensorflow.md §3.4 lists 13 saved_model.pb files (two 2_versions, the config
  // pair counted twice) and two export.meta.
  EXPECT_EQ(saved_models, 13);
  EXPECT_EQ(meta_graphs, 2);
  EXPECT_EQ(graph_defs, 1);
  EXPECT_TRUE(testing::fs::is_regular_file(testing::CorpusDir() / testing::kKerasMetadata));
}

std::unique_ptr<TfModel> LoadBytes(const std::string& bytes, TfLoadOptions options = {}) {
  MemorySource source(bytes);
  return TfModel::Load(&source, options);
}

class TfModelCorpusTest : public ::testing::TestWithParam<CorpusGraph> {
 protected:
  void SetUp() override {
    bytes_ = testing::ReadFile(GetParam().path());
    reference_ = testing::ReferenceParse(GetParam().kind, bytes_);
    ASSERT_NE(reference_, nullptr);
  }
  void ExpectLoadedAsReference(const TfModel& model) {
    EXPECT_EQ(KindName(model.format().kind), std::string(KindName(GetParam().kind)));
    EXPECT_FALSE(model.format().text);
    EXPECT_EQ(model.input_bytes(), bytes_.size());
    EXPECT_FALSE(model.detection_reason().empty());
    if (model.format().kind != GetParam().kind) return;
    EXPECT_TRUE(testing::MessagesEqual(*reference_, model.root()));
    switch (GetParam().kind) {
      case TfKind::kSavedModel: {
        ASSERT_NE(model.saved_model(), nullptr);
        ASSERT_GE(model.selected_meta_graph(), 0);
        EXPECT_EQ(model.meta_graph(),
                  &model.saved_model()->meta_graphs(model.selected_meta_graph()));
        EXPECT_EQ(&model.graph(), &model.meta_graph()->graph_def());
        break;
      }
      case TfKind::kMetaGraphDef:
        EXPECT_EQ(model.saved_model(), nullptr);
        EXPECT_EQ(&model.graph(), &model.meta_graph()->graph_def());
        EXPECT_EQ(model.selected_meta_graph(), -1);
        break;
      case TfKind::kGraphDef:
        EXPECT_EQ(model.saved_model(), nullptr);
        EXPECT_EQ(model.meta_graph(), nullptr);
        EXPECT_EQ(model.selected_meta_graph(), -1);
        break;
    }
  }
  std::string bytes_;
  std::unique_ptr<google::protobuf::MessageLite> reference_;
};

TEST_P(TfModelCorpusTest, LoadsWithTheFormatDetected) {
  auto model = LoadBytes(bytes_);
  ExpectLoadedAsReference(*model);
  EXPECT_NE(model->detection_reason().find("binary protobuf"), std::string::npos)
      << model->detection_reason();
}

TEST_P(TfModelCorpusTest, LoadsWithTheFormatForced) {
  std::string kind = KindName(GetParam().kind);
  for (const std::string& format : {kind, kind + "-binary"}) {
    TfLoadOptions options;
    options.format = format;
    auto model = LoadBytes(bytes_, options);
    ExpectLoadedAsReference(*model);
    EXPECT_EQ(model->detection_reason(), "format given by the caller");
  }
}

TEST_P(TfModelCorpusTest, StreamedLoadEqualsInMemory) {
  testing::ChunkedSource source(bytes_);
  auto model = TfModel::Load(&source, TfLoadOptions{});
  ExpectLoadedAsReference(*model);
  EXPECT_GT(source.reads(), 1u);
}

TEST_P(TfModelCorpusTest, LoadsProtocTextAsText) {
  std::string error;
  auto text = testing::ProtocDecode(GetParam().kind, GetParam().path(), &error);
  ASSERT_TRUE(text.has_value()) << error;
  for (bool streamed : {false, true}) {
    MemorySource memory(*text);
    testing::ChunkedSource chunks(*text);
    ByteSource* source = streamed ? static_cast<ByteSource*>(&chunks) : &memory;
    auto model = TfModel::Load(source, TfLoadOptions{});
    EXPECT_EQ(KindName(model->format().kind), std::string(KindName(GetParam().kind)));
    EXPECT_TRUE(model->format().text);
    EXPECT_EQ(model->input_bytes(), text->size());
    EXPECT_TRUE(testing::MessagesEqual(*reference_, model->root()));
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, TfModelCorpusTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

// --- SavedModel tag selection ----------------------------------------------------------------

// The matrix SavedModel plus a second MetaGraphDef tagged {serve, gpu} with one node fewer,
// so a test can tell which one was picked.
std::string TwoMetaGraphSavedModel(tensorflow::SavedModel* out) {
  tensorflow::SavedModel saved_model;
  EXPECT_TRUE(saved_model.ParseFromString(testing::ReadCorpus(testing::kMatrixSavedModel)));
  EXPECT_EQ(saved_model.meta_graphs_size(), 1);
  tensorflow::MetaGraphDef* gpu = saved_model.add_meta_graphs();
  *gpu = saved_model.meta_graphs(0);
  gpu->mutable_meta_info_def()->clear_tags();
  gpu->mutable_meta_info_def()->add_tags("serve");
  gpu->mutable_meta_info_def()->add_tags("gpu");
  gpu->mutable_graph_def()->mutable_node()->RemoveLast();
  *out = saved_model;
  return saved_model.SerializeAsString();
}

TEST(TfModelTagsTest, ExplicitServeSelectsTheServeMetaGraph) {
  std::string bytes = testing::ReadCorpus(testing::kMatrixSavedModel);
  TfLoadOptions options;
  options.tags = {"serve"};
  options.tags_explicit = true;
  auto model = LoadBytes(bytes, options);
  EXPECT_EQ(model->selected_meta_graph(), 0);
  ASSERT_NE(model->meta_graph(), nullptr);
  std::set<std::string> tags(model->meta_graph()->meta_info_def().tags().begin(),
                             model->meta_graph()->meta_info_def().tags().end());
  EXPECT_EQ(tags, std::set<std::string>{"serve"});
}

TEST(TfModelTagsTest, ExplicitUnknownTagsAreNotFoundAndListTheAvailableSets) {
  tensorflow::SavedModel saved_model;
  std::string bytes = TwoMetaGraphSavedModel(&saved_model);
  TfLoadOptions options;
  options.tags = {"nope"};
  options.tags_explicit = true;
  options.name = "two.pb";
  try {
    LoadBytes(bytes, options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("two.pb: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("nope"), std::string::npos) << msg;
    for (const auto& mg : saved_model.meta_graphs()) {
      std::string set = "[";
      for (int i = 0; i < mg.meta_info_def().tags_size(); ++i) {
        set += (i ? ", " : "") + mg.meta_info_def().tags(i);
      }
      set += "]";
      EXPECT_NE(msg.find(set), std::string::npos) << set << " missing from: " << msg;
    }
  }
}

TEST(TfModelTagsTest, ExactTagSetSelectsRegardlessOfOrder) {
  tensorflow::SavedModel saved_model;
  std::string bytes = TwoMetaGraphSavedModel(&saved_model);
  for (std::vector<std::string> tags :
       {std::vector<std::string>{"gpu", "serve"}, std::vector<std::string>{"serve", "gpu"}}) {
    TfLoadOptions options;
    options.tags = tags;
    options.tags_explicit = true;
    auto model = LoadBytes(bytes, options);
    EXPECT_EQ(model->selected_meta_graph(), 1);
    EXPECT_EQ(model->graph().node_size(), saved_model.meta_graphs(1).graph_def().node_size());
  }
  TfLoadOptions serve;
  serve.tags = {"serve"};
  serve.tags_explicit = true;
  auto model = LoadBytes(bytes, serve);
  EXPECT_EQ(model->selected_meta_graph(), 0);
  EXPECT_EQ(model->graph().node_size(), saved_model.meta_graphs(0).graph_def().node_size());
  // A subset is not a match: TensorFlow selects by the exact set.
  TfLoadOptions gpu;
  gpu.tags = {"gpu"};
  gpu.tags_explicit = true;
  EXPECT_THROW(LoadBytes(bytes, gpu), Error);
}

TEST(TfModelTagsTest, DefaultTagsPickTheOnlyMetaGraphWhateverItsTags) {
  tensorflow::SavedModel saved_model;
  ASSERT_TRUE(saved_model.ParseFromString(testing::ReadCorpus(testing::kMatrixSavedModel)));
  saved_model.mutable_meta_graphs(0)->mutable_meta_info_def()->clear_tags();
  saved_model.mutable_meta_graphs(0)->mutable_meta_info_def()->add_tags("train");
  std::string bytes = saved_model.SerializeAsString();
  auto model = LoadBytes(bytes);
  EXPECT_EQ(model->selected_meta_graph(), 0);
  // ...but explicit tags still must match.
  TfLoadOptions options;
  options.tags = {"serve"};
  options.tags_explicit = true;
  try {
    LoadBytes(bytes, options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_NE(std::string(e.what()).find("[train]"), std::string::npos) << e.what();
  }
}

TEST(TfModelTagsTest, DefaultTagsWithSeveralMetaGraphsPickServe) {
  tensorflow::SavedModel saved_model;
  std::string bytes = TwoMetaGraphSavedModel(&saved_model);
  auto model = LoadBytes(bytes);
  EXPECT_EQ(model->selected_meta_graph(), 0);
}

TEST(TfModelTest, SavedModelWithoutMetaGraphsIsAParseError) {
  // saved_model_schema_version: 1 and nothing else.
  TfLoadOptions options;
  options.format = "saved-model";
  options.name = "empty_sm";
  try {
    LoadBytes(std::string("\x08\x01", 2), options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("empty_sm"), std::string::npos) << e.what();
  }
}

TEST(TfModelTest, UnknownFormatNameIsAnInvalidOption) {
  std::string bytes = testing::ReadCorpus(testing::kFrozenGraph);
  for (const char* format : {"onnx", "graph-def-json", "GraphDef", "-text"}) {
    TfLoadOptions options;
    options.format = format;
    try {
      LoadBytes(bytes, options);
      FAIL() << format << " loaded";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidOption) << format;
      EXPECT_NE(std::string(e.what()).find(format), std::string::npos) << e.what();
    }
  }
}

TEST(TfModelTest, ForcedTextOnBinaryIsAParseErrorWithLineAndColumn) {
  std::string bytes = testing::ReadCorpus(testing::kFrozenGraph);
  TfLoadOptions options;
  options.format = "graph-def-text";
  options.name = "frozen_graph.pb";
  try {
    LoadBytes(bytes, options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("frozen_graph.pb"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(" column "), std::string::npos) << e.what();
  }
}

TEST(TfModelTest, EmptyInputIsEmptyInputWhateverTheFormat) {
  for (const char* format : {"auto", "graph-def", "saved-model-binary", "meta-graph-text"}) {
    for (bool streamed : {false, true}) {
      MemorySource memory(std::string_view{});
      testing::ChunkedSource chunks("");
      ByteSource* source = streamed ? static_cast<ByteSource*>(&chunks) : &memory;
      TfLoadOptions options;
      options.format = format;
      options.name = "nothing.pb";
      try {
        TfModel::Load(source, options);
        FAIL() << format << " loaded";
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::kEmptyInput) << format;
        EXPECT_NE(std::string(e.what()).find("nothing.pb"), std::string::npos) << e.what();
      }
    }
  }
}

// Detection walks only the first kBinaryDetectionScanBytes of a binary input; damage past
// them is found by the load, which says where.
TEST(TfModelTest, DamagePastDetectionsWindowIsAParseErrorWithItsOffset) {
  tensorflow::GraphDef graph;
  for (int i = 0; i < 20000; ++i) {
    tensorflow::NodeDef* node = graph.add_node();
    node->set_name("node_" + std::to_string(i));
    node->set_op("NoOp");
  }
  const std::string before = graph.SerializeAsString();
  ASSERT_GT(before.size(), kBinaryDetectionScanBytes);
  const std::string damaged = before + std::string("\x0f\x00", 2) + before;
  TfLoadOptions options;
  options.name = "damaged.pb";
  try {
    LoadBytes(damaged, options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError) << e.what();
    EXPECT_NE(std::string(e.what()).find("damaged.pb"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at byte " + std::to_string(before.size())),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace graphport::tf
