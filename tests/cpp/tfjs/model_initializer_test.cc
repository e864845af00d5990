// modelInitializer: a TF.js model with a hash table, its init op in the initializer graph,
// read into one TensorFlow graph with the init op in the SavedModel loader's collections, and
// written back as model.json's modelInitializer.
#include "tfjs/model_initializer.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/byte_stream.h"
#include "tf/meta_graph/export_nodes.h"
#include "tf/meta_graph/graph_nodes.h"
#include "tf/tf_model.h"
#include "tfjs/family.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;
using testing::OwnedInputSet;

json Attr(const std::string& type) { return {{"type", type}}; }

json HashTable() {
  return {{"name", "hash_table"},
          {"op", "HashTableV2"},
          {"attr",
           {{"key_dtype", Attr("DT_STRING")},
            {"value_dtype", Attr("DT_INT32")},
            {"shared_name", {{"s", ""}}}}}};
}

// String weights: a little-endian uint32 length before each string's bytes.
std::string StringWeight(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& s : values) {
    uint32_t n = static_cast<uint32_t>(s.size());
    out.append(reinterpret_cast<const char*>(&n), 4);
    out += s;
  }
  return out;
}

// A lookup of its string input in a table {a: 1, b: 2, c: 3}, default -1, as tfjs-converter
// writes a TF1 SavedModel with a table. `clash` adds what a TF2 model's initializer has: an
// output of the table's handle, here named "output" as a node of the model is.
void AddTableModel(OwnedInputSet* inputs, bool clash = false) {
  json topology = {
      {"node",
       {{{"name", "input"},
         {"op", "Placeholder"},
         {"attr",
          {{"dtype", Attr("DT_STRING")}, {"shape", {{"shape", {{"dim", {{{"size", "-1"}}}}}}}}}}},
        HashTable(),
        testing::ConstNode("default", "DT_INT32", {}),
        {{"name", "lookup"},
         {"op", "LookupTableFindV2"},
         {"input", {"hash_table", "input", "default"}},
         {"attr", {{"Tin", Attr("DT_STRING")}, {"Tout", Attr("DT_INT32")}}}},
        {{"name", "output"},
         {"op", "Identity"},
         {"input", {"lookup"}},
         {"attr", {{"T", Attr("DT_INT32")}}}}}},
      {"library", json::object()},
      {"versions", {{"producer", 1286}}}};
  json initializer = {{"node",
                       {HashTable(),
                        testing::ConstNode("keys", "DT_STRING", {3}),
                        testing::ConstNode("values", "DT_INT32", {3}),
                        {{"name", "key_value_init"},
                         {"op", "LookupTableImportV2"},
                         {"input", {"hash_table", "keys", "values"}},
                         {"attr", {{"Tin", Attr("DT_STRING")}, {"Tout", Attr("DT_INT32")}}}}}},
                      {"versions", {{"producer", 1286}}}};
  json weights = {{{"name", "default"}, {"shape", json::array()}, {"dtype", "int32"}},
                  {{"name", "keys"}, {"shape", {3}}, {"dtype", "string"}},
                  {{"name", "values"}, {"shape", {3}}, {"dtype", "int32"}}};
  std::string bytes = testing::Bytes<int32_t>({-1}) + StringWeight({"a", "b", "c"}) +
                      testing::Bytes<int32_t>({1, 2, 3});
  json model = {{"format", "graph-model"},
                {"generatedBy", "1.15.0"},
                {"convertedBy", "TensorFlow.js Converter v4.22.0"},
                {"signature",
                 {{"inputs", {{"input", {{"name", "input:0"}, {"dtype", "DT_STRING"}}}}},
                  {"outputs", {{"output", {{"name", "output:0"}, {"dtype", "DT_INT32"}}}}}}},
                {"modelTopology", topology},
                {"modelInitializer", initializer},
                {"weightsManifest", {{{"paths", {"group1-shard1of1.bin"}}, {"weights", weights}}}}};
  if (clash) {
    model["modelInitializer"]["node"].push_back({{"name", "output"},
                                                 {"op", "Identity"},
                                                 {"input", {"hash_table"}},
                                                 {"attr", {{"T", Attr("DT_RESOURCE")}}}});
    model["initializerSignature"] = {
        {"outputs", {{"output:0", {{"name", "output:0"}, {"dtype", "DT_RESOURCE"}}}}}};
  }
  inputs->Add("model.json", model.dump());
  inputs->Add("group1-shard1of1.bin", bytes);
}

const tensorflow::NodeDef* Find(const tensorflow::GraphDef& graph, const std::string& name) {
  for (const auto& node : graph.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

std::vector<std::string> Names(const json& nodes) {
  std::vector<std::string> names;
  for (const json& node : nodes) names.push_back(node["name"]);
  return names;
}

TEST(ModelInitializerTest, ReadsTheInitializerIntoTheGraphWithTheLoadersInitOp) {
  OwnedInputSet inputs;
  AddTableModel(&inputs);
  tensorflow::MetaGraphDef meta;
  ReadResult read = testing::ReadModel(&inputs, &meta);
  const tensorflow::GraphDef& graph = meta.graph_def();
  // The model's 5 nodes, the initializer's 3 others (its hash_table is the model's), the NoOp.
  ASSERT_EQ(graph.node_size(), 9);
  int tables = 0;
  for (const auto& node : graph.node()) tables += node.op() == "HashTableV2" ? 1 : 0;
  EXPECT_EQ(tables, 1);
  const tensorflow::NodeDef* keys = Find(graph, "keys");
  ASSERT_NE(keys, nullptr);
  const auto& strings = keys->attr().at("value").tensor().string_val();
  EXPECT_EQ(std::vector<std::string>(strings.begin(), strings.end()),
            std::vector<std::string>({"a", "b", "c"}));
  const tensorflow::NodeDef* init = Find(graph, "init_all_tables");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->op(), "NoOp");
  ASSERT_EQ(init->input_size(), 1);
  EXPECT_EQ(init->input(0), "^key_value_init");
  ASSERT_EQ(meta.collection_def().count(kTableInitializerCollection), 1u);
  EXPECT_EQ(meta.collection_def().at(kTableInitializerCollection).node_list().value(0),
            "key_value_init");
  ASSERT_EQ(meta.collection_def().count(kMainOpCollection), 1u);
  EXPECT_EQ(meta.collection_def().at(kMainOpCollection).node_list().value(0), "init_all_tables");
  EXPECT_EQ(read.manifest["modelInitializer"]["nodes"], 4);
  EXPECT_EQ(read.manifest["modelInitializer"]["shared"], 1);
  EXPECT_TRUE(read.manifest["unusedWeights"].empty());
}

TEST(ModelInitializerTest, SavedModelExportKeepsTheInitOpAndTfjsExportCutsItOutAgain) {
  OwnedInputSet inputs;
  AddTableModel(&inputs);
  Probe probe(inputs.set());
  const Family& family = TfjsFamily();
  Detection d = family.Detect(&probe, "");
  auto model = family.Read(&probe, d, OptionValues::Read(family.load_options(), {}, "load"));
  auto Export = [&](const json& options, MemoryOutputSet* out) {
    return model->Export(OptionValues::Read(family.export_options(), options, "export"), out);
  };

  MemoryOutputSet saved;
  Export({{"to", "saved-model"}}, &saved);
  tensorflow::SavedModel saved_model;
  ASSERT_TRUE(saved_model.ParseFromString(saved.files()[0].bytes));
  const auto& collections = saved_model.meta_graphs(0).collection_def();
  ASSERT_EQ(collections.count(kMainOpCollection), 1u);
  EXPECT_EQ(collections.at(kMainOpCollection).node_list().value(0), "init_all_tables");
  EXPECT_NE(Find(saved_model.meta_graphs(0).graph_def(), "init_all_tables"), nullptr);

  MemoryOutputSet tfjs;
  Export({{"to", "tfjs"}}, &tfjs);
  json written = json::parse(tfjs.files().back().bytes);
  EXPECT_EQ(Names(written["modelTopology"]["node"]),
            std::vector<std::string>({"input", "hash_table", "default", "lookup", "output"}));
  ASSERT_TRUE(written.contains("modelInitializer"));
  EXPECT_EQ(Names(written["modelInitializer"]["node"]),
            std::vector<std::string>({"hash_table", "keys", "values", "key_value_init"}));
  EXPECT_FALSE(written.contains("initializerSignature"));
  EXPECT_EQ(Names(written["weightsManifest"][0]["weights"]),
            std::vector<std::string>({"default", "keys", "values"}));
  EXPECT_EQ(tfjs.files()[0].bytes, inputs.bytes("group1-shard1of1.bin"));

  // And read again: the same TensorFlow graph.
  OwnedInputSet again;
  testing::AddOutputs(tfjs, &again);
  tensorflow::MetaGraphDef first, second;
  testing::ReadModel(&inputs, &first);
  testing::ReadModel(&again, &second);
  EXPECT_TRUE(testing::MessagesEqual(first.graph_def(), second.graph_def()));
  EXPECT_TRUE(testing::MessagesEqual(first.collection_def().at(kMainOpCollection),
                                     second.collection_def().at(kMainOpCollection)));
}

TEST(ModelInitializerTest, AnInitializerNodeWhoseNameTheModelTookIsRenamed) {
  OwnedInputSet inputs;
  AddTableModel(&inputs, /*clash=*/true);
  tensorflow::MetaGraphDef meta;
  ReadResult read = testing::ReadModel(&inputs, &meta);
  EXPECT_EQ(read.manifest["modelInitializer"]["renamed"], json({{"output", "initializer/output"}}));
  const tensorflow::NodeDef* handle = Find(meta.graph_def(), "initializer/output");
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(handle->op(), "Identity");
  EXPECT_EQ(Find(meta.graph_def(), "output")->input(0), "lookup");
  EXPECT_EQ(meta.collection_def().at(kTableInitializerCollection).node_list().value_size(), 2);
  EXPECT_EQ(Find(meta.graph_def(), "init_all_tables")->input(1), "^initializer/output");

  // Written back under its own name: in TF.js the initializer is a graph of its own.
  Probe probe(inputs.set());
  const Family& family = TfjsFamily();
  auto model = family.Read(&probe, family.Detect(&probe, ""),
                           OptionValues::Read(family.load_options(), {}, "load"));
  MemoryOutputSet tfjs;
  model->Export(OptionValues::Read(family.export_options(), {{"to", "tfjs"}}, "export"), &tfjs);
  json written = json::parse(tfjs.files().back().bytes);
  EXPECT_EQ(Names(written["modelInitializer"]["node"]),
            std::vector<std::string>({"hash_table", "keys", "values", "key_value_init", "output"}));
  EXPECT_EQ(written["initializerSignature"],
            json({{"outputs", {{"output:0", {{"dtype", "DT_RESOURCE"}, {"name", "output:0"}}}}}}));
  for (const json& node : written["modelInitializer"]["node"]) {
    EXPECT_FALSE(node.contains("attr") && node["attr"].contains(kInitializerNameAttr));
  }
}

// The TF2 form (converter v3.21+): the model takes the table's handle as a resource input that
// TF.js feeds from the initializer's output of the same resourceId. In TensorFlow the input
// becomes an Identity of that output (the graph then reads the table the init op fills), and
// a TF.js export makes it the resource input again, resourceIds and all.
TEST(ModelInitializerTest, ATf2ResourceInputIsFedFromTheInitializerAndComesBack) {
  OwnedInputSet tf1;
  AddTableModel(&tf1);
  json model = json::parse(tf1.bytes("model.json"));
  json& nodes = model["modelTopology"]["node"];
  nodes[1] = {{"name", "unknown"},
              {"op", "Placeholder"},
              {"attr", {{"dtype", Attr("DT_RESOURCE")}, {"shape", {{"shape", json::object()}}}}}};
  nodes[3]["input"][0] = "unknown";
  model["signature"]["inputs"]["unknown"] = {{"name", "unknown:0"},
                                             {"dtype", "DT_RESOURCE"},
                                             {"tensorShape", json::object()},
                                             {"resourceId", 42}};
  model["modelInitializer"]["node"].push_back({{"name", "handle"},
                                               {"op", "Identity"},
                                               {"input", {"hash_table", "^key_value_init"}},
                                               {"attr", {{"T", Attr("DT_RESOURCE")}}}});
  model["initializerSignature"] = {{"outputs",
                                    {{"handle:0",
                                      {{"name", "handle:0"},
                                       {"dtype", "DT_RESOURCE"},
                                       {"tensorShape", json::object()},
                                       {"resourceId", 42}}}}}};
  OwnedInputSet inputs;
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1.bin", tf1.bytes("group1-shard1of1.bin"));

  tensorflow::MetaGraphDef meta;
  ReadResult read = testing::ReadModel(&inputs, &meta);
  EXPECT_EQ(read.manifest["modelInitializer"]["linkedInputs"], json({"unknown"}));
  const tensorflow::NodeDef* unknown = Find(meta.graph_def(), "unknown");
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->op(), "Identity");
  ASSERT_EQ(unknown->input_size(), 1);
  EXPECT_EQ(unknown->input(0), "handle");
  EXPECT_EQ(unknown->attr().at(kResourceIdAttr).i(), 42);
  const auto& signature = meta.signature_def().at(kSignatureKey);
  EXPECT_EQ(signature.inputs().size(), 1u);
  EXPECT_EQ(signature.inputs().count("input"), 1u);

  Probe probe(inputs.set());
  const Family& family = TfjsFamily();
  auto loaded = family.Read(&probe, family.Detect(&probe, ""),
                            OptionValues::Read(family.load_options(), {}, "load"));
  MemoryOutputSet tfjs;
  loaded->Export(OptionValues::Read(family.export_options(), {{"to", "tfjs"}}, "export"), &tfjs);
  json written = json::parse(tfjs.files().back().bytes);
  EXPECT_EQ(Names(written["modelTopology"]["node"]),
            std::vector<std::string>({"input", "unknown", "default", "lookup", "output"}));
  EXPECT_EQ(written["modelTopology"]["node"][1]["op"], "Placeholder");
  EXPECT_EQ(written["signature"]["inputs"]["unknown"]["resourceId"], 42);
  EXPECT_EQ(Names(written["modelInitializer"]["node"]),
            std::vector<std::string>({"hash_table", "keys", "values", "key_value_init", "handle"}));
  EXPECT_EQ(written["initializerSignature"]["outputs"]["handle:0"]["resourceId"], 42);
}

TEST(ModelInitializerTest, BadInitializersNameModelInitializer) {
  OwnedInputSet tf1;
  AddTableModel(&tf1);
  json model = json::parse(tf1.bytes("model.json"));
  for (const auto& [change, code, says] :
       std::vector<std::tuple<std::function<void(json*)>, ErrorCode, std::string>>{
           {[](json* m) { (*m)["modelInitializer"]["node"] = 3; }, ErrorCode::kParseError,
            "model.json: modelInitializer.node is not an array"},
           {[](json* m) { (*m)["modelInitializer"]["node"][3]["op"] = "NoSuchOp"; },
            ErrorCode::kUnsupported, "modelInitializer: node 'key_value_init' has op 'NoSuchOp'"},
           {[](json* m) { (*m)["modelInitializer"]["node"][1]["attr"] = "x"; },
            ErrorCode::kParseError, "modelInitializer.node[1] ('keys')"}}) {
    json bad = model;
    change(&bad);
    OwnedInputSet inputs;
    inputs.Add("model.json", bad.dump());
    inputs.Add("group1-shard1of1.bin", tf1.bytes("group1-shard1of1.bin"));
    tensorflow::MetaGraphDef meta;
    try {
      testing::ReadModel(&inputs, &meta);
      ADD_FAILURE() << says << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), code) << e.what();
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
      EXPECT_EQ(e.where().file, "model.json");
    }
  }
}

// TF.js runs the initializer before the model: an op it cannot run there is refused as one in
// the model's graph would be, the node named under "modelInitializer/".
TEST(ModelInitializerTest, ThePreflightChecksTheInitializerGraphToo) {
  OwnedInputSet tf1;
  AddTableModel(&tf1);
  json model = json::parse(tf1.bytes("model.json"));
  // An op TensorFlow has and TF.js lacks, here reading the table the initializer filled.
  model["modelInitializer"]["node"].push_back(
      {{"name", "export"},
       {"op", "LookupTableExportV2"},
       {"input", {"hash_table", "^key_value_init"}},
       {"attr", {{"Tkeys", Attr("DT_STRING")}, {"Tvalues", Attr("DT_INT32")}}}});
  OwnedInputSet inputs;
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1.bin", tf1.bytes("group1-shard1of1.bin"));
  Probe probe(inputs.set());
  const Family& family = TfjsFamily();
  auto loaded = family.Read(&probe, family.Detect(&probe, ""),
                            OptionValues::Read(family.load_options(), {}, "load"));
  MemoryOutputSet refused;
  try {
    loaded->Export(OptionValues::Read(family.export_options(), {{"to", "tfjs"}}, "export"),
                   &refused);
    ADD_FAILURE() << "exported an initializer TF.js cannot run";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("LookupTableExportV2 x1 (modelInitializer/export)"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.where().node, "modelInitializer/export");
  }
  EXPECT_TRUE(refused.files().empty());
  MemoryOutputSet written;
  json info =
      loaded->Export(OptionValues::Read(family.export_options(),
                                        {{"to", "tfjs"}, {"allowUnsupportedOps", true}}, "export"),
                     &written);
  ASSERT_EQ(info["unsupportedOps"].size(), 1u) << info.dump();
  EXPECT_EQ(info["unsupportedOps"][0]["op"], "LookupTableExportV2");
  EXPECT_EQ(info["unsupportedOps"][0]["nodes"], json({"modelInitializer/export"}));
}

TEST(ModelInitializerTest, SplitsATensorFlowGraphByItsLegacyInitOp) {
  // A TF1 SavedModel's graph without the table_initializer collection: the init op's inputs
  // are the init ops.
  OwnedInputSet inputs;
  AddTableModel(&inputs);
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(&inputs, &meta);
  meta.mutable_collection_def()->erase(kTableInitializerCollection);
  meta.mutable_collection_def()->erase(kMainOpCollection);
  (*meta.mutable_collection_def())[kLegacyInitOpCollection].mutable_node_list()->add_value(
      "init_all_tables");
  tensorflow::GraphDef main, initializer;
  tf::ParsedGraphNodes nodes(meta.graph_def());
  ASSERT_TRUE(SplitInitializer(&nodes, &meta, &main, &initializer, nullptr));
  EXPECT_EQ(main.node_size(), 5);
  ASSERT_EQ(initializer.node_size(), 4);
  EXPECT_EQ(initializer.node(0).name(), "hash_table");
  EXPECT_EQ(initializer.node(3).name(), "key_value_init");

  meta.mutable_collection_def()->clear();
  EXPECT_FALSE(SplitInitializer(&nodes, &meta, &main, &initializer, nullptr));
  EXPECT_FALSE(SplitInitializer(&nodes, nullptr, &main, &initializer, nullptr));
}

// The split reads the export's nodes in whichever form holds them: a TF2 SavedModel with hash
// tables (its init op in the "__saved_model_init_op" signature), kept as its bytes and parsed
// whole, is cut into the same two graphs with the same resource links.
TEST(ModelInitializerTest, SplitsTheSameGraphsFromBytesAndFromParsedNodes) {
  const std::string bytes =
      testing::ReadFile(testing::CorpusDir().parent_path() / "savedmodels" /
                        "tfx_tft_tf2_hashtables" / "saved_model" / "saved_model.pb");
  std::string split[2];
  std::vector<ResourceLink> links[2];
  for (int form = 0; form < 2; ++form) {
    MemorySource source(bytes);
    std::unique_ptr<tf::TfModel> model = tf::TfModel::Load(&source, {});
    if (form == 1) model->graph();  // parses it whole
    ASSERT_EQ(model->wire_graph() != nullptr, form == 0);
    model->PrepareWireGraphForExport();
    std::unique_ptr<tf::ExportNodes> loaded = tf::NodesToExport(*model, {});
    std::unique_ptr<tf::GraphNodes> nodes = loaded->Nodes();
    tensorflow::GraphDef main, initializer;
    ASSERT_TRUE(
        SplitInitializer(nodes.get(), model->meta_graph(), &main, &initializer, &links[form]));
    EXPECT_GT(initializer.node_size(), 0);
    EXPECT_GT(main.node_size(), 0);
    split[form] = testing::DeterministicBytes(main) + testing::DeterministicBytes(initializer);
  }
  EXPECT_TRUE(split[0] == split[1]);
  ASSERT_EQ(links[0].size(), links[1].size());
  for (size_t i = 0; i < links[0].size(); ++i) {
    EXPECT_EQ(links[0][i].placeholder, links[1][i].placeholder);
    EXPECT_EQ(links[0][i].tensor, links[1][i].tensor);
    EXPECT_EQ(links[0][i].resource_id, links[1][i].resource_id);
    EXPECT_EQ(links[0][i].signature_key, links[1][i].signature_key);
  }
}

}  // namespace
}  // namespace graphport::tfjs
