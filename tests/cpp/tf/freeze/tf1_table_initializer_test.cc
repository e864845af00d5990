// The tables of a TF1 graph frozen with their init ops (the MetaGraphDef's "table_initializer"
// collection), as tfjs-converter's TF1 path cuts its initializer graph: a small MetaGraphDef
// built here, and the TF1 Estimator tfx_chicago_taxi_estimator_v1 (../shared/savedmodels),
// whose tables a tf.Transform layer creates and fills from asset files through function calls.
#include "tf/freeze/tf1_table_initializer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "api/model.h"
#include "core/error.h"
#include "freeze_test_util.h"
#include "test_graphs.h"
#include "tf/freeze/freeze.h"
#include "tf/initializer_graph.h"

namespace graphport::testing {
namespace {

using nlohmann::json;
using tensorflow::DT_INT64;
using tensorflow::DT_STRING;
using tensorflow::NodeDef;

tensorflow::NodeDef& AddConst(tensorflow::GraphDef* graph, const std::string& name,
                              const tensorflow::TensorProto& value) {
  auto& node = AddNode(graph, name, "Const");
  SetType(&node, "dtype", value.dtype());
  *(*node.mutable_attr())["value"].mutable_tensor() = value;
  return node;
}

// A 1-D tensor of `values`, or a scalar of the one value.
tensorflow::TensorProto Strings(std::initializer_list<std::string> values, bool scalar = false) {
  tensorflow::TensorProto tensor;
  tensor.set_dtype(DT_STRING);
  tensor.mutable_tensor_shape();
  if (!scalar) tensor.mutable_tensor_shape()->add_dim()->set_size(values.size());
  for (const auto& v : values) tensor.add_string_val(v);
  return tensor;
}

tensorflow::TensorProto Int64s(std::initializer_list<int64_t> values, bool scalar = false) {
  tensorflow::TensorProto tensor;
  tensor.set_dtype(DT_INT64);
  tensor.mutable_tensor_shape();
  if (!scalar) tensor.mutable_tensor_shape()->add_dim()->set_size(values.size());
  for (int64_t v : values) tensor.add_int64_val(v);
  return tensor;
}

void AddTable(tensorflow::GraphDef* graph, const std::string& name) {
  auto& table = AddNode(graph, name, "HashTableV2");
  SetType(&table, "key_dtype", DT_STRING);
  SetType(&table, "value_dtype", DT_INT64);
  (*table.mutable_attr())["shared_name"].set_s(name);
}

void AddLookup(tensorflow::GraphDef* graph, const std::string& name, const std::string& table) {
  auto& lookup = AddNode(graph, name, "LookupTableFindV2", {table, "x", "default"});
  SetType(&lookup, "Tin", DT_STRING);
  SetType(&lookup, "Tout", DT_INT64);
}

// A TF1 SavedModel's MetaGraphDef as tf.compat.v1 writes one: "colors" filled from Consts
// (InitializeTableV2), "sizes" from the asset "sizes.txt" (InitializeTableFromTextFileV2 of
// the Const the loader feeds the asset's path), "unread" filled but read by no signature;
// serving_default looks the string input x up in the first two.
tensorflow::MetaGraphDef Tf1Tables() {
  tensorflow::MetaGraphDef meta;
  tensorflow::GraphDef* graph = meta.mutable_graph_def();
  auto& x = AddNode(graph, "x", "Placeholder");
  SetType(&x, "dtype", DT_STRING);
  AddConst(graph, "default", Int64s({-1}, true));
  AddTable(graph, "colors");
  AddConst(graph, "colors/keys", Strings({"red", "green", "blue"}));
  AddConst(graph, "colors/values", Int64s({10, 11, 12}));
  auto& init = AddNode(graph, "colors/table_init", "InitializeTableV2",
                       {"colors", "colors/keys", "colors/values"});
  SetType(&init, "Tkey", DT_STRING);
  SetType(&init, "Tval", DT_INT64);
  AddLookup(graph, "colors_lookup", "colors");

  AddTable(graph, "sizes");
  AddConst(graph, "asset_path", Strings({"/home/someone/export/assets/sizes.txt"}, true));
  auto& text =
      AddNode(graph, "sizes/table_init", "InitializeTableFromTextFileV2", {"sizes", "asset_path"});
  (*text.mutable_attr())["key_index"].set_i(-2);
  (*text.mutable_attr())["value_index"].set_i(-1);
  AddLookup(graph, "sizes_lookup", "sizes");

  AddTable(graph, "unread");
  auto& unread = AddNode(graph, "unread/table_init", "InitializeTableV2",
                         {"unread", "colors/keys", "colors/values"});
  SetType(&unread, "Tkey", DT_STRING);
  SetType(&unread, "Tval", DT_INT64);
  AddNode(graph, "init_all_tables", "NoOp",
          {"^colors/table_init", "^sizes/table_init", "^unread/table_init"});
  AddNode(graph, "group_deps", "NoOp", {"^init_all_tables"});

  auto& collections = *meta.mutable_collection_def();
  for (const char* op : {"colors/table_init", "sizes/table_init", "unread/table_init"}) {
    collections[tf::kTableInitializerCollection].mutable_node_list()->add_value(op);
  }
  collections["legacy_init_op"].mutable_node_list()->add_value("group_deps");
  tensorflow::AssetFileDef asset;
  asset.mutable_tensor_info()->set_name("asset_path:0");
  asset.set_filename("sizes.txt");
  auto* any = collections["saved_model_assets"].mutable_any_list()->add_value();
  any->set_type_url("type.googleapis.com/tensorflow.AssetFileDef");
  any->set_value(asset.SerializeAsString());

  tensorflow::SignatureDef& signature = (*meta.mutable_signature_def())["serving_default"];
  signature.set_method_name("tensorflow/serving/predict");
  auto& input = (*signature.mutable_inputs())["keys"];
  input.set_name("x:0");
  input.set_dtype(DT_STRING);
  for (const char* output : {"colors_lookup", "sizes_lookup"}) {
    auto& info = (*signature.mutable_outputs())[output];
    info.set_name(std::string(output) + ":0");
    info.set_dtype(DT_INT64);
  }
  meta.mutable_meta_info_def()->add_tags("serve");
  return meta;
}

const char kSizes[] = "small\nmedium\nlarge\n";

tf::AssetReader Sizes() {
  return [](const std::string& name, std::string* bytes, std::string* label) {
    if (name != "sizes.txt") return false;
    *bytes = kSizes;
    *label = "assets/sizes.txt";
    return true;
  };
}

json FreezeTables(const tensorflow::MetaGraphDef& meta, tensorflow::MetaGraphDef* out) {
  tf::FreezeOptions options;
  options.read_asset = Sizes();
  return tf::Freeze(meta, meta.graph_def(), nullptr, options, out);
}

std::vector<std::string> Values(const tensorflow::MetaGraphDef& meta, const char* key) {
  const auto& list = meta.collection_def().at(key).node_list().value();
  return {list.begin(), list.end()};
}

TEST(Tf1TableInitializer, TheInitOpsOfTheTablesTheSignatureReadsStayWithTheirCollection) {
  tensorflow::MetaGraphDef frozen;
  json report = FreezeTables(Tf1Tables(), &frozen);
  const json& tables = report["tables"];
  ASSERT_EQ(tables["tables"].size(), 2u) << tables.dump();
  EXPECT_EQ(tables["tables"][0], json({{"node", "colors"},
                                       {"op", "HashTableV2"},
                                       {"filledBy", {"colors/table_init"}},
                                       {"readBySignature", true}}));
  EXPECT_EQ(tables["tables"][1]["node"], "sizes");
  EXPECT_EQ(tables["initOpsLeftOut"],
            json::array({{{"initOp", "unread/table_init"},
                          {"why", "it fills no table the signature reads"}}}));
  EXPECT_EQ(tables["tablesNotFilled"], json::array());
  EXPECT_EQ(tables["initOps"], json({"colors/table_init", "sizes/table_init"}));
  EXPECT_EQ(tables["mainOp"], "init_all_tables");
  // Both tables are the signature's own nodes: one table, one name.
  EXPECT_EQ(tables["shared"], 2);
  ASSERT_EQ(tables["fromTextFiles"].size(), 1u);
  EXPECT_EQ(tables["fromTextFiles"][0]["asset"], "sizes.txt");
  EXPECT_EQ(tables["fromTextFiles"][0]["entries"], 3);

  // The graph TensorFlow's loader runs: init ops in table_initializer, one NoOp over them.
  EXPECT_EQ(Values(frozen, tf::kTableInitializerCollection),
            (std::vector<std::string>{"colors/table_init", "sizes/table_init"}));
  EXPECT_EQ(Values(frozen, tf::kMainOpCollection), (std::vector<std::string>{"init_all_tables"}));
  const tensorflow::GraphDef& graph = frozen.graph_def();
  std::map<std::string, int> ops = OpHistogram(graph);
  EXPECT_EQ(ops, (std::map<std::string, int>{{"Const", 5},
                                             {"HashTableV2", 2},
                                             {"InitializeTableV2", 1},
                                             {"LookupTableFindV2", 2},
                                             {"LookupTableImportV2", 1},
                                             {"NoOp", 1},
                                             {"Placeholder", 1}}));
  EXPECT_EQ(NodeNamed(graph, "unread"), nullptr);
  // The path of the machine that saved the model is gone with the file it named.
  EXPECT_EQ(NodeNamed(graph, "asset_path"), nullptr);
  const NodeDef* sizes = NodeNamed(graph, "sizes/table_init");
  ASSERT_NE(sizes, nullptr);
  EXPECT_EQ(sizes->op(), "LookupTableImportV2");
  EXPECT_EQ(sizes->input(0), "sizes");
  const auto& keys = NodeNamed(graph, "sizes/table_init/keys")->attr().at("value").tensor();
  EXPECT_EQ(std::vector<std::string>(keys.string_val().begin(), keys.string_val().end()),
            (std::vector<std::string>{"small", "medium", "large"}));
  EXPECT_EQ(frozen.asset_file_def_size(), 0);
  EXPECT_EQ(frozen.collection_def().count("saved_model_assets"), 0u);
}

TEST(Tf1TableInitializer, WithoutTheCollectionTheLoadersInitOpNamesThem) {
  tensorflow::MetaGraphDef meta = Tf1Tables();
  meta.mutable_collection_def()->erase(tf::kTableInitializerCollection);
  EXPECT_EQ(
      tf::Tf1TableInitOps(meta, meta.graph_def()),
      (std::vector<std::string>{"^colors/table_init", "^sizes/table_init", "^unread/table_init"}));
  tensorflow::MetaGraphDef frozen;
  json report = FreezeTables(meta, &frozen);
  EXPECT_EQ(report["tables"]["initOps"], json({"colors/table_init", "sizes/table_init"}));
  // No init op at all: the tables are reported unfilled, and the graph keeps no initializer.
  meta.mutable_collection_def()->erase("legacy_init_op");
  EXPECT_TRUE(tf::Tf1TableInitOps(meta, meta.graph_def()).empty());
  report = FreezeTables(meta, &frozen);
  EXPECT_TRUE(report["tables"].is_null()) << report["tables"].dump();
  EXPECT_EQ(frozen.collection_def_size(), 0);
}

TEST(Tf1TableInitializer, AssetsComeFromAssetFileDefElseTheCollection) {
  tensorflow::MetaGraphDef meta = Tf1Tables();
  EXPECT_EQ(tf::Tf1AssetNodes(meta),
            (std::map<std::string, std::string>{{"asset_path", "sizes.txt"}}));
  auto* asset = meta.add_asset_file_def();
  asset->mutable_tensor_info()->set_name("other_path:0");
  asset->set_filename("other.txt");
  EXPECT_EQ(tf::Tf1AssetNodes(meta),
            (std::map<std::string, std::string>{{"other_path", "other.txt"}}));
}

TEST(Tf1TableInitializer, AnAssetNotGivenIsUnsupportedNamingTheInitOp) {
  tensorflow::MetaGraphDef meta = Tf1Tables();
  tensorflow::MetaGraphDef frozen;
  try {
    tf::Freeze(meta, meta.graph_def(), nullptr, {}, &frozen);
    FAIL() << "froze a text file table without its file";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(e.where().node, "sizes/table_init");
    EXPECT_NE(std::string(e.what()).find("(init op 'sizes/table_init')"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("'sizes.txt' was not given"), std::string::npos);
  }
}

// Exported through the facade, as a user meets it: the SavedModel folder's files.
std::map<std::string, std::string> Export(const std::map<std::string, std::string>& files,
                                          const json& options, json* info) {
  auto inputs = std::make_unique<MemoryInputSet>("saved_model");
  for (const auto& [name, bytes] : files) inputs->Add(name, bytes);
  std::unique_ptr<Model> model = Model::Load(std::move(inputs), json::object());
  MemoryOutputSet out;
  *info = model->Export(options, &out);
  std::map<std::string, std::string> written;
  for (const auto& f : out.files()) written[f.name] = f.bytes;
  return written;
}

std::set<std::string> NodesOf(const json& graph, const std::string& op) {
  std::set<std::string> names;
  for (const auto& node : graph["node"]) {
    if (node["op"] == op) names.insert(node["name"].get<std::string>());
  }
  return names;
}

TEST(Tf1TableInitializer, TfjsGetsTheTablesInBothGraphsAndTheInitOpsInModelInitializer) {
  tensorflow::SavedModel saved;
  *saved.add_meta_graphs() = Tf1Tables();
  saved.set_saved_model_schema_version(1);
  std::map<std::string, std::string> files = {{"saved_model.pb", saved.SerializeAsString()},
                                              {"assets/sizes.txt", kSizes}};
  json info;
  auto out = Export(files, {{"to", "tfjs"}, {"freeze", true}}, &info);
  json model_json = json::parse(out.at("model.json"));
  const json& initializer = model_json["modelInitializer"];
  EXPECT_EQ(NodesOf(initializer, "HashTableV2"), (std::set<std::string>{"colors", "sizes"}));
  EXPECT_EQ(NodesOf(model_json["modelTopology"], "HashTableV2"),
            (std::set<std::string>{"colors", "sizes"}));
  EXPECT_EQ(NodesOf(initializer, "InitializeTableV2"),
            (std::set<std::string>{"colors/table_init"}));
  EXPECT_EQ(NodesOf(initializer, "LookupTableImportV2"),
            (std::set<std::string>{"sizes/table_init"}));
  EXPECT_EQ(NodesOf(initializer, "NoOp"), std::set<std::string>{});
  for (const auto& node : model_json["modelTopology"]["node"]) {
    std::string op = node["op"];
    EXPECT_TRUE(op.rfind("Initialize", 0) != 0 && op.rfind("LookupTableImport", 0) != 0) << op;
  }
  // TF.js runs the initializer graph's ends: no signature, no resource inputs (TF1 has none).
  EXPECT_EQ(model_json.count("initializerSignature"), 0u);
  EXPECT_EQ(info.value("unsupportedOps", json::array()), json::array());

  // The text file initializer alone makes an export to TF.js freeze: TF.js cannot read files.
  out = Export(files, {{"to", "tfjs"}}, &info);
  EXPECT_EQ(info["frozen"]["tables"]["fromTextFiles"].size(), 1u) << info.dump();
  EXPECT_EQ(json::parse(out.at("model.json"))["modelInitializer"], initializer);

  // freeze with to: 'graph-def' keeps TensorFlow's TF1 layout: tables, their init ops and the
  // NoOp over them in the one graph, named in info.
  out = Export(files, {{"to", "graph-def"}, {"freeze", true}}, &info);
  tensorflow::GraphDef graph;
  ASSERT_TRUE(graph.ParseFromString(out.begin()->second));
  EXPECT_EQ(info["frozen"]["tables"]["mainOp"], "init_all_tables");
  const NodeDef* main_op = NodeNamed(graph, "init_all_tables");
  ASSERT_NE(main_op, nullptr);
  EXPECT_EQ(std::vector<std::string>(main_op->input().begin(), main_op->input().end()),
            (std::vector<std::string>{"^colors/table_init", "^sizes/table_init"}));
}

fs::path ChicagoDir() { return SavedModelsDir() / "tfx_chicago_taxi_estimator_v1/saved_model"; }

std::map<std::string, std::string> ChicagoFiles(bool with_assets = true) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(ChicagoDir())) {
    if (!entry.is_regular_file()) continue;
    std::string name = fs::relative(entry.path(), ChicagoDir()).generic_string();
    if (!with_assets && name.rfind("assets/", 0) == 0) continue;
    files[name] = ReadFile(entry.path());
  }
  return files;
}

std::vector<std::string> Lines(const std::string& asset) {
  std::istringstream text(ReadFile(ChicagoDir() / "assets" / asset));
  std::vector<std::string> lines;
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

TEST(Tf1TableInitializer, ChicagoTaxisTablesGoToModelInitializerFilledFromItsVocabularies) {
  json info;
  auto out = Export(ChicagoFiles(), {{"to", "tfjs"}, {"allowUnsupportedOps", true}}, &info);
  const json& tables = info["frozen"]["tables"];
  // Two tables, each filled twice: the Estimator's graph holds two calls of each _initialize.
  ASSERT_EQ(tables["tables"].size(), 2u) << tables.dump();
  EXPECT_EQ(tables["tables"][0]["filledBy"],
            json({"transform_features_layer/StatefulPartitionedCall_4",
                  "transform_features_layer/StatefulPartitionedCall_5"}));
  EXPECT_EQ(tables["initOps"].size(), 4u);
  EXPECT_EQ(tables["initOpsLeftOut"], json::array());
  EXPECT_EQ(tables["fromTextFiles"].size(), 4u);

  json model_json = json::parse(out.at("model.json"));
  const json& initializer = model_json["modelInitializer"];
  std::set<std::string> model_tables = NodesOf(model_json["modelTopology"], "HashTableV2");
  EXPECT_EQ(model_tables.size(), 2u);
  EXPECT_EQ(NodesOf(initializer, "HashTableV2"), model_tables);
  EXPECT_EQ(NodesOf(initializer, "LookupTableImportV2").size(), 4u);
  std::map<std::string, int> ops;
  for (const auto& node : initializer["node"]) ++ops[node["op"]];
  EXPECT_EQ(ops.count("InitializeTableFromTextFileV2"), 0u);
  EXPECT_EQ(ops.count("StatefulPartitionedCall"), 0u);

  // Each import's keys are a vocabulary's lines as the test reads them; the weights hold them.
  std::vector<std::string> payment = Lines("vocab_compute_and_apply_vocabulary_vocabulary");
  std::vector<std::string> company = Lines("vocab_compute_and_apply_vocabulary_1_vocabulary");
  EXPECT_EQ(payment.size(), 6u);
  EXPECT_EQ(company.size(), 53u);
  std::map<std::string, json> weights;
  for (const auto& weight : model_json["weightsManifest"][0]["weights"]) {
    weights[weight["name"]] = weight;
  }
  for (const auto& name : NodesOf(initializer, "LookupTableImportV2")) {
    SCOPED_TRACE(name);
    ASSERT_EQ(weights.count(name + "/keys"), 1u);
    int64_t size = weights[name + "/keys"]["shape"][0];
    bool company_table = name.find("StatefulPartitionedCall_4/") != std::string::npos ||
                         name.find("StatefulPartitionedCall_5/") != std::string::npos;
    EXPECT_EQ(size, static_cast<int64_t>(company_table ? company.size() : payment.size()));
    EXPECT_EQ(weights[name + "/values"]["dtype"], "int32") << "int64 is written as int32";
  }
}

TEST(Tf1TableInitializer, ChicagoWithoutItsAssetsIsUnsupportedNamingTheInitOpAndFile) {
  try {
    json info;
    Export(ChicagoFiles(false), {{"to", "tfjs"}, {"allowUnsupportedOps", true}}, &info);
    FAIL() << "exported without the vocabulary files";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    std::string message = e.what();
    EXPECT_NE(message.find("(init op 'transform_features_layer/StatefulPartitionedCall_2')"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("'vocab_compute_and_apply_vocabulary_vocabulary' was not given"),
              std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace graphport::testing
