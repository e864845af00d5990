// proto::SinkOutputStream hands a serialisation to a ByteSink in chunks of at most its size, in
// order; with aliasing, a long run the writer holds goes to the sink from where it is (no
// copy), and short ones are buffered, so a JavaScript sink is not called once per small field.
// A sink that throws stops the stream with its message kept.
#include <google/protobuf/io/coded_stream.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "proto/proto_streams.h"
#include "tensorflow/graph.pb.h"

namespace graphport::proto {
namespace {

// Keeps every write: its bytes and where they came from.
class RecordingSink : public ByteSink {
 public:
  void Write(const uint8_t* data, size_t size) override {
    if (fail_after_ >= 0 && static_cast<int>(pointers.size()) >= fail_after_) {
      throw std::runtime_error("disk full");
    }
    bytes.append(reinterpret_cast<const char*>(data), size);
    pointers.push_back(data);
    sizes.push_back(size);
  }
  void FailAfter(int writes) { fail_after_ = writes; }

  std::string bytes;
  std::vector<const uint8_t*> pointers;
  std::vector<size_t> sizes;

 private:
  int fail_after_ = -1;
};

// A GraphDef of one Const whose tensor content is `content_bytes` long, and its bytes as
// libprotobuf serialises it to a string.
tensorflow::GraphDef ConstGraph(size_t content_bytes, std::string* expected) {
  tensorflow::GraphDef graph;
  tensorflow::NodeDef* node = graph.add_node();
  node->set_name("weights");
  node->set_op("Const");
  std::string content(content_bytes, '\0');
  for (size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i * 7 + 3);
  (*node->mutable_attr())["value"].mutable_tensor()->set_tensor_content(content);
  graph.add_node()->set_name("after");
  *expected = graph.SerializeAsString();
  return graph;
}

void Serialize(const tensorflow::GraphDef& graph, SinkOutputStream* stream, bool aliasing) {
  graph.ByteSizeLong();
  google::protobuf::io::CodedOutputStream out(stream);
  out.EnableAliasing(aliasing);
  graph.SerializeWithCachedSizes(&out);
  EXPECT_FALSE(out.HadError());
}

const tensorflow::NodeDef& WeightsNode(const tensorflow::GraphDef& graph) { return graph.node(0); }

const uint8_t* ContentOf(const tensorflow::GraphDef& graph) {
  return reinterpret_cast<const uint8_t*>(
      WeightsNode(graph).attr().at("value").tensor().tensor_content().data());
}

// How many of the sink's writes were handed from inside `graph`'s tensor content.
size_t WritesFromTheContent(const RecordingSink& sink, const tensorflow::GraphDef& graph) {
  const uint8_t* begin = ContentOf(graph);
  const uint8_t* end =
      begin + WeightsNode(graph).attr().at("value").tensor().tensor_content().size();
  size_t n = 0;
  for (const uint8_t* p : sink.pointers) n += p >= begin && p < end;
  return n;
}

TEST(SinkOutputStreamTest, ALongRunIsHandedOverFromWhereItIsAChunkAtATime) {
  std::string expected;
  const tensorflow::GraphDef graph = ConstGraph((3 << 20) + 100, &expected);
  constexpr size_t kChunk = 1 << 20;
  RecordingSink aliased, copied;
  SinkOutputStream aliasing_stream(&aliased, kChunk), copying_stream(&copied, kChunk);
  Serialize(graph, &aliasing_stream, /*aliasing=*/true);
  Serialize(graph, &copying_stream, /*aliasing=*/false);
  ASSERT_TRUE(aliasing_stream.Flush());
  ASSERT_TRUE(copying_stream.Flush());
  EXPECT_EQ(aliased.bytes, expected);
  EXPECT_EQ(copied.bytes, expected);
  EXPECT_EQ(aliasing_stream.ByteCount(), static_cast<int64_t>(expected.size()));
  for (size_t size : aliased.sizes) EXPECT_LE(size, kChunk);
  // What comes before the content; the content in four pieces, from where it is; what comes
  // after. Without aliasing every byte is copied through the buffer, in full chunks.
  ASSERT_EQ(aliased.pointers.size(), 6u);
  EXPECT_EQ(WritesFromTheContent(aliased, graph), 4u);
  EXPECT_EQ(aliased.pointers[1], ContentOf(graph));
  EXPECT_EQ(aliased.sizes[4], 100u);
  EXPECT_EQ(WritesFromTheContent(copied, graph), 0u);
  for (size_t k = 0; k + 1 < copied.sizes.size(); ++k) EXPECT_EQ(copied.sizes[k], kChunk);
}

TEST(SinkOutputStreamTest, RunsShorterThanTheThresholdAreCopied) {
  std::string expected;
  // Longer than a 16 KiB chunk, so libprotobuf offers it to be aliased, but shorter than
  // kMinAliasedBytes: it is copied through the buffer, in full chunks.
  const tensorflow::GraphDef graph =
      ConstGraph(SinkOutputStream::kMinAliasedBytes - 1000, &expected);
  RecordingSink sink;
  SinkOutputStream stream(&sink, 16 << 10);
  Serialize(graph, &stream, /*aliasing=*/true);
  ASSERT_TRUE(stream.Flush());
  EXPECT_EQ(sink.bytes, expected);
  EXPECT_EQ(WritesFromTheContent(sink, graph), 0u);
  for (size_t k = 0; k + 1 < sink.sizes.size(); ++k) EXPECT_EQ(sink.sizes[k], size_t{16} << 10);
}

TEST(SinkOutputStreamTest, ASinkThatThrowsStopsTheStreamWithItsMessage) {
  std::string expected;
  const tensorflow::GraphDef graph = ConstGraph(3 << 20, &expected);
  for (int fail_after : {0, 1, 2}) {
    SCOPED_TRACE(fail_after);
    RecordingSink sink;
    sink.FailAfter(fail_after);
    SinkOutputStream stream(&sink, 64 << 10);
    {
      graph.ByteSizeLong();
      google::protobuf::io::CodedOutputStream out(&stream);
      out.EnableAliasing(true);
      graph.SerializeWithCachedSizes(&out);
    }
    EXPECT_FALSE(stream.Flush());
    EXPECT_EQ(stream.error(), "disk full");
    EXPECT_EQ(sink.pointers.size(), static_cast<size_t>(fail_after));
    void* data;
    int size;
    EXPECT_FALSE(stream.Next(&data, &size));
  }
}

}  // namespace
}  // namespace graphport::proto
