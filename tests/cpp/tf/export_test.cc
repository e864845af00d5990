#include "tf/export.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using testing::CorpusGraph;

constexpr TfKind kKinds[] = {TfKind::kGraphDef, TfKind::kMetaGraphDef, TfKind::kSavedModel};

std::unique_ptr<google::protobuf::MessageLite> Snapshot(const TfModel& model) {
  auto copy = testing::NewRoot(model.format().kind);
  copy->CheckTypeAndMergeFrom(model.root());
  return copy;
}

struct Exported {
  std::string name;
  std::string bytes;
  nlohmann::json info;
};

Exported ExportOne(TfModel* model, TfKind to, bool as_text, const std::string& filename = "") {
  MemoryOutputSet out;
  TfExportOptions options;
  options.to = to;
  options.as_text = as_text;
  options.filename = filename;
  nlohmann::json info = Export(model, options, &out);
  EXPECT_EQ(out.files().size(), 1u);
  if (out.files().empty()) return {};
  return {out.files()[0].name, out.files()[0].bytes, info};
}

using testing::GraphOf;

std::unique_ptr<google::protobuf::MessageLite> ParseOutput(TfKind kind, const Exported& e,
                                                           bool text) {
  auto m = testing::NewRoot(kind);
  bool ok = text ? testing::ParseTextReference(e.bytes, m.get()) : m->ParseFromString(e.bytes);
  if (!ok) return nullptr;
  return m;
}

class ExportCorpusTest : public ::testing::TestWithParam<CorpusGraph> {
 protected:
  void SetUp() override {
    bytes_ = testing::ReadFile(GetParam().path());
    source_ = std::make_unique<MemorySource>(bytes_);
    model_ = TfModel::Load(source_.get(), TfLoadOptions{});
    ASSERT_EQ(model_->format().kind, GetParam().kind);
    reference_ = testing::ReferenceParse(GetParam().kind, bytes_);
    ASSERT_NE(reference_, nullptr);
  }
  std::string bytes_;
  std::unique_ptr<MemorySource> source_;
  std::unique_ptr<TfModel> model_;
  std::unique_ptr<google::protobuf::MessageLite> reference_;
};

TEST_P(ExportCorpusTest, EveryKindAndEncodingIsDeterministicAndLeavesTheModelUnchanged) {
  auto before = Snapshot(*model_);
  for (TfKind to : kKinds) {
    for (bool as_text : {false, true}) {
      SCOPED_TRACE(std::string(KindName(to)) + (as_text ? " text" : " binary"));
      Exported first = ExportOne(model_.get(), to, as_text);
      EXPECT_TRUE(testing::MessagesEqual(*before, model_->root()));
      Exported second = ExportOne(model_.get(), to, as_text);
      EXPECT_TRUE(testing::MessagesEqual(*before, model_->root()));
      EXPECT_EQ(first.name, DefaultFileName(to, as_text));
      EXPECT_FALSE(first.bytes.empty());
      EXPECT_TRUE(first.bytes == second.bytes) << "two exports differ";
      EXPECT_EQ(first.info["format"], KindName(to));
      EXPECT_EQ(first.info["encoding"], as_text ? "text" : "binary");
      EXPECT_EQ(first.info["nodeCount"], model_->graph().node_size());
    }
  }
  // Root pointers too: the export hands borrowed subtrees back to where they were.
  EXPECT_TRUE(testing::MessagesEqual(*reference_, model_->root()));
}

// What every export must hold whatever the export options' defaults become: the graph
// unchanged (no option asks to change it), wrapped the way TensorFlow wraps it.
TEST_P(ExportCorpusTest, EveryKindHoldsTheGraph) {
  const TfKind from = GetParam().kind;
  const tensorflow::GraphDef& graph = GraphOf(from, *reference_);
  for (TfKind to : kKinds) {
    for (bool as_text : {false, true}) {
      SCOPED_TRACE(std::string(KindName(to)) + (as_text ? " text" : " binary"));
      Exported e = ExportOne(model_.get(), to, as_text);
      auto parsed = ParseOutput(to, e, as_text);
      ASSERT_NE(parsed, nullptr) << "libprotobuf cannot parse the export";
      if (to == TfKind::kSavedModel) {
        const auto& sm = static_cast<const tensorflow::SavedModel&>(*parsed);
        if (from == TfKind::kSavedModel) {
          EXPECT_TRUE(testing::MessagesEqual(*reference_, sm));  // saved-model -> saved-model
          continue;
        }
        EXPECT_EQ(sm.saved_model_schema_version(), 1);
        ASSERT_EQ(sm.meta_graphs_size(), 1);
        if (from == TfKind::kGraphDef) {
          EXPECT_EQ(std::vector<std::string>(sm.meta_graphs(0).meta_info_def().tags().begin(),
                                             sm.meta_graphs(0).meta_info_def().tags().end()),
                    std::vector<std::string>{"serve"});
        }
      }
      EXPECT_TRUE(testing::MessagesEqual(graph, GraphOf(to, *parsed)));
    }
  }
}

// graph-def text export is what protoc prints for the graph (written here by libprotobuf).
TEST_P(ExportCorpusTest, GraphDefTextEqualsProtocDecodeOfTheGraph) {
  testing::TempFile graph_file(GraphOf(GetParam().kind, *reference_).SerializeAsString());
  std::string error;
  auto expected = testing::ProtocDecode(TfKind::kGraphDef, graph_file.path(), &error);
  ASSERT_TRUE(expected.has_value()) << error;
  Exported e = ExportOne(model_.get(), TfKind::kGraphDef, /*as_text=*/true);
  EXPECT_TRUE(e.bytes == *expected) << "text export differs from protoc --decode";
}

// For every kind: the text export is what protoc prints for the binary export.
TEST_P(ExportCorpusTest, TextExportEqualsProtocDecodeOfTheBinaryExport) {
  for (TfKind to : kKinds) {
    SCOPED_TRACE(KindName(to));
    Exported binary = ExportOne(model_.get(), to, false);
    Exported text = ExportOne(model_.get(), to, true);
    testing::TempFile file(binary.bytes);
    std::string error;
    auto decoded = testing::ProtocDecode(to, file.path(), &error);
    ASSERT_TRUE(decoded.has_value()) << error;
    EXPECT_TRUE(text.bytes == *decoded) << "text export differs from protoc --decode";
  }
}

// binary -> text -> binary through graphport's own loader and writer.
TEST_P(ExportCorpusTest, TextExportReloadsToTheSameBinary) {
  for (TfKind to : kKinds) {
    SCOPED_TRACE(KindName(to));
    Exported binary = ExportOne(model_.get(), to, false);
    Exported text = ExportOne(model_.get(), to, true);
    MemorySource source(text.bytes);
    auto reloaded = TfModel::Load(&source, TfLoadOptions{});
    EXPECT_EQ(reloaded->format().kind, to);
    EXPECT_TRUE(reloaded->format().text);
    Exported again = ExportOne(reloaded.get(), to, false);
    EXPECT_TRUE(again.bytes == binary.bytes);
    // And the binary export reloads to the same binary as well.
    MemorySource binary_source(binary.bytes);
    auto from_binary = TfModel::Load(&binary_source, TfLoadOptions{});
    EXPECT_EQ(from_binary->format().kind, to);
    EXPECT_TRUE(ExportOne(from_binary.get(), to, false).bytes == binary.bytes);
  }
}

TEST_P(ExportCorpusTest, FilenameOptionNamesTheOutput) {
  Exported e = ExportOne(model_.get(), TfKind::kMetaGraphDef, false, "custom.name");
  EXPECT_EQ(e.name, "custom.name");
}

// The export passes (clear_devices, strip_default_attrs, ...) work on borrowed subtrees of the
// model: with every pass that needs no argument switched on, exports stay deterministic and
// the model stays as loaded.
TEST_P(ExportCorpusTest, PassesNeitherChangeTheModelNorVaryBetweenRuns) {
  auto before = Snapshot(*model_);
  for (TfKind to : kKinds) {
    for (bool as_text : {false, true}) {
      SCOPED_TRACE(std::string(KindName(to)) + (as_text ? " text" : " binary"));
      TfExportOptions options;
      options.to = to;
      options.as_text = as_text;
      options.clear_devices = true;
      options.clear_extraneous_savers = true;
      options.strip_default_attrs = true;
      options.save_debug_info = true;
      MemoryOutputSet first, second;
      Export(model_.get(), options, &first);
      EXPECT_TRUE(testing::MessagesEqual(*before, model_->root()));
      Export(model_.get(), options, &second);
      EXPECT_TRUE(testing::MessagesEqual(*before, model_->root()));
      ASSERT_EQ(first.files().size(), second.files().size());
      ASSERT_GE(first.files().size(), 1u);
      for (size_t i = 0; i < first.files().size(); ++i) {
        EXPECT_EQ(first.files()[i].name, second.files()[i].name);
        EXPECT_TRUE(first.files()[i].bytes == second.files()[i].bytes) << first.files()[i].name;
      }
      // No device is left in the exported graph.
      auto parsed = ParseOutput(to, {first.files()[0].name, first.files()[0].bytes, {}}, as_text);
      ASSERT_NE(parsed, nullptr);
      for (const auto& node : GraphOf(to, *parsed).node())
        EXPECT_EQ(node.device(), "") << node.name();
    }
  }
}

// An output set whose sink fails after some bytes, like a full disk.
class FailingOutputSet : public OutputSet {
 public:
  explicit FailingOutputSet(size_t fail_after) : sink_(fail_after) {}
  ByteSink* Open(const std::string&) override {
    ++opened_;
    return &sink_;
  }
  void Close() override { ++closed_; }
  int opened() const { return opened_; }
  int closed() const { return closed_; }

 private:
  class Sink : public ByteSink {
   public:
    explicit Sink(size_t fail_after) : left_(fail_after) {}
    void Write(const uint8_t*, size_t size) override {
      if (size > left_) throw Error(ErrorCode::kIo, "no space left");
      left_ -= size;
    }

   private:
    size_t left_;
  };
  Sink sink_;
  int opened_ = 0, closed_ = 0;
};

TEST_P(ExportCorpusTest, FailedWriteIsAnIoErrorAndLeavesTheModelUnchanged) {
  auto before = Snapshot(*model_);
  for (TfKind to : kKinds) {
    for (bool as_text : {false, true}) {
      SCOPED_TRACE(std::string(KindName(to)) + (as_text ? " text" : " binary"));
      FailingOutputSet out(/*fail_after=*/0);
      TfExportOptions options;
      options.to = to;
      options.as_text = as_text;
      try {
        Export(model_.get(), options, &out);
        ADD_FAILURE() << "export succeeded";
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::kIo);
        EXPECT_NE(std::string(e.what()).find("no space left"), std::string::npos) << e.what();
      }
      EXPECT_EQ(out.opened(), 1);
      EXPECT_EQ(out.closed(), 0) << "a failed output must never be closed as complete";
      EXPECT_TRUE(testing::MessagesEqual(*before, model_->root()));
    }
  }
  // The model still exports normally afterwards.
  Exported e = ExportOne(model_.get(), GetParam().kind, false);
  auto parsed = ParseOutput(GetParam().kind, e, false);
  ASSERT_NE(parsed, nullptr);
  EXPECT_TRUE(testing::MessagesEqual(*reference_, *parsed));
}

// Gathers one file like export() in JS: it wants the size before the first byte.
class SizeFirstOutputSet : public OutputSet {
 public:
  struct Sink : ByteSink {
    void Write(const uint8_t* data, size_t size) override {
      bytes.append(reinterpret_cast<const char*>(data), size);
    }
    void SizeHint(uint64_t total) override {
      hints.push_back(total);
      if (!bytes.empty()) hinted_late = true;
    }
    bool WantsSizeFirst() const override { return true; }
    std::string bytes;
    std::vector<uint64_t> hints;
    bool hinted_late = false;
  };
  ByteSink* Open(const std::string&) override {
    ++opened_;
    return &sink_;
  }
  void Close() override {}
  const Sink& sink() const { return sink_; }
  int opened() const { return opened_; }

 private:
  Sink sink_;
  int opened_ = 0;
};

TEST_P(ExportCorpusTest, EveryExportToASinkThatWantsTheSizeFirstGetsItExactly) {
  for (TfKind to : kKinds) {
    for (bool as_text : {false, true}) {
      SCOPED_TRACE(std::string(KindName(to)) + (as_text ? " text" : " binary"));
      SizeFirstOutputSet out;
      TfExportOptions options;
      options.to = to;
      options.as_text = as_text;
      Export(model_.get(), options, &out);
      ASSERT_EQ(out.opened(), 1);
      // Text too: its writer counts it with a dry run that writes nothing to the sink.
      ASSERT_EQ(out.sink().hints.size(), 1u);
      EXPECT_FALSE(out.sink().hinted_late);
      EXPECT_EQ(out.sink().hints[0], out.sink().bytes.size());
      EXPECT_TRUE(out.sink().bytes == ExportOne(model_.get(), to, as_text).bytes)
          << "the bytes differ from an export to a sink that does not want the size";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, ExportCorpusTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

// --- Conversions between kinds, spelled out ------------------------------------------------------

std::unique_ptr<TfModel> LoadCorpus(const char* relative, std::string* bytes) {
  *bytes = testing::ReadCorpus(relative);
  MemorySource source(*bytes);
  return TfModel::Load(&source, TfLoadOptions{});
}

TEST(ExportTest, GraphDefToMetaGraphWrapsTheGraph) {
  std::string bytes;
  auto model = LoadCorpus(testing::kFrozenGraph, &bytes);
  tensorflow::GraphDef input;
  ASSERT_TRUE(input.ParseFromString(bytes));
  Exported e = ExportOne(model.get(), TfKind::kMetaGraphDef, false);
  EXPECT_EQ(e.name, "model.meta");
  tensorflow::MetaGraphDef mg;
  ASSERT_TRUE(mg.ParseFromString(e.bytes));
  EXPECT_TRUE(testing::MessagesEqual(input, mg.graph_def()));
  EXPECT_FALSE(mg.has_saver_def());
  EXPECT_EQ(mg.collection_def_size(), 0);
  EXPECT_EQ(mg.signature_def_size(), 0);
}

TEST(ExportTest, GraphDefToSavedModelHasSchemaOneAndOneServeMetaGraph) {
  std::string bytes;
  auto model = LoadCorpus(testing::kFrozenGraph, &bytes);
  tensorflow::GraphDef input;
  ASSERT_TRUE(input.ParseFromString(bytes));
  Exported e = ExportOne(model.get(), TfKind::kSavedModel, false);
  EXPECT_EQ(e.name, "saved_model.pb");
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(e.bytes));
  EXPECT_EQ(sm.saved_model_schema_version(), 1);
  ASSERT_EQ(sm.meta_graphs_size(), 1);
  ASSERT_EQ(sm.meta_graphs(0).meta_info_def().tags_size(), 1);
  EXPECT_EQ(sm.meta_graphs(0).meta_info_def().tags(0), "serve");
  EXPECT_TRUE(testing::MessagesEqual(input, sm.meta_graphs(0).graph_def()));
  // The scratch tag must not leak into the model: a second export is identical, and the
  // graph itself has no meta_info.
  EXPECT_TRUE(ExportOne(model.get(), TfKind::kSavedModel, false).bytes == e.bytes);
  EXPECT_TRUE(testing::MessagesEqual(input, model->graph()));
}

TEST(ExportTest, MetaGraphToGraphDefIsItsGraphDef) {
  std::string bytes;
  auto model = LoadCorpus(testing::kSessionBundleMeta, &bytes);
  tensorflow::MetaGraphDef input;
  ASSERT_TRUE(input.ParseFromString(bytes));
  Exported e = ExportOne(model.get(), TfKind::kGraphDef, false);
  EXPECT_EQ(e.name, "graph.pb");
  tensorflow::GraphDef graph;
  ASSERT_TRUE(graph.ParseFromString(e.bytes));
  EXPECT_TRUE(testing::MessagesEqual(input.graph_def(), graph));
  EXPECT_EQ(graph.node_size(), 57);  // research/tensorflow.md §3.4
}

TEST(ExportTest, MetaGraphToSavedModelWrapsIt) {
  std::string bytes;
  auto model = LoadCorpus(testing::kSessionBundleMeta, &bytes);
  tensorflow::MetaGraphDef input;
  ASSERT_TRUE(input.ParseFromString(bytes));
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(ExportOne(model.get(), TfKind::kSavedModel, false).bytes));
  EXPECT_EQ(sm.saved_model_schema_version(), 1);
  ASSERT_EQ(sm.meta_graphs_size(), 1);
  EXPECT_TRUE(testing::MessagesEqual(input.graph_def(), sm.meta_graphs(0).graph_def()));
  // The model is unchanged by the export (root() parses any nodes still kept as bytes).
  EXPECT_TRUE(testing::MessagesEqual(input, model->root()));
}

TEST(ExportTest, SavedModelToSavedModelEqualsTheInput) {
  std::string bytes;
  auto model = LoadCorpus(testing::kTf2CpuSavedModel, &bytes);
  tensorflow::SavedModel input;
  ASSERT_TRUE(input.ParseFromString(bytes));
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(ExportOne(model.get(), TfKind::kSavedModel, false).bytes));
  EXPECT_TRUE(testing::MessagesEqual(input, sm));
}

TEST(ExportTest, SavedModelToMetaGraphIsTheSelectedMetaGraph) {
  tensorflow::SavedModel two;
  ASSERT_TRUE(two.ParseFromString(testing::ReadCorpus(testing::kMatrixSavedModel)));
  tensorflow::MetaGraphDef* other = two.add_meta_graphs();
  *other = two.meta_graphs(0);
  other->mutable_meta_info_def()->clear_tags();
  other->mutable_meta_info_def()->add_tags("train");
  other->mutable_graph_def()->mutable_node()->RemoveLast();
  std::string bytes = two.SerializeAsString();
  for (int pick : {0, 1}) {
    MemorySource source(bytes);
    TfLoadOptions options;
    options.tags = {pick == 0 ? "serve" : "train"};
    options.tags_explicit = true;
    auto model = TfModel::Load(&source, options);
    tensorflow::MetaGraphDef mg;
    ASSERT_TRUE(mg.ParseFromString(ExportOne(model.get(), TfKind::kMetaGraphDef, false).bytes));
    EXPECT_TRUE(testing::MessagesEqual(two.meta_graphs(pick).graph_def(), mg.graph_def()));
    // saved-model -> saved-model keeps every MetaGraphDef, not just the selected one.
    tensorflow::SavedModel sm;
    ASSERT_TRUE(sm.ParseFromString(ExportOne(model.get(), TfKind::kSavedModel, false).bytes));
    EXPECT_TRUE(testing::MessagesEqual(two, sm));
  }
}

TEST(ExportTest, DefaultFileNames) {
  EXPECT_EQ(DefaultFileName(TfKind::kGraphDef, false), "graph.pb");
  EXPECT_EQ(DefaultFileName(TfKind::kGraphDef, true), "graph.pbtxt");
  EXPECT_EQ(DefaultFileName(TfKind::kMetaGraphDef, false), "model.meta");
  EXPECT_EQ(DefaultFileName(TfKind::kMetaGraphDef, true), "model.pbtxt");
  // The names TensorFlow's SavedModel loader looks for.
  EXPECT_EQ(DefaultFileName(TfKind::kSavedModel, false), "saved_model.pb");
  EXPECT_EQ(DefaultFileName(TfKind::kSavedModel, true), "saved_model.pbtxt");
}

}  // namespace
}  // namespace graphport::tf
