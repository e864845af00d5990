// tfjs::AppendMessageJson and MessageToJson against the reflection-based writer they replaced
// (proto_to_json_test_util.h) on real graphs: every NodeDef, FunctionDef and SignatureDef (and
// the rest of a library, and versions) of the corpus, of the TF.js models and of
// @vladmandic/human's models, and each of their roots as a whole. Each field kind on its own
// is in proto_to_json_test.cc.
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proto_to_json_test_util.h"
#include "reference_pool.h"
#include "tensorflow/schemas.h"
#include "test_util.h"
#include "tfjs/proto_to_json.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

namespace pb = google::protobuf;
using pb::FieldDescriptor;
using testing::ReferenceJson;
using testing::ReferencePool;
using testing::SameText;
using DynamicMessage = std::unique_ptr<pb::Message>;

// --- Real graphs -----------------------------------------------------------------------------

// Calls `visit` for every message of `type_names` in `message`'s tree, Anys' messages included
// when the pool knows their type.
void ForEachMessage(const pb::Message& message, const ReferencePool& pool,
                    const std::function<void(const pb::Message&)>& visit) {
  visit(message);
  const pb::Reflection* r = message.GetReflection();
  if (message.GetDescriptor()->full_name() == "google.protobuf.Any") {
    const std::string url = r->GetString(message, message.GetDescriptor()->FindFieldByNumber(1));
    const std::string name = url.substr(url.rfind('/') + 1);
    if (pool.pool().FindMessageTypeByName(name) != nullptr) {
      DynamicMessage inner =
          pool.New(name, r->GetString(message, message.GetDescriptor()->FindFieldByNumber(2)));
      ForEachMessage(*inner, pool, visit);
    }
    return;
  }
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    if (field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (!field->is_repeated()) {
      ForEachMessage(r->GetMessage(message, field), pool, visit);
      continue;
    }
    for (int i = 0; i < r->FieldSize(message, field); ++i) {
      ForEachMessage(r->GetRepeatedMessage(message, field, i), pool, visit);
    }
  }
}

// What the TF.js writer turns to JSON: NodeDefs, FunctionDefs, SignatureDefs (and the rest of
// a library, and versions), through the generated classes as the writer has them.
struct Tally {
  std::map<std::string, int> compared;  // by type
  int failures = 0;
};

template <typename Message>
void CompareAs(const pb::Message& reference, Tally* tally) {
  Message message;
  ASSERT_TRUE(message.ParseFromString(reference.SerializeAsString()));
  ::testing::AssertionResult same =
      SameText(ReferenceJson(reference), message, proto::SchemaOf<Message>());
  EXPECT_TRUE(same) << reference.GetDescriptor()->full_name();
  ++tally->compared[reference.GetDescriptor()->full_name()];
  if (!same) ++tally->failures;
}

void CompareTree(const pb::Message& root, Tally* tally) {
  const ReferencePool& pool = ReferencePool::Tf();
  ForEachMessage(root, pool, [&](const pb::Message& m) {
    const std::string& type = m.GetDescriptor()->full_name();
    if (type == "tensorflow.NodeDef") CompareAs<tensorflow::NodeDef>(m, tally);
    if (type == "tensorflow.FunctionDef") CompareAs<tensorflow::FunctionDef>(m, tally);
    if (type == "tensorflow.SignatureDef") CompareAs<tensorflow::SignatureDef>(m, tally);
    if (type == "tensorflow.FunctionDefLibrary")
      CompareAs<tensorflow::FunctionDefLibrary>(m, tally);
    if (type == "tensorflow.VersionDef") CompareAs<tensorflow::VersionDef>(m, tally);
  });
  // The root as a whole too: every type it holds, Anys, int-keyed maps, object graphs.
  const proto::MessageSchema& schema = *tf::TfSchemas().Find(root.GetDescriptor()->full_name());
  EXPECT_TRUE(SameText(ReferenceJson(root), root, schema));
}

const char* RootType(tf::TfKind kind) {
  switch (kind) {
    case tf::TfKind::kSavedModel:
      return "tensorflow.SavedModel";
    case tf::TfKind::kMetaGraphDef:
      return "tensorflow.MetaGraphDef";
    case tf::TfKind::kGraphDef:
      break;
  }
  return "tensorflow.GraphDef";
}

TEST(MessageToJsonTest, CorpusAsReflectionWritesIt) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  Tally tally;
  for (const testing::CorpusGraph& graph : testing::CorpusGraphs()) {
    SCOPED_TRACE(graph.relative);
    DynamicMessage root =
        ReferencePool::Tf().New(RootType(graph.kind), testing::ReadFile(graph.path()));
    CompareTree(*root, &tally);
  }
  EXPECT_EQ(tally.failures, 0);
  // The corpus holds all three kinds (TF 2's SavedModels hold functions and signatures).
  EXPECT_GT(tally.compared["tensorflow.NodeDef"], 500);
  EXPECT_GT(tally.compared["tensorflow.FunctionDef"], 10);
  EXPECT_GT(tally.compared["tensorflow.SignatureDef"], 5);
  for (const auto& [type, count] : tally.compared) RecordProperty(type, count);
}

// A TF.js graph model as graphport reads it (the MetaGraphDef the TF.js writer exports from).
void CompareModel(testing::OwnedInputSet* inputs, const std::string& model_json, Tally* tally) {
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(inputs, &meta, {}, model_json);
  ASSERT_GT(meta.graph_def().node_size(), 0);
  CompareTree(*ReferencePool::Tf().New("tensorflow.MetaGraphDef", meta.SerializeAsString()), tally);
}

TEST(MessageToJsonTest, TfjsModelsAsReflectionWritesIt) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  Tally tally;
  int models = 0;
  for (const auto& entry :
       testing::fs::recursive_directory_iterator(testing::CorpusDir() / "tfjs")) {
    if (entry.path().filename() != "model.json") continue;
    SCOPED_TRACE(entry.path().string());
    testing::OwnedInputSet inputs;
    inputs.AddFolder(entry.path().parent_path());
    CompareModel(&inputs, "model.json", &tally);
    ++models;
  }
  EXPECT_GE(models, 2);
  EXPECT_EQ(tally.failures, 0);
  EXPECT_GT(tally.compared["tensorflow.NodeDef"], 10);
}

// @vladmandic/human's models, from the npm devDependencies scripts/setup.sh installs (as the
// corpus, they must be there: the test fails without them, it never skips;
// GRAPHPORT_HUMAN_MODELS names another copy of its models/ folder).
TEST(MessageToJsonTest, HumanModelsAsReflectionWritesIt) {
  const char* env = std::getenv("GRAPHPORT_HUMAN_MODELS");
  const testing::fs::path dir = env != nullptr ? env : GRAPHPORT_HUMAN_MODELS_DIR;
  ASSERT_TRUE(testing::fs::is_directory(dir))
      << dir << " is missing: run scripts/setup.sh (it installs the npm devDependencies)";
  Tally tally;
  int models = 0;
  for (const auto& entry : testing::fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name == "models.json") continue;
    nlohmann::json model = nlohmann::json::parse(testing::ReadFile(entry.path()), nullptr, false);
    if (!model.is_object() || !model.contains("modelTopology")) continue;
    SCOPED_TRACE(name);
    testing::OwnedInputSet inputs;
    inputs.Add(name, testing::ReadFile(entry.path()));
    for (const auto& group : model["weightsManifest"]) {
      for (const auto& path : group["paths"]) {
        inputs.Add(path.get<std::string>(), testing::ReadFile(dir / path.get<std::string>()));
      }
    }
    CompareModel(&inputs, name, &tally);
    ++models;
  }
  EXPECT_GE(models, 5);
  EXPECT_EQ(tally.failures, 0);
  for (const auto& [type, count] : tally.compared) RecordProperty(type, count);
}

}  // namespace
}  // namespace graphport::tfjs
