#include "proto/whole_string_stream.h"

#include <google/protobuf/io/coded_stream.h>
#include <gtest/gtest.h>

#include <string>

#include "core/limits.h"
#include "proto/memory_budget.h"
#include "proto/proto_io.h"
#include "tensorflow/schemas.h"
#include "test_util.h"

namespace graphport::proto {
namespace {

// ChunkedSource (odd, small reads) that knows its size, as a file or a Blob does.
class SizedChunkedSource : public testing::ChunkedSource {
 public:
  SizedChunkedSource(std::string bytes, uint64_t size)
      : ChunkedSource(std::move(bytes)), size_(size) {}
  bool SizeHint(uint64_t* size) const override {
    *size = size_;
    return true;
  }

 private:
  uint64_t size_;
};

// A source that reads whole chunks of `chunk` bytes: the 1 MiB pieces of a file.
class FileLikeSource : public ByteSource {
 public:
  FileLikeSource(std::string bytes, size_t chunk) : bytes_(std::move(bytes)), chunk_(chunk) {}
  size_t Read(uint8_t* dst, size_t max) override {
    size_t n = std::min({max, chunk_, bytes_.size() - offset_});
    std::memcpy(dst, bytes_.data() + offset_, n);
    offset_ += n;
    return n;
  }
  bool SizeHint(uint64_t* size) const override {
    *size = bytes_.size();
    return true;
  }

 private:
  std::string bytes_;
  size_t chunk_;
  size_t offset_ = 0;
};

// Const nodes with tensors of these sizes, a string attr, and a node with nested lists.
tensorflow::GraphDef Weights(const std::vector<size_t>& sizes) {
  tensorflow::GraphDef graph;
  for (size_t i = 0; i < sizes.size(); ++i) {
    tensorflow::NodeDef* node = graph.add_node();
    node->set_name("w" + std::to_string(i));
    node->set_op("Const");
    node->add_input("^init");
    tensorflow::TensorProto* t = (*node->mutable_attr())["value"].mutable_tensor();
    t->set_dtype(tensorflow::DT_UINT8);
    t->mutable_tensor_shape()->add_dim()->set_size(static_cast<int64_t>(sizes[i]));
    std::string content(sizes[i], '\0');
    for (size_t j = 0; j < content.size(); ++j) content[j] = static_cast<char>(j * 131 + i);
    t->set_tensor_content(content);
    (*node->mutable_attr())["note"].set_s(std::string(2000, 'n'));
  }
  tensorflow::NodeDef* lists = graph.add_node();
  lists->set_name("lists");
  lists->set_op("Foo");
  auto* list = (*lists->mutable_attr())["shapes"].mutable_list();
  for (int i = 0; i < 40; ++i) list->add_i(i * 1000);
  list->add_s(std::string(1500, 's'));
  graph.mutable_versions()->set_producer(1087);
  return graph;
}

struct Parsed {
  tensorflow::GraphDef graph;
  bool ok = false;
  int whole_chunks = 0;
  int64_t byte_count = 0;
};

// Parses a GraphDef through WholeStringStream, long fields being those from `whole_above`.
Parsed ParseThrough(ByteSource* source, uint64_t size, uint64_t whole_above) {
  Parsed out;
  WholeStringStream stream(source, SchemaOf<tensorflow::GraphDef>(), size, nullptr, 4096,
                           whole_above);
  {
    google::protobuf::io::CodedInputStream input(&stream);
    out.ok = out.graph.ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
  }
  out.byte_count = stream.ByteCount();
  out.whole_chunks = stream.whole_chunks();
  return out;
}

TEST(WholeStringStreamTest, LongFieldsComeInOneChunkAndTheMessageIsTheSame) {
  tensorflow::GraphDef expected = Weights({3000, 70, 5000, 1024, 1023, 0, 9000});
  std::string bytes = expected.SerializeAsString();
  // Every string or bytes field of 1 KiB or more: the tensor_content of 3000, 5000, 1024 and
  // 9000 bytes, the seven 2000-byte "note" strings and the 1500-byte list string.
  const int kLong = 4 + 7 + 1;
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{509}, size_t{4096}, size_t{1} << 20}) {
    FileLikeSource source(bytes, chunk);
    Parsed got = ParseThrough(&source, bytes.size(), 1024);
    ASSERT_TRUE(got.ok) << "chunk " << chunk;
    EXPECT_TRUE(testing::MessagesEqual(expected, got.graph)) << "chunk " << chunk;
    EXPECT_EQ(got.whole_chunks, kLong) << "chunk " << chunk;
    EXPECT_EQ(got.byte_count, static_cast<int64_t>(bytes.size()));
  }
  SizedChunkedSource odd(bytes, bytes.size());
  Parsed got = ParseThrough(&odd, bytes.size(), 1024);
  EXPECT_TRUE(got.ok);
  EXPECT_TRUE(testing::MessagesEqual(expected, got.graph));
  EXPECT_EQ(got.whole_chunks, kLong);
  EXPECT_EQ(got.byte_count, static_cast<int64_t>(bytes.size()));
}

// Without a size, or with one shorter than a field, no field gets a chunk of its own; bytes
// that are not the message stop the following, and the parse fails as it would anyway.
TEST(WholeStringStreamTest, UnknownSizesAndForeignBytesGoInPlainChunks) {
  std::string bytes = Weights({3000, 5000}).SerializeAsString();
  testing::ChunkedSource pipe(bytes);
  WholeStringStream unsized(&pipe, SchemaOf<tensorflow::GraphDef>(), 0, nullptr, 4096, 1024);
  tensorflow::GraphDef graph;
  {
    google::protobuf::io::CodedInputStream input(&unsized);
    EXPECT_TRUE(graph.ParseFromCodedStream(&input));
  }
  EXPECT_EQ(unsized.whole_chunks(), 0);

  FileLikeSource source(bytes, 100);
  Parsed plain = ParseThrough(&source, bytes.size(), 1 << 20);
  EXPECT_TRUE(plain.ok);
  EXPECT_EQ(plain.whole_chunks, 0) << "no field is that long";

  std::string garbage(20000, '\xff');
  FileLikeSource foreign(garbage, 509);
  Parsed lost = ParseThrough(&foreign, garbage.size(), 16);
  EXPECT_FALSE(lost.ok);
  EXPECT_EQ(lost.whole_chunks, 0);
}

// The point: through ParseBinary, a tensor over libprotobuf's 50,000,000-byte reserve limit is
// allocated at its size, not grown by doubling (to 100 MB for this one).
TEST(WholeStringStreamTest, ALongTensorIsAllocatedAtItsSize) {
  const size_t kSize = 60'000'000;
  tensorflow::GraphDef expected = Weights({kSize});
  std::string bytes = expected.SerializeAsString();
  FileLikeSource source(bytes, kStreamChunkBytes);
  tensorflow::GraphDef graph;
  ParseBinary(&source, &graph, "weights.pb");
  const std::string& content = graph.node(0).attr().at("value").tensor().tensor_content();
  EXPECT_EQ(content, expected.node(0).attr().at("value").tensor().tensor_content());
  EXPECT_LT(content.capacity(), kSize + kSize / 16);
}

// A size hint that is larger than the input: the field's chunk is cut short by the input's end,
// and the parse fails with PARSE_ERROR; a budget smaller than a field stops it with TOO_LARGE
// before the field's chunk is allocated.
TEST(WholeStringStreamTest, CutInputsAndBudgetsFailCleanly) {
  std::string bytes = Weights({3000, 5000}).SerializeAsString();
  for (size_t cut = 1; cut < bytes.size(); cut += 173) {
    SizedChunkedSource source(bytes.substr(0, cut), bytes.size());
    Parsed got = ParseThrough(&source, bytes.size(), 1024);
    EXPECT_FALSE(got.ok) << "cut at " << cut;
    EXPECT_LE(got.byte_count, static_cast<int64_t>(cut));
  }
  tensorflow::GraphDef big = Weights({60'000'000});
  std::string long_bytes = big.SerializeAsString();
  FileLikeSource source(long_bytes, kStreamChunkBytes);
  MemoryBudget budget{nullptr, 40'000'000};
  tensorflow::GraphDef graph;
  try {
    ParseBinary(&source, &graph, "weights.pb", &budget);
    ADD_FAILURE() << "parsed over the budget";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTooLarge) << e.what();
  }
}

// Damaged inputs (bytes flipped, cut, lengths changed) parse through the stream exactly as they
// do in memory: the same verdict, and the same message when they parse. The follower may lose
// its way, or find "long fields" in garbage; neither may change what the parser sees.
TEST(WholeStringStreamTest, DamagedInputsParseAsTheyDoInMemory) {
  std::string bytes = Weights({300, 700, 0, 1500}).SerializeAsString();
  uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  int parsed = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string damaged = bytes;
    int edits = 1 + static_cast<int>(next() % 3);
    for (int e = 0; e < edits; ++e) {
      size_t at = next() % damaged.size();
      switch (next() % 3) {
        case 0:
          damaged[at] = static_cast<char>(next());
          break;
        case 1:
          damaged[at] = static_cast<char>(damaged[at] ^ (1 << (next() % 8)));
          break;
        default:
          damaged.resize(at + 1);
      }
    }
    tensorflow::GraphDef expected;
    bool expected_ok = expected.ParseFromString(damaged);
    FileLikeSource source(damaged, 1 + next() % 700);
    Parsed got = ParseThrough(&source, damaged.size(), 64);
    ASSERT_EQ(got.ok, expected_ok) << "round " << round;
    if (expected_ok) {
      ++parsed;
      EXPECT_TRUE(testing::MessagesEqual(expected, got.graph)) << "round " << round;
      EXPECT_EQ(got.byte_count, static_cast<int64_t>(damaged.size()));
    }
  }
  EXPECT_GT(parsed, 100) << "too few damaged inputs still parse to compare their messages";
}

}  // namespace
}  // namespace graphport::proto
