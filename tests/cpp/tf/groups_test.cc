// Protobuf groups (wire types 3 and 4) in TensorFlow inputs. No TensorFlow schema has them, text
// format cannot print one, and graphport must read back all it writes: a group anywhere is a
// parse error at its byte offset, naming the field and the node it is in (issue 36: one byte
// of a real SavedModel made a group, which loaded and then failed a text export as INTERNAL).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "api/model.h"
#include "core/error.h"
#include "core/input_set.h"
#include "proto/proto_io.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "test_util.h"
#include "tf/tf_model.h"

namespace graphport::tf {
namespace {

namespace fs = std::filesystem;

std::string Varint(uint64_t v) {
  std::string out;
  for (; v >= 0x80; v >>= 7) out += static_cast<char>((v & 0x7f) | 0x80);
  return out + static_cast<char>(v);
}

// A length-delimited record of field `number`.
std::string Field(int number, const std::string& payload) {
  return Varint(static_cast<uint64_t>(number) << 3 | 2) + Varint(payload.size()) + payload;
}

// An empty group of field 14, what the issue's byte made: start-group, end-group.
const std::string kGroup = Varint(14 << 3 | 3) + Varint(14 << 3 | 4);

// A NodeDef named `name` whose bytes hold `inside` right after its name record.
std::string Node(const std::string& name, const std::string& inside) {
  return Field(1, name) + inside + Field(2, "NoOp");
}

struct Expected {
  int number = 14;
  std::string node;  // "" outside a node
  std::string path;  // what the message names after ", in "
};

// Loads `bytes` (format "auto" and the kind forced) and expects the group's parse error at
// the offset of `marker`'s end in them.
void ExpectGroupRefused(const std::string& bytes, const std::string& marker,
                        const std::string& kind, const Expected& expected) {
  const size_t at = bytes.find(marker);
  ASSERT_NE(at, std::string::npos);
  const size_t offset = at + marker.size();
  for (const std::string& format : {std::string("auto"), kind + "-binary"}) {
    SCOPED_TRACE(format);
    TfLoadOptions options;
    options.name = "grouped.pb";
    options.format = format;
    try {
      MemorySource source(bytes);
      TfModel::Load(&source, options);
      ADD_FAILURE() << "loaded";
    } catch (const Error& e) {
      const std::string what = e.what();
      if (format == "auto" && e.code() == ErrorCode::kUnknownFormat) {
        // In the first bytes detection reads, a group makes them no TensorFlow message at
        // all (as keras_metadata.pb is none): UNKNOWN_FORMAT, naming the group's byte.
        EXPECT_NE(what.find("-group at byte "), std::string::npos) << what;
        continue;
      }
      EXPECT_EQ(e.code(), ErrorCode::kParseError) << what;
      EXPECT_EQ(e.where().file, "grouped.pb");
      EXPECT_EQ(e.where().offset, static_cast<int64_t>(offset)) << what;
      EXPECT_EQ(e.where().node, expected.node) << what;
      EXPECT_NE(what.find("field " + std::to_string(expected.number) + " is a group"),
                std::string::npos)
          << what;
      EXPECT_NE(what.find("at byte " + std::to_string(offset)), std::string::npos) << what;
      if (!expected.path.empty()) {
        EXPECT_NE(what.find(", in " + expected.path), std::string::npos) << what;
      }
      if (!expected.node.empty()) {
        EXPECT_NE(what.find("'" + expected.node + "'"), std::string::npos) << what;
      }
    }
  }
}

std::string Graph(const std::string& node_inside) {
  return Field(1, Node("before", "")) + Field(1, Node("grouped_node", node_inside)) +
         Field(1, Node("after", ""));
}

TEST(GroupsTest, InANodeOfAGraphDef) {
  ExpectGroupRefused(Graph(kGroup), "grouped_node", "graph-def",
                     {14, "grouped_node", "node[1] (NodeDef 'grouped_node')"});
}

TEST(GroupsTest, AGroupWithFieldsInsideAndAnEndGroupAlone) {
  // A group holding records (libprotobuf keeps it whole), and an end-group with no start,
  // which libprotobuf refuses without saying where.
  const std::string full = Varint(9 << 3 | 3) + Field(1, "x") + Varint(9 << 3 | 4);
  ExpectGroupRefused(Graph(full), "grouped_node", "graph-def",
                     {9, "grouped_node", "node[1] (NodeDef 'grouped_node')"});
  ExpectGroupRefused(Graph(Varint(3 << 3 | 4)), "grouped_node", "graph-def",
                     {3, "grouped_node", "node[1] (NodeDef 'grouped_node')"});
}

TEST(GroupsTest, AtTheTopLevel) {
  const std::string nodes = Field(1, Node("a", "")) + Field(1, Node("last_node", ""));
  ExpectGroupRefused(nodes + kGroup, "last_node" + Field(2, "NoOp"), "graph-def", {14, "", ""});
}

TEST(GroupsTest, InAnAttrValueOfANode) {
  // attr { key: "T" value { <group> type: DT_FLOAT } }
  const std::string entry = Field(1, "T") + Field(2, kGroup + Varint(6 << 3) + Varint(1));
  const std::string bytes = Field(1, Field(1, "n") + Field(2, "Identity") + Field(5, entry));
  ExpectGroupRefused(bytes, Field(1, "T") + Varint(2 << 3 | 2) + Varint(kGroup.size() + 2),
                     "graph-def", {14, "n", "node[0].attr[\"T\"]"});
}

TEST(GroupsTest, InAFunctionBody) {
  // library { function { signature { name: "fn" } node_def { <grouped node> } } }
  const std::string function = Field(1, Field(1, "fn")) + Field(3, Node("fn_node", kGroup));
  const std::string bytes = Field(1, Node("outer", "")) + Field(2, Field(1, function));
  ExpectGroupRefused(bytes, "fn_node", "graph-def",
                     {14, "fn_node", "library.function[0].node_def[0] (NodeDef 'fn_node')"});
}

TEST(GroupsTest, InAMetaGraphDefsOtherFields) {
  // meta_info_def { tags: "serve" <group> }, then a graph: the group is in what is parsed
  // beside the nodes kept as bytes.
  const std::string bytes = Field(1, Field(4, "serve") + kGroup) + Field(2, Graph(""));
  ExpectGroupRefused(bytes, "serve", "meta-graph", {14, "", "meta_info_def"});
  // signature_def { key: "sig" value { method_name: "m" <group> } }
  const std::string signature = Field(1, "sig") + Field(2, Field(3, "m") + kGroup);
  ExpectGroupRefused(Field(2, Graph("")) + Field(5, signature), Field(3, "m"), "meta-graph",
                     {14, "", "signature_def[\"sig\"]"});
}

TEST(GroupsTest, InASavedModelsNode) {
  const std::string meta_graph = Field(1, Field(4, "serve")) + Field(2, Graph(kGroup));
  ExpectGroupRefused(Field(1, Varint(1)) + Field(2, meta_graph), "grouped_node", "saved-model",
                     {14, "grouped_node", "meta_graphs[0].graph_def.node[1]"});
}

TEST(GroupsTest, WithoutTheGroupTheSameGraphLoads) {
  // The error above is the group's: the same bytes without it load.
  TfLoadOptions options;
  const std::string bytes = Graph("");
  MemorySource source(bytes);
  EXPECT_EQ(TfModel::Load(&source, options)->graph().node_size(), 3);
}

// A message that holds a group without having been loaded by graphport (libprotobuf's own
// parse; a stream too large to hold is not looked at for groups): its text is refused with
// the group's field and place, not INTERNAL.
TEST(GroupsTest, TextOfAMessageHoldingAGroupIsAParseErrorNotInternal) {
  tensorflow::GraphDef graph;
  ASSERT_TRUE(graph.ParseFromString(Graph(kGroup)));
  StringSink sink;
  try {
    proto::WriteText(graph, &sink);
    FAIL() << "written";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), ErrorCode::kParseError) << what;
    EXPECT_NE(what.find("field 14 is a group"), std::string::npos) << what;
    EXPECT_NE(what.find("node[1] (NodeDef 'grouped_node')"), std::string::npos) << what;
  }
}

// The issue's input: one byte of a real Keras LSTM SavedModel (../shared/savedmodels) made a
// NodeDef's field an empty group; it loaded and its text export failed as INTERNAL.
TEST(GroupsTest, TheIssuesByteFlipInARealSavedModelIsAParseError) {
  const fs::path folder =
      testing::CorpusDir().parent_path() / "savedmodels" / "keras_lstm_sequential" / "saved_model";
  ASSERT_TRUE(fs::is_regular_file(folder / "saved_model.pb")) << folder;
  auto inputs = std::make_unique<MemoryInputSet>("keras_lstm_sequential");
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[fs::relative(entry.path(), folder).generic_string()] =
        std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string& graph = files.at("saved_model.pb");
  constexpr size_t kFlipped = 326874;
  ASSERT_GT(graph.size(), kFlipped);
  ASSERT_EQ(static_cast<uint8_t>(graph[kFlipped]), 0x12);
  // Unchanged, it loads and exports as text.
  {
    auto intact = std::make_unique<MemoryInputSet>("keras_lstm_sequential");
    for (const auto& [name, bytes] : files) intact->Add(name, bytes);
    std::unique_ptr<Model> model = Model::Load(std::move(intact), nlohmann::json::object());
    MemoryOutputSet out;
    model->ExportJson(R"({"to": "meta-graph", "asText": true})", &out);
    EXPECT_FALSE(out.files().empty());
  }
  graph[kFlipped] = 0x3d;
  for (const auto& [name, bytes] : files) inputs->Add(name, bytes);
  try {
    Model::Load(std::move(inputs), nlohmann::json::object());
    FAIL() << "loaded";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), ErrorCode::kParseError) << what;
    EXPECT_NE(what.find("saved_model.pb"), std::string::npos) << what;
    EXPECT_NE(what.find("is a group"), std::string::npos) << what;
    EXPECT_NE(what.find("field 14"), std::string::npos) << what;
    EXPECT_FALSE(e.where().node.empty()) << what;
    EXPECT_GE(e.where().offset, static_cast<int64_t>(kFlipped)) << what;
  }
}

}  // namespace
}  // namespace graphport::tf
