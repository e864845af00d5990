// The wire bytes TextToWire writes (small records as libprotobuf serializes them, runs packed,
// long payloads' lengths in five bytes, what the output held replaced), ParseTextMessage into
// a generated class, and a huge escaped string streamed in chunks.
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "proto/schema.h"
#include "proto/text_parse.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/schemas.h"
#include "test_util.h"
#include "text_parse_reference.h"
#include "text_test/schemas.h"

namespace graphport::proto {
namespace {

using namespace text_parse_testing;  // NOLINT: the shared helpers of these tests

TEST(TextParseWire, SmallRecordsAreWrittenAsLibprotobufWritesThem) {
  // Fields in number order, no map, no default: exactly the serialization.
  std::unique_ptr<pb::Message> legacy = TestPool().New(kLegacy);
  const std::string text = "a: -1 s: 'x' shade: DARK r: [1, 300] next { a: 2 next { s: 'y' } }";
  ASSERT_TRUE(pb::TextFormat::ParseFromString(text, legacy.get()));
  std::string wire;
  ASSERT_TRUE(Ours(kLegacy, text, {}, &wire).ok);
  // proto2's repeated int32 is not packed; graphport packs runs, so compare without `r`.
  legacy->GetReflection()->ClearField(legacy.get(), legacy->GetDescriptor()->FindFieldByName("r"));
  std::string without_r;
  ASSERT_TRUE(
      Ours(kLegacy, "a: -1 s: 'x' shade: DARK next { a: 2 next { s: 'y' } }", {}, &without_r).ok);
  EXPECT_EQ(without_r, legacy->SerializeAsString());
  EXPECT_NE(wire.find("\x22\x03\x01\xac\x02", 0, 5), std::string::npos) << "r packed: [1, 300]";
}

TEST(TextParseWire, LongPayloadsKeepFiveByteLengths) {
  const std::string content(100000, 'z');
  const std::string text = "child { child { by: '" + content + "' } }";
  std::string wire;
  const Outcome got = Ours(kEvery, text, {}, &wire);
  ASSERT_TRUE(got.ok);
  EXPECT_EQ(got.bytes, Reference(kEvery, text).bytes);
  // Three records of 100 KB and more (tags of 2, 2 and 1 bytes), each length in 5 bytes.
  EXPECT_EQ(wire.size(), content.size() + (2 + 5) + (2 + 5) + (1 + 5));
  EXPECT_EQ(wire.substr(2, 5), std::string("\xad\x8d\x86\x80\x00", 5));
}

TEST(TextParseWire, ReplacesWhatTheOutputHeld) {
  std::string wire = "stale bytes";
  TextParseError error;
  pb::io::ArrayInputStream input("i32: 1", 6);
  ASSERT_TRUE(TextToWire(&input, *testing::TextTestSchemas().Find(kEvery), &wire, &error));
  EXPECT_EQ(wire, std::string("\x08\x01", 2));
}

TEST(TextParseWire, AGeneratedMessageFromText) {
  tensorflow::GraphDef graph;
  TextParseError error;
  ASSERT_TRUE(ParseTextMessage("node { name: 'a' op: 'NoOp' } versions { producer: 3 }",
                               SchemaOf<tensorflow::GraphDef>(), &graph, &error));
  EXPECT_EQ(graph.node(0).op(), "NoOp");
  EXPECT_EQ(graph.versions().producer(), 3);
  EXPECT_FALSE(
      ParseTextMessage("node { name: 'a' op: }", SchemaOf<tensorflow::GraphDef>(), &graph, &error));
  EXPECT_EQ(graph.node_size(), 0) << "a refused text leaves the message cleared";
  EXPECT_EQ(error.line, 1);
  EXPECT_EQ(error.column, 22);
  EXPECT_EQ(error.message, "Expected string, got: }");
}

// Big text: a long escaped tensor content, streamed in odd chunks, and how fast both are.
TEST(TextParseWire, AHugeEscapedStringStreams) {
  std::string content;
  for (int i = 0; i < (1 << 20); ++i) content += static_cast<char>(i * 7);
  tensorflow::GraphDef graph;
  tensorflow::NodeDef* node = graph.add_node();
  node->set_name("c");
  (*node->mutable_attr())["value"].mutable_tensor()->set_tensor_content(content);
  const std::string text = testing::ReferenceText(graph);
  const Outcome want = Reference("tensorflow.GraphDef", text);
  EXPECT_TRUE(Same(want, Ours("tensorflow.GraphDef", text, {65536, 1, 4095})));
  EXPECT_TRUE(Same(want, Ours("tensorflow.GraphDef", text, {1})));
}

}  // namespace
}  // namespace graphport::proto
