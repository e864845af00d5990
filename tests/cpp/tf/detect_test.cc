#include "tf/detect.h"

#include <gtest/gtest.h>

#include <string>

#include "core/limits.h"
#include "tensorflow/graph.pb.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using testing::CorpusGraph;

class DetectCorpusTest : public ::testing::TestWithParam<CorpusGraph> {};

TEST_P(DetectCorpusTest, WholeBinaryFileIsItsKind) {
  const CorpusGraph& g = GetParam();
  std::string bytes = testing::ReadFile(g.path());
  TfDetection d = DetectTf(bytes, /*complete=*/true);
  ASSERT_TRUE(d.found) << d.reason;
  EXPECT_EQ(KindName(d.format.kind), std::string(KindName(g.kind))) << d.reason;
  EXPECT_FALSE(d.format.text);
  EXPECT_NE(d.reason.find(MessageName(g.kind)), std::string::npos) << d.reason;
}

// Detection of a big file only sees a prefix; a prefix that still holds a few whole fields
// must give the same answer.
TEST_P(DetectCorpusTest, PrefixIsItsKind) {
  const CorpusGraph& g = GetParam();
  std::string bytes = testing::ReadFile(g.path());
  for (size_t n : {size_t{512}, size_t{4096}}) {
    if (n >= bytes.size()) continue;
    TfDetection d = DetectTf(std::string_view(bytes).substr(0, n), /*complete=*/false);
    ASSERT_TRUE(d.found) << "prefix " << n << ": " << d.reason;
    EXPECT_EQ(KindName(d.format.kind), std::string(KindName(g.kind)))
        << "prefix " << n << ": " << d.reason;
    EXPECT_FALSE(d.format.text);
  }
}

// The text form comes from protoc, not from graphport.
TEST_P(DetectCorpusTest, ProtocTextIsItsKindAsText) {
  const CorpusGraph& g = GetParam();
  testing::ReadFile(g.path());  // fails clearly when the corpus is missing
  std::string error;
  auto text = testing::ProtocDecode(g.kind, g.path(), &error);
  ASSERT_TRUE(text.has_value()) << error;
  TfDetection d = DetectTf(*text, /*complete=*/true);
  ASSERT_TRUE(d.found) << d.reason;
  EXPECT_EQ(KindName(d.format.kind), std::string(KindName(g.kind))) << d.reason;
  EXPECT_TRUE(d.format.text);
  EXPECT_EQ(DetectEncoding(g.kind, *text).text, true);
  EXPECT_EQ(DetectEncoding(g.kind, testing::ReadFile(g.path())).text, false);
}

INSTANTIATE_TEST_SUITE_P(Corpus, DetectCorpusTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

TEST(DetectTest, KerasMetadataIsNoTensorFlowGraph) {
  std::string bytes = testing::ReadCorpus(testing::kKerasMetadata);
  TfDetection d = DetectTf(bytes, /*complete=*/true);
  EXPECT_FALSE(d.found);
  // Each candidate is ruled out with a reason and a byte offset.
  for (const char* name : {"SavedModel", "MetaGraphDef", "GraphDef"}) {
    EXPECT_NE(d.reason.find(std::string("not a ") + name), std::string::npos) << d.reason;
  }
  EXPECT_NE(d.reason.find("at byte "), std::string::npos) << d.reason;
}

TEST(DetectTest, TextFirstFieldPicksTheKind) {
  struct Case {
    std::string text;
    TfKind kind;
  } cases[] = {
      {"saved_model_schema_version: 1\n", TfKind::kSavedModel},
      {"meta_graphs {\n}\n", TfKind::kSavedModel},
      {"meta_info_def {\n  tags: \"serve\"\n}\n", TfKind::kMetaGraphDef},
      {"graph_def {\n}\n", TfKind::kMetaGraphDef},
      {"collection_def {\n}\n", TfKind::kMetaGraphDef},
      {"node {\n  name: \"a\"\n}\n", TfKind::kGraphDef},
      {"versions {\n  producer: 1\n}\n", TfKind::kGraphDef},
      {"library {\n}\n", TfKind::kGraphDef},
      {"# a comment\n\n  # another\nnode { name: \"x\" }", TfKind::kGraphDef},
  };
  for (const Case& c : cases) {
    TfDetection d = DetectTf(c.text, true);
    ASSERT_TRUE(d.found) << c.text << ": " << d.reason;
    EXPECT_EQ(d.format.kind, c.kind) << c.text;
    EXPECT_TRUE(d.format.text) << c.text;
  }
}

TEST(DetectTest, TextWithAnUnknownFirstFieldNamesItAndItsLine) {
  TfDetection d = DetectTf("# header\n\nhello world\n", true);
  EXPECT_FALSE(d.found);
  EXPECT_NE(d.reason.find("'hello'"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("line 3"), std::string::npos) << d.reason;
}

TEST(DetectTest, TextWithNoFieldAtAll) {
  for (const char* text : {"", "   \n\t", "# only a comment\n", "{ }"}) {
    TfDetection d = DetectTf(text, true);
    EXPECT_FALSE(d.found) << "'" << text << "'";
    EXPECT_FALSE(d.reason.empty());
  }
}

TEST(DetectTest, LooksLikeText) {
  EXPECT_TRUE(LooksLikeText("node {\n\tname: \"a\"\r\n}\f\v"));
  EXPECT_TRUE(LooksLikeText("s: \"\xc3\xa9t\xc3\xa9\""));  // UTF-8 is text
  EXPECT_TRUE(LooksLikeText(""));
  EXPECT_FALSE(LooksLikeText(std::string_view("node {\0}", 8)));
  EXPECT_FALSE(LooksLikeText("\x08\x01"));
  EXPECT_FALSE(LooksLikeText("abc\x7f"));
  EXPECT_FALSE(LooksLikeText("\x1b[0m"));
}

TEST(DetectTest, DetectEncodingKeepsTheKind) {
  for (TfKind kind : {TfKind::kGraphDef, TfKind::kMetaGraphDef, TfKind::kSavedModel}) {
    TfFormat text = DetectEncoding(kind, "anything printable");
    EXPECT_EQ(text.kind, kind);
    EXPECT_TRUE(text.text);
    TfFormat binary = DetectEncoding(kind, std::string_view("\x0a\x00", 2));
    EXPECT_EQ(binary.kind, kind);
    EXPECT_FALSE(binary.text);
    EXPECT_FALSE(DetectEncoding(kind, "").text);
  }
}

TEST(DetectTest, BinaryThatFitsNothingSaysWhyForEachKind) {
  // Field 1 with wire type 7 fits no schema.
  TfDetection d = DetectTf(std::string_view("\x0f\x00\x00", 3), true);
  EXPECT_FALSE(d.found);
  EXPECT_NE(d.reason.find("at byte 0"), std::string::npos) << d.reason;
}

// The bytes of a GraphDef of `count` small nodes (each a record of its own: GraphDefs
// concatenate into one with both's nodes).
std::string NodesBytes(int first, int count) {
  tensorflow::GraphDef graph;
  for (int i = first; i < first + count; ++i) {
    tensorflow::NodeDef* node = graph.add_node();
    node->set_name("block_" + std::to_string(i) + "/relu");
    node->set_op("Relu");
    node->add_input("block_" + std::to_string(i - 1) + "/relu");
    (*node->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  }
  return graph.SerializeAsString();
}

// Binary detection walks the prefix's first kBinaryDetectionScanBytes: bytes that fit no
// schema there rule every kind out, with their offset; past it they are the load's to find.
TEST(DetectTest, BinaryDetectionWalksItsWindowAndNoFurther) {
  const std::string bad("\x0f\x00", 2);  // field 1 with wire type 7
  const std::string before = NodesBytes(0, 500);
  ASSERT_LT(before.size(), kBinaryDetectionScanBytes);
  std::string damaged_inside = before + bad + NodesBytes(500, 20000);
  ASSERT_GT(damaged_inside.size(), kDetectionPrefixBytes);
  TfDetection inside =
      DetectTf(std::string_view(damaged_inside).substr(0, kDetectionPrefixBytes), false);
  EXPECT_FALSE(inside.found) << inside.reason;
  EXPECT_NE(inside.reason.find("not a GraphDef: field 1 has wire type invalid at byte " +
                               std::to_string(before.size())),
            std::string::npos)
      << inside.reason;

  const std::string past = NodesBytes(0, 8000);
  ASSERT_GT(past.size(), kBinaryDetectionScanBytes);
  ASSERT_LT(past.size(), kDetectionPrefixBytes);
  std::string damaged_past = past + bad + NodesBytes(8000, 10000);
  TfDetection d = DetectTf(std::string_view(damaged_past).substr(0, kDetectionPrefixBytes), false);
  ASSERT_TRUE(d.found) << d.reason;
  EXPECT_EQ(d.format.kind, TfKind::kGraphDef) << d.reason;
}

}  // namespace
}  // namespace graphport::tf
