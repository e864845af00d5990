// Text file initializers filled from the asset read now: graphs built in code, one table each.
#include "tf/freeze/text_file_initializers.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "freeze_test_util.h"
#include "test_graphs.h"

namespace graphport::testing {
namespace {

using tensorflow::DT_INT64;
using tensorflow::DT_STRING;

const char kVocabulary[] = "red\ngreen\nblue\n";

// table (HashTable or HashTableV2) <- init (InitializeTableFromTextFile[V2]) of the Const
// "path", which the context calls the asset "colors.txt".
tensorflow::GraphDef TextFileTable(bool v2) {
  tensorflow::GraphDef graph;
  auto& table = AddNode(&graph, "table", v2 ? "HashTableV2" : "HashTable");
  SetType(&table, "key_dtype", DT_STRING);
  SetType(&table, "value_dtype", DT_INT64);
  auto& path = AddNode(&graph, "path", "Const");
  SetType(&path, "dtype", DT_STRING);
  AddNode(&graph, "path/read", "Identity", {"path"});
  auto& init =
      AddNode(&graph, "init", v2 ? "InitializeTableFromTextFileV2" : "InitializeTableFromTextFile",
              {"table", "path/read", "^path"});
  (*init.mutable_attr())["key_index"].set_i(-2);
  (*init.mutable_attr())["value_index"].set_i(-1);
  return graph;
}

tf::TextFileTablesContext Context(bool give_file = true) {
  tf::TextFileTablesContext context;
  context.asset_nodes = {{"path", "colors.txt"}};
  context.read_asset = [give_file](const std::string& name, std::string* bytes,
                                   std::string* label) {
    if (!give_file || name != "colors.txt") return false;
    *bytes = kVocabulary;
    *label = "assets/colors.txt";
    return true;
  };
  return context;
}

TEST(TextFileInitializers, AV2InitializerBecomesAnImportOfTheFilesLines) {
  tensorflow::GraphDef graph = TextFileTable(true);
  nlohmann::json filled = tf::FillTextFileTables(&graph, Context());
  ASSERT_EQ(filled.size(), 1u);
  EXPECT_EQ(filled[0]["node"], "init");
  EXPECT_EQ(filled[0]["asset"], "colors.txt");
  EXPECT_EQ(filled[0]["entries"], 3);
  EXPECT_EQ(filled[0]["madeOp"], "LookupTableImportV2");

  const tensorflow::NodeDef* init = NodeNamed(graph, "init");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ(init->op(), "LookupTableImportV2");
  // The table, the two Consts, and the control input kept.
  ASSERT_EQ(init->input_size(), 4);
  EXPECT_EQ(init->input(0), "table");
  EXPECT_EQ(init->input(1), "init/keys");
  EXPECT_EQ(init->input(2), "init/values");
  EXPECT_EQ(init->input(3), "^path");
  const auto& keys = NodeNamed(graph, "init/keys")->attr().at("value").tensor();
  const auto& values = NodeNamed(graph, "init/values")->attr().at("value").tensor();
  EXPECT_EQ(std::vector<std::string>(keys.string_val().begin(), keys.string_val().end()),
            (std::vector<std::string>{"red", "green", "blue"}));
  EXPECT_EQ(std::vector<int64_t>(values.int64_val().begin(), values.int64_val().end()),
            (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(init->attr().at("Tin").type(), DT_STRING);
  EXPECT_EQ(init->attr().at("Tout").type(), DT_INT64);
}

TEST(TextFileInitializers, AV1InitializerBecomesTheV1Import) {
  tensorflow::GraphDef graph = TextFileTable(false);
  nlohmann::json filled = tf::FillTextFileTables(&graph, Context());
  ASSERT_EQ(filled.size(), 1u);
  EXPECT_EQ(filled[0]["madeOp"], "LookupTableImport");
  EXPECT_EQ(NodeNamed(graph, "init")->op(), "LookupTableImport");
}

TEST(TextFileInitializers, AFileNotGivenOrNoAssetIsUnsupportedNamingTheNode) {
  tensorflow::GraphDef graph = TextFileTable(true);
  tf::TextFileTablesContext context = Context(false);
  context.describe = [](const std::string& node) { return "the table of '" + node + "'"; };
  try {
    tf::FillTextFileTables(&graph, context);
    FAIL() << "filled a table without its file";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(e.where().node, "init");
    EXPECT_NE(std::string(e.what()).find("the table of 'init'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'colors.txt' was not given"), std::string::npos);
  }
  graph = TextFileTable(true);
  context = Context();
  context.asset_nodes.clear();
  try {
    tf::FillTextFileTables(&graph, context);
    FAIL() << "filled a table from a path that is no asset";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("not an asset"), std::string::npos) << e.what();
  }
  // A V2 initializer of a V1 table: TensorFlow would refuse the graph; so does the fill.
  graph = TextFileTable(true);
  graph.mutable_node(0)->set_op("HashTable");
  EXPECT_THROW(tf::FillTextFileTables(&graph, Context()), Error);
}

TEST(TextFileInitializers, TellsTableOpsAndTheirInitOps) {
  EXPECT_TRUE(tf::IsTableOp("HashTableV2"));
  EXPECT_TRUE(tf::IsTableOp("MutableHashTable"));
  EXPECT_FALSE(tf::IsTableOp("LookupTableFindV2"));
  EXPECT_TRUE(tf::IsTableInitOp("InitializeTableV2"));
  EXPECT_TRUE(tf::IsTableInitOp("LookupTableImport"));
  EXPECT_FALSE(tf::IsTableInitOp("HashTableV2"));
}

}  // namespace
}  // namespace graphport::testing
