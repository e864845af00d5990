#include "tf/freeze/freeze.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "core/error.h"
#include "freeze_test_util.h"

namespace graphport::testing {
namespace {

float ScalarOf(const tensorflow::NodeDef& node) {
  const std::string& content = node.attr().at("value").tensor().tensor_content();
  float v = 0;
  EXPECT_EQ(content.size(), sizeof v);
  std::memcpy(&v, content.data(), sizeof v);
  return v;
}

TEST(Freeze, Tf2HalfPlusTwoBecomesMulAndAddOfItsCheckpointValues) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf2);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  MapStore store = HalfPlusTwoTf2Store(meta);
  ASSERT_FALSE(store.object_graph.empty());

  tensorflow::MetaGraphDef frozen;
  nlohmann::json report = tf::Freeze(meta, meta.graph_def(), &store, {}, &frozen);
  EXPECT_EQ(report["function"], "__inference_signature_wrapper_predict_245");
  EXPECT_EQ(report["variables"], 2);
  EXPECT_EQ(report["inlinedCalls"], 1);
  EXPECT_EQ(store.reads, (std::vector<std::string>{"a/.ATTRIBUTES/VARIABLE_VALUE",
                                                   "b/.ATTRIBUTES/VARIABLE_VALUE"}));

  const tensorflow::GraphDef& graph = frozen.graph_def();
  std::map<std::string, int> ops = OpHistogram(graph);
  for (const char* gone : {"VarHandleOp", "ReadVariableOp", "StatefulPartitionedCall",
                           "PartitionedCall", "PlaceholderWithDefault"}) {
    EXPECT_EQ(ops.count(gone), 0u) << gone;
  }
  EXPECT_EQ(ops["Mul"], 1);
  EXPECT_EQ(ops["AddV2"], 1);
  EXPECT_EQ(ops["Const"], 2);
  EXPECT_EQ(ops["Placeholder"], 1);
  EXPECT_FALSE(graph.has_library());
  // The captures are Consts named as the function's arguments, as in tfjs-converter's freeze.
  ASSERT_NE(NodeNamed(graph, "unknown"), nullptr);
  EXPECT_EQ(ScalarOf(*NodeNamed(graph, "unknown")), 0.5f);
  EXPECT_EQ(ScalarOf(*NodeNamed(graph, "unknown_0")), 2.0f);
  const tensorflow::NodeDef* read = NodeNamed(graph, "StatefulPartitionedCall/Mul/ReadVariableOp");
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->op(), "Identity");
  const tensorflow::NodeDef* x = NodeNamed(graph, "x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->op(), "Placeholder");
  EXPECT_EQ(x->attr().at("dtype").type(), tensorflow::DT_FLOAT);

  ASSERT_EQ(frozen.signature_def_size(), 1);
  const tensorflow::SignatureDef& signature = frozen.signature_def().at("serving_default");
  EXPECT_EQ(signature.inputs().at("x").name(), "x:0");
  EXPECT_EQ(signature.outputs().at("y").name(), "Identity:0");
  EXPECT_EQ(signature.outputs().at("y").dtype(), tensorflow::DT_FLOAT);
  EXPECT_EQ(frozen.meta_info_def().tensorflow_version(), "2.14.0");
  EXPECT_FALSE(frozen.has_saver_def());
  EXPECT_EQ(frozen.collection_def_size(), 0);
}

TEST(Freeze, Tf2SignaturesPickTheirOwnVariables) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf2);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  MapStore store = HalfPlusTwoTf2Store(meta);
  tf::FreezeOptions options;
  options.signature = "regress_x2_to_y3";
  tensorflow::MetaGraphDef frozen;
  tf::Freeze(meta, meta.graph_def(), &store, options, &frozen);
  EXPECT_EQ(store.reads, (std::vector<std::string>{"a/.ATTRIBUTES/VARIABLE_VALUE",
                                                   "c/.ATTRIBUTES/VARIABLE_VALUE"}));
  EXPECT_EQ(frozen.signature_def().count("regress_x2_to_y3"), 1u);
}

TEST(Freeze, Tf1HalfPlusTwoTakesItsVariablesByTheRestoreGraphsKeys) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf1);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  MapStore store;
  store.scalars = {{"a", 0.5f}, {"a2", 0.5f}, {"b", 2.0f}, {"c", 3.0f}, {"c2", 3.0f}};
  tensorflow::MetaGraphDef frozen;
  nlohmann::json report = tf::Freeze(meta, meta.graph_def(), &store, {}, &frozen);
  EXPECT_TRUE(report["function"].is_null());
  EXPECT_EQ(report["variables"], 2);
  const tensorflow::GraphDef& graph = frozen.graph_def();
  std::map<std::string, int> ops = OpHistogram(graph);
  EXPECT_EQ(ops.count("VariableV2"), 0u);
  EXPECT_EQ(ops.count("Assign"), 0u);
  EXPECT_EQ(ops.count("RestoreV2"), 0u);
  ASSERT_NE(NodeNamed(graph, "a"), nullptr);
  EXPECT_EQ(NodeNamed(graph, "a")->op(), "Const");
  EXPECT_EQ(ScalarOf(*NodeNamed(graph, "a")), 0.5f);
  EXPECT_EQ(ScalarOf(*NodeNamed(graph, "b")), 2.0f);
  const tensorflow::SignatureDef& signature = frozen.signature_def().at("serving_default");
  EXPECT_EQ(signature.inputs().at("x").name(), "x:0");
  EXPECT_EQ(signature.outputs().at("y").name(), "y:0");
}

TEST(Freeze, AMissingSignatureNamesTheOnesTheModelHas) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf2);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  tf::FreezeOptions options;
  options.signature = "nope";
  tensorflow::MetaGraphDef frozen;
  try {
    tf::Freeze(meta, meta.graph_def(), nullptr, options, &frozen);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_NE(std::string(e.what()).find("serving_default"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("__saved_model_init_op"), std::string::npos) << e.what();
  }
}

TEST(Freeze, VariablesWithoutACheckpointAreNotFound) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf2);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  tensorflow::MetaGraphDef frozen;
  try {
    tf::Freeze(meta, meta.graph_def(), nullptr, {}, &frozen);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_NE(std::string(e.what()).find("variables.index"), std::string::npos) << e.what();
  }
}

TEST(Freeze, AKeyTheCheckpointLacksIsNotFoundAndNamesIt) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf1);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  MapStore store;
  store.scalars = {{"a", 0.5f}};
  tensorflow::MetaGraphDef frozen;
  try {
    tf::Freeze(meta, meta.graph_def(), &store, {}, &frozen);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_EQ(e.where().node, "b");
  }
}

}  // namespace
}  // namespace graphport::testing
