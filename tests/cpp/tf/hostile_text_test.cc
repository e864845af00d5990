// Text input and output that graphport must not get wrong: strings that are not UTF-8
// (issue 11, fault 1) and fields the schema does not know (fault 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "proto/proto_io.h"
#include "tensorflow/schemas.h"
#include "test_util.h"
#include "tf/export.h"
#include "tf/tf_model.h"

namespace graphport::tf {
namespace {

std::unique_ptr<TfModel> LoadBytes(const std::string& bytes, const std::string& name = "in") {
  MemorySource source(bytes);
  TfLoadOptions options;
  options.name = name;
  return TfModel::Load(&source, options);
}

Error LoadError(const std::string& bytes, const std::string& name) {
  try {
    LoadBytes(bytes, name);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded";
  return Error(ErrorCode::kInternal, "loaded");
}

// The error points at the string itself (line 4, column 7), where the text parser finds it.
TEST(HostileTextTest, NonUtf8OpIsRefusedAtLoadWithFieldAndLine) {
  Error e =
      LoadError("node { name: \"a\" }\nnode {\n  name: \"b\"\n  op: \"\\377\"\n}\n", "g.pbtxt");
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  std::string msg = e.what();
  EXPECT_EQ(msg.rfind("g.pbtxt: ", 0), 0u) << msg;
  EXPECT_NE(msg.find("line 4 column 7: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("'tensorflow.NodeDef.op' (node[1].op)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("UTF-8"), std::string::npos) << msg;
  EXPECT_EQ(e.where().file, "g.pbtxt");
  EXPECT_EQ(e.where().line, 4);
  EXPECT_EQ(e.where().column, 7);
}

TEST(HostileTextTest, NonUtf8NameDeepInAMetaGraphIsRefused) {
  Error e = LoadError(
      "meta_info_def { tags: \"serve\" }\ngraph_def {\n  node { name: \"ok\" }\n"
      "  node { name: \"x\\300\\257\" }\n}\n",
      "m.pbtxt");
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  std::string msg = e.what();
  EXPECT_NE(msg.find("line 4 column 16: "), std::string::npos) << msg;
  EXPECT_NE(msg.find("graph_def.node[1].name"), std::string::npos) << msg;
  EXPECT_NE(msg.find("at byte 1 of the string"), std::string::npos) << msg;
}

TEST(HostileTextTest, StreamedTextNamesTheFieldAndTheLine) {
  // Found while the text streams: a source that cannot rewind loses neither.
  class Pipe : public ByteSource {
   public:
    explicit Pipe(std::string bytes) : bytes_(std::move(bytes)) {}
    size_t Read(uint8_t* dst, size_t max) override {
      size_t n = std::min(max, bytes_.size() - at_);
      std::copy_n(bytes_.data() + at_, n, dst);
      at_ += n;
      return n;
    }

   private:
    std::string bytes_;
    size_t at_ = 0;
  } pipe("node { name: \"a\" device: \"\\377\" }\n");
  tensorflow::GraphDef graph;
  try {
    proto::ParseText(&pipe, &graph, "pipe");
    FAIL() << "parsed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("node[0].device"), std::string::npos) << e.what();
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.where().column, 26);
    EXPECT_EQ(graph.node_size(), 0) << "a refused parse leaves the message cleared";
  }
}

TEST(HostileTextTest, ValidUtf8TextStillLoadsAndInspectsAsJson) {
  auto model = LoadBytes("node { name: \"caf\\303\\251\" op: \"\\342\\202\\254\" }\n");
  EXPECT_EQ(model->graph().node(0).name(), "caf\xc3\xa9");
  // Bytes fields may hold anything: only `string` fields are held to UTF-8.
  auto with_bytes = LoadBytes(
      "node { name: \"c\" op: \"Const\" attr { key: \"value\" value { s: \"\\377\\376\" } } }\n");
  EXPECT_EQ(with_bytes->graph().node(0).attr().at("value").s(), "\xff\xfe");
}

// A GraphDef with an unknown field in a node (9: 1) and at the top (99: "x"), in binary.
std::string GraphWithUnknownFields() {
  tensorflow::GraphDef graph;
  auto* node = graph.add_node();
  node->set_name("a");
  node->set_op("NoOp");
  testing::AddUnknownVarint(node, 9, 1);
  testing::AddUnknownLengthDelimited(&graph, 99, "x");
  return graph.SerializeAsString();
}

TEST(HostileTextTest, TextExportLeavesUnknownFieldsOutAndListsThem) {
  auto model = LoadBytes(GraphWithUnknownFields());
  for (TfKind to : {TfKind::kGraphDef, TfKind::kMetaGraphDef, TfKind::kSavedModel}) {
    MemoryOutputSet out;
    TfExportOptions options;
    options.to = to;
    options.as_text = true;
    nlohmann::json info = Export(model.get(), options, &out);
    ASSERT_EQ(out.files().size(), 1u);
    const std::string& text = out.files()[0].bytes;
    EXPECT_EQ(text.find("9: 1"), std::string::npos) << text;
    EXPECT_EQ(text.find("99: "), std::string::npos) << text;
    // What graphport writes, graphport reads back, detected as what it is.
    auto again = LoadBytes(text);
    EXPECT_EQ(again->format().kind, to);
    EXPECT_TRUE(again->format().text);
    EXPECT_EQ(again->graph().node(0).name(), "a");
    ASSERT_TRUE(info.contains("unknownFieldsLeftOut")) << info.dump();
    EXPECT_EQ(info["unknownFieldsLeftOut"]["count"], 2) << info.dump();
    std::string listed = info["unknownFieldsLeftOut"]["fields"].dump();
    EXPECT_NE(listed.find("node[0] field 9"), std::string::npos) << listed;
    EXPECT_NE(listed.find("field 99"), std::string::npos) << listed;
  }
}

TEST(HostileTextTest, BinaryExportKeepsUnknownFields) {
  std::string input = GraphWithUnknownFields();
  auto model = LoadBytes(input);
  MemoryOutputSet out;
  TfExportOptions options;
  options.to = TfKind::kGraphDef;
  nlohmann::json info = Export(model.get(), options, &out);
  EXPECT_FALSE(info.contains("unknownFieldsLeftOut"));
  tensorflow::GraphDef reread;
  ASSERT_TRUE(reread.ParseFromString(out.files()[0].bytes));
  EXPECT_EQ(testing::UnknownFieldCount(reread.node(0)), 1);
}

TEST(HostileTextTest, ATextExportWithNothingUnknownReportsNone) {
  auto model = LoadBytes("node { name: \"a\" op: \"NoOp\" }\n");
  MemoryOutputSet out;
  TfExportOptions options;
  options.as_text = true;
  nlohmann::json info = Export(model.get(), options, &out);
  EXPECT_EQ(info["unknownFieldsLeftOut"]["count"], 0);
  EXPECT_TRUE(info["unknownFieldsLeftOut"]["fields"].empty());
}

}  // namespace
}  // namespace graphport::tf
