// The freeze through the facade, as a user meets it: a SavedModel folder with its checkpoint
// exported to TF.js (which freezes it) or to a frozen GraphDef, the options that steer it, and
// the TF.js pre-flight that refuses ops the runtime cannot run.
#include "tf/freeze/freeze_export.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "api/model.h"
#include "core/error.h"
#include "freeze_test_util.h"
#include "test_graphs.h"

namespace graphport::testing {
namespace {

using nlohmann::json;

std::map<std::string, std::string> Export(Model* model, const json& options, json* info) {
  MemoryOutputSet out;
  *info = model->Export(options, &out);
  std::map<std::string, std::string> files;
  for (const auto& f : out.files()) files[f.name] = f.bytes;
  return files;
}

ErrorCode ExportError(Model* model, const json& options, std::string* message) {
  MemoryOutputSet out;
  try {
    model->Export(options, &out);
  } catch (const Error& e) {
    *message = e.what();
    return e.code();
  }
  *message = "";
  return ErrorCode::kInternal;  // no error: the caller's expectation fails on it
}

TEST(FreezeExport, HalfPlusTwoTf2ToTfjsHoldsItsCheckpointValuesAndNoVariableOps) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(CorpusDir() / kHalfPlusTwoTf2, &files);
  json summary = json::parse(model->InspectJson());
  EXPECT_TRUE(summary["needsFreeze"].get<bool>());
  EXPECT_EQ(summary["freezeOps"]["VarHandleOp"], 4) << summary["freezeOps"].dump();

  json info;
  std::map<std::string, std::string> out = Export(model.get(), {{"to", "tfjs"}}, &info);
  ASSERT_EQ(out.count("model.json"), 1u);
  EXPECT_EQ(info["frozen"]["variables"], 2);
  EXPECT_EQ(info["frozen"]["variableBytes"], 8);
  EXPECT_NE(info["frozen"]["checkpoint"].get<std::string>().find("variables/variables"),
            std::string::npos);
  json model_json = json::parse(out["model.json"]);
  std::map<std::string, int> ops;
  for (const auto& node : model_json["modelTopology"]["node"]) ++ops[node["op"]];
  for (const char* gone : {"VarHandleOp", "ReadVariableOp", "StatefulPartitionedCall"}) {
    EXPECT_EQ(ops.count(gone), 0u) << gone;
  }
  EXPECT_EQ(model_json["signature"]["inputs"]["x"]["name"], "x:0");
  EXPECT_EQ(model_json["signature"]["outputs"]["y"]["name"], "Identity:0");
  EXPECT_EQ(model_json["generatedBy"], "2.14.0");
  // The weights are the checkpoint's bytes: 0.5 and 2.0 in the data file's first 8 bytes.
  const std::string& data = files["variables/variables.data-00000-of-00001"];
  const std::string& shard = out["group1-shard1of1.bin"];
  ASSERT_EQ(shard.size(), 8u);
  std::map<std::string, std::string> by_name;
  size_t at = 0;
  for (const auto& w : model_json["weightsManifest"][0]["weights"]) {
    by_name[w["name"]] = shard.substr(at, 4);
    at += 4;
  }
  // Named as tfjs-converter names them once Grappler folds each read onto its value
  // (research savedmodel_freeze.md §7).
  EXPECT_EQ(by_name["StatefulPartitionedCall/Mul/ReadVariableOp"], data.substr(0, 4));
  EXPECT_EQ(by_name["StatefulPartitionedCall/Add/ReadVariableOp"], data.substr(4, 4));
  EXPECT_EQ(ops.size(), 5u) << "x, the two weights, Mul, AddV2 and Identity";
  EXPECT_EQ(ops["Identity"], 1);
  EXPECT_EQ(ops.count("NoOp"), 0u);
  // optimize: false writes the frozen graph as the freeze made it.
  out = Export(model.get(), {{"to", "tfjs"}, {"optimize", false}}, &info);
  EXPECT_TRUE(info["frozen"]["optimized"].is_null());
  json plain = json::parse(out["model.json"]);
  EXPECT_GT(plain["modelTopology"]["node"].size(), 6u);
}

TEST(FreezeExport, FreezeTrueWritesTheClassicFrozenGraphDef) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(CorpusDir() / kHalfPlusTwoTf1, &files);
  json info;
  std::map<std::string, std::string> out =
      Export(model.get(), {{"to", "graph-def"}, {"freeze", true}}, &info);
  ASSERT_EQ(out.size(), 1u);
  tensorflow::GraphDef graph;
  ASSERT_TRUE(graph.ParseFromString(out["graph.pb"]));
  std::map<std::string, int> ops = OpHistogram(graph);
  EXPECT_EQ(ops.count("VariableV2"), 0u);
  EXPECT_EQ(ops.count("RestoreV2"), 0u);
  ASSERT_NE(NodeNamed(graph, "a"), nullptr);
  EXPECT_EQ(NodeNamed(graph, "a")->op(), "Const");
  // A SavedModel of the frozen graph has nothing to pass through: its variables are constants.
  out = Export(model.get(), {{"to", "saved-model"}, {"freeze", true}}, &info);
  EXPECT_EQ(out.size(), 1u);
  EXPECT_EQ(out.count("saved_model.pb"), 1u);
}

TEST(FreezeExport, FreezeFalseToTfjsOnAGraphWithVariablesSaysWhy) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(CorpusDir() / kHalfPlusTwoTf2, &files);
  std::string message;
  EXPECT_EQ(ExportError(model.get(), {{"to", "tfjs"}, {"freeze", false}}, &message),
            ErrorCode::kInvalidOption);
  EXPECT_NE(message.find("VarHandleOp x4"), std::string::npos) << message;
  EXPECT_NE(message.find("StatefulPartitionedCall x"), std::string::npos) << message;
}

TEST(FreezeExport, ThePreflightNamesTheOpsTfjsCannotRunAndWritesNothing) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(CorpusDir() / kHalfPlusTwoTf2, &files);
  std::string message;
  json options = {{"to", "tfjs"}, {"signature", "regress_x_to_y"}};
  EXPECT_EQ(ExportError(model.get(), options, &message), ErrorCode::kUnsupported);
  EXPECT_NE(message.find("ParseExampleV2 x1"), std::string::npos) << message;
  options["allowUnsupportedOps"] = true;
  json info;
  Export(model.get(), options, &info);
  ASSERT_TRUE(info["unsupportedOps"].is_array()) << info.dump();
  bool named = false;
  for (const auto& op : info["unsupportedOps"]) named = named || op["op"] == "ParseExampleV2";
  EXPECT_TRUE(named) << info["unsupportedOps"].dump();
}

TEST(FreezeExport, AGraphDefHasNoSignatureToFreeze) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  const std::string bytes = ReadCorpus("tfjs/tfjs-to-tf/simple/frozen_graph.pb");
  MemorySource source(bytes);
  LoadOptions load;
  load.name = "frozen_graph.pb";
  std::unique_ptr<Model> model = Model::Load(&source, load);
  std::string message;
  EXPECT_EQ(ExportError(model.get(), {{"to", "graph-def"}, {"freeze", true}}, &message),
            ErrorCode::kInvalidOption);
  EXPECT_NE(message.find("GraphDef has none"), std::string::npos) << message;
}

// A TF1 graph whose signature output is a PartitionedCall of f, whose body returns the second
// output of CustomSplit, an op neither the model's stripped_op_list nor TensorFlow's registry
// defines: the user's opRegistry says where "n:second:0" is.
std::string GraphCallingACustomOp() {
  tensorflow::MetaGraphDef meta;
  tensorflow::GraphDef* graph = meta.mutable_graph_def();
  SetType(&AddNode(graph, "x", "Placeholder"), "dtype", tensorflow::DT_FLOAT);
  tensorflow::NodeDef& call = AddNode(graph, "call", "PartitionedCall", {"x"});
  SetFunction(&call, "f", "f");
  SetTypeList(&call, "Tin", {tensorflow::DT_FLOAT});
  SetTypeList(&call, "Tout", {tensorflow::DT_FLOAT});
  tensorflow::FunctionDef* f = graph->mutable_library()->add_function();
  f->mutable_signature()->set_name("f");
  auto* in = f->mutable_signature()->add_input_arg();
  in->set_name("a");
  in->set_type(tensorflow::DT_FLOAT);
  auto* out = f->mutable_signature()->add_output_arg();
  out->set_name("out");
  out->set_type(tensorflow::DT_FLOAT);
  *f->add_node_def() = Node("n", "CustomSplit", {"a"});
  (*f->mutable_ret())["out"] = "n:second:0";
  tensorflow::SignatureDef& signature = (*meta.mutable_signature_def())["serving_default"];
  signature.set_method_name("tensorflow/serving/predict");
  (*signature.mutable_inputs())["x"].set_name("x:0");
  (*signature.mutable_outputs())["y"].set_name("call:0");
  return meta.SerializeAsString();
}

// The tensor the frozen MetaGraphDef's signature outputs as y.
std::string SignatureOutput(const std::string& meta_graph_bytes) {
  tensorflow::MetaGraphDef meta;
  EXPECT_TRUE(meta.ParseFromString(meta_graph_bytes));
  return meta.signature_def().at("serving_default").outputs().at("y").name();
}

TEST(FreezeExport, TheOpRegistryOptionSaysWhereACustomOpsOutputsAre) {
  const std::string bytes = GraphCallingACustomOp();
  MemorySource source(bytes);
  LoadOptions load;
  load.name = "model.meta";
  std::unique_ptr<Model> model = Model::Load(&source, load);
  json options = {{"to", "meta-graph"}, {"freeze", true}};
  json info;
  std::map<std::string, std::string> out = Export(model.get(), options, &info);
  ASSERT_EQ(out.size(), 1u);
  // The signature's function is the graph (its argument a the input), and without the
  // registry the op counts as one output: the second is read as the first.
  EXPECT_EQ(info["frozen"]["function"], "f");
  EXPECT_EQ(SignatureOutput(out.begin()->second), "n:0") << info.dump();
  options["opRegistry"] = json::parse(R"({"op": [{"name": "CustomSplit", "outputArg": [
      {"name": "first", "type": "DT_FLOAT"}, {"name": "second", "type": "DT_FLOAT"}]}]})");
  out = Export(model.get(), options, &info);
  EXPECT_EQ(SignatureOutput(out.begin()->second), "n:1") << info.dump();
}

// Every SavedModel with a checkpoint that we have: its default signature freezes, or the
// freeze is refused with an error that names why (never INTERNAL, never a crash).
std::vector<fs::path> SavedModelFolders() {
  std::vector<fs::path> out;
  for (const fs::path& root : {CorpusDir() / "tf", SavedModelsDir()}) {
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      // A folder with a checkpoint and a graph (tf_text_regression has no saved_model.pb).
      fs::path folder = entry.path().parent_path().parent_path();
      if (entry.path().filename() == "variables.index" && fs::exists(folder / "saved_model.pb")) {
        out.push_back(folder);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FreezeExport, EverySavedModelWithACheckpointFreezesOrSaysWhyNot) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::vector<fs::path> folders = SavedModelFolders();
  ASSERT_GE(folders.size(), 19u);
  int frozen = 0;
  for (const fs::path& dir : folders) {
    SCOPED_TRACE(dir.string());
    std::map<std::string, std::string> files;
    std::unique_ptr<Model> model;
    try {
      model = LoadFolder(dir, &files);
    } catch (const Error& e) {
      ADD_FAILURE() << "load: " << e.what();
      continue;
    }
    MemoryOutputSet out;
    try {
      json info = json::parse(model->ExportJson(R"({"to": "graph-def", "freeze": true})", &out));
      tensorflow::GraphDef graph;
      ASSERT_TRUE(graph.ParseFromString(out.files()[0].bytes));
      for (const auto& node : graph.node()) {
        EXPECT_NE(node.op(), "VarHandleOp") << node.name();
        EXPECT_NE(node.op(), "VariableV2") << node.name();
        EXPECT_NE(node.op(), "StatefulPartitionedCall") << node.name();
      }
      ++frozen;
    } catch (const Error& e) {
      EXPECT_NE(e.code(), ErrorCode::kInternal) << e.what();
      EXPECT_FALSE(std::string(e.what()).empty());
      std::cout << "  not frozen: " << dir.string() << ": " << ErrorCodeName(e.code()) << ": "
                << e.what() << "\n";
    }
  }
  // The half_plus_two family, the tfjs-node models and korean_spacing at least.
  EXPECT_GE(frozen, 15);
}

}  // namespace
}  // namespace graphport::testing
