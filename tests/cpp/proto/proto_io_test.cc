#include "proto/proto_io.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <string>

#include "core/limits.h"
#include "tensorflow/schemas.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using testing::CorpusGraph;

const proto::MessageSchema& SchemaFor(const google::protobuf::MessageLite& message) {
  return *TfSchemas().Find(message.GetTypeName());
}

std::string Binary(const google::protobuf::MessageLite& m) {
  StringSink sink;
  proto::WriteBinary(m, &sink);
  return sink.Take();
}

std::string Text(const google::protobuf::MessageLite& m, TfKind kind) {
  StringSink sink;
  proto::WriteText(m, KindSchema(kind), &sink);
  return sink.Take();
}

class ProtoIoCorpusTest : public ::testing::TestWithParam<CorpusGraph> {
 protected:
  void SetUp() override {
    bytes_ = testing::ReadFile(GetParam().path());
    reference_ = testing::ReferenceParse(GetParam().kind, bytes_);
    ASSERT_NE(reference_, nullptr) << "libprotobuf cannot parse " << GetParam().relative;
  }
  std::unique_ptr<google::protobuf::MessageLite> Parsed() {
    auto m = testing::NewRoot(GetParam().kind);
    MemorySource source(bytes_);
    proto::ParseBinary(&source, m.get(), KindSchema(GetParam().kind), GetParam().relative);
    return m;
  }
  std::string bytes_;
  std::unique_ptr<google::protobuf::MessageLite> reference_;
};

TEST_P(ProtoIoCorpusTest, BinaryParseEqualsLibprotobuf) {
  EXPECT_TRUE(testing::MessagesEqual(*reference_, *Parsed()));
}

TEST_P(ProtoIoCorpusTest, StreamedBinaryParseEqualsInMemory) {
  auto m = testing::NewRoot(GetParam().kind);
  testing::ChunkedSource source(bytes_);
  proto::ParseBinary(&source, m.get(), KindSchema(GetParam().kind), GetParam().relative);
  EXPECT_TRUE(testing::MessagesEqual(*reference_, *m));
  EXPECT_GT(source.reads(), 1u);
}

TEST_P(ProtoIoCorpusTest, BinaryRoundTrip) {
  auto parsed = Parsed();
  std::string written = Binary(*parsed);
  auto again = testing::ReferenceParse(GetParam().kind, written);
  ASSERT_NE(again, nullptr);
  EXPECT_TRUE(testing::MessagesEqual(*reference_, *again));
  // Deterministic: the same bytes each time, and the same as libprotobuf's deterministic mode.
  EXPECT_EQ(Binary(*parsed), written);
  EXPECT_EQ(testing::DeterministicBytes(*reference_), written);
  // Same size as the input: the round trip drops nothing (only map order may differ).
  EXPECT_EQ(written.size(), bytes_.size());
}

TEST_P(ProtoIoCorpusTest, TextEqualsProtocDecodeByteForByte) {
  std::string error;
  auto expected = testing::ProtocDecode(GetParam().kind, GetParam().path(), &error);
  ASSERT_TRUE(expected.has_value()) << error;
  std::string text = Text(*Parsed(), GetParam().kind);
  EXPECT_EQ(text.size(), expected->size());
  EXPECT_TRUE(text == *expected)
      << "first difference at byte "
      << std::mismatch(text.begin(), text.end(), expected->begin(), expected->end()).first -
             text.begin();
}

TEST_P(ProtoIoCorpusTest, BinaryToTextToBinary) {
  auto parsed = Parsed();
  std::string text = Text(*parsed, GetParam().kind);
  auto from_text = testing::NewRoot(GetParam().kind);
  MemorySource source(text);
  proto::ParseText(&source, from_text.get(), SchemaFor(*from_text), "text");
  EXPECT_TRUE(testing::MessagesEqual(*reference_, *from_text));
  EXPECT_EQ(Binary(*from_text), Binary(*parsed));
  // And streamed text parses the same.
  auto streamed = testing::NewRoot(GetParam().kind);
  testing::ChunkedSource chunks(text);
  proto::ParseText(&chunks, streamed.get(), SchemaFor(*streamed), "text");
  EXPECT_TRUE(testing::MessagesEqual(*reference_, *streamed));
}

TEST_P(ProtoIoCorpusTest, TruncatedBinaryNamesInputAndOffset) {
  std::vector<size_t> boundaries = testing::TopLevelFieldBoundaries(bytes_);
  for (size_t n = 1; n < bytes_.size(); n += 97) {
    if (std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end()) continue;
    std::string cut = bytes_.substr(0, n);
    auto m = testing::NewRoot(GetParam().kind);
    MemorySource source(cut);
    try {
      proto::ParseBinary(&source, m.get(), KindSchema(GetParam().kind), "cut.pb");
      ADD_FAILURE() << "a cut at " << n << " parsed";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kParseError);
      std::string msg = e.what();
      EXPECT_EQ(msg.rfind("cut.pb: ", 0), 0u) << msg;
      auto offset = testing::ByteOffsetIn(msg);
      ASSERT_TRUE(offset.has_value()) << msg;
      EXPECT_LT(*offset, n) << msg;
      EXPECT_EQ(m->ByteSizeLong(), 0u) << "a failed parse leaves the message cleared";
    }
  }
}

// Streamed, the fault is found again by rereading when the source can rewind (the same
// message as in memory); when it cannot, the error still says the input may be cut off.
TEST_P(ProtoIoCorpusTest, TruncatedStreamedBinaryErrors) {
  std::vector<size_t> boundaries = testing::TopLevelFieldBoundaries(bytes_);
  for (size_t n = 1; n < bytes_.size(); n += 97) {
    if (std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end()) continue;
    std::string cut = bytes_.substr(0, n);
    std::string in_memory, rewound, piped;
    auto parse = [&](ByteSource* source, std::string* message) {
      auto m = testing::NewRoot(GetParam().kind);
      try {
        proto::ParseBinary(source, m.get(), KindSchema(GetParam().kind), "cut.pb");
        ADD_FAILURE() << "a cut at " << n << " parsed";
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::kParseError) << e.what();
        *message = e.what();
      }
    };
    MemorySource memory(cut);
    testing::RewindableChunkedSource rewindable(cut);
    testing::ChunkedSource pipe(cut);
    parse(&memory, &in_memory);
    parse(&rewindable, &rewound);
    parse(&pipe, &piped);
    EXPECT_EQ(rewound, in_memory);
    EXPECT_EQ(rewindable.rewinds(), 1);
    EXPECT_EQ(piped.rfind("cut.pb: ", 0), 0u) << piped;
    EXPECT_NE(piped.find("cut off"), std::string::npos) << piped;
    auto offset = testing::ByteOffsetIn(piped);
    ASSERT_TRUE(offset.has_value()) << piped;
    EXPECT_LE(*offset, n) << piped;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, ProtoIoCorpusTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

TEST(ProtoIoTest, DeterministicBinarySortsMapKeys) {
  tensorflow::MetaGraphDef a, b;
  const char* keys[] = {"zeta", "alpha", "mu", "beta", "omega", "delta"};
  for (const char* k : keys) (*a.mutable_collection_def())[k].mutable_node_list()->add_value(k);
  for (int i = 5; i >= 0; --i) {
    (*b.mutable_collection_def())[keys[i]].mutable_node_list()->add_value(keys[i]);
  }
  std::string bytes = Binary(a);
  EXPECT_EQ(Binary(b), bytes);
  // The keys appear in sorted order in the bytes.
  size_t last = 0;
  for (const char* k : {"alpha", "beta", "delta", "mu", "omega", "zeta"}) {
    size_t at = bytes.find(k, last);
    ASSERT_NE(at, std::string::npos) << k;
    last = at;
  }
}

TEST(ProtoIoTest, TextSyntaxErrorGivesLineAndColumn) {
  // Line 3, the '}' right after "op: " at column 7: a value was expected there.
  const std::string text = "node {\n  name: \"a\"\n  op: }\n";
  tensorflow::GraphDef graph;
  MemorySource source(text);
  try {
    proto::ParseText(&source, &graph, "bad.pbtxt");
    FAIL() << "parsed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("bad.pbtxt: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("line 3 column 7: "), std::string::npos) << msg;
  }
}

// libprotobuf reports an unknown field name at the token that follows it (here the ':' at
// line 5, column 12).
TEST(ProtoIoTest, TextUnknownFieldGivesLineAndColumn) {
  const std::string text = "node {\n  name: \"a\"\n}\n\nnot_a_field: 3\n";
  tensorflow::GraphDef graph;
  MemorySource source(text);
  try {
    proto::ParseText(&source, &graph, "x.pbtxt");
    FAIL() << "parsed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("line 5 column 12: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not_a_field"), std::string::npos) << e.what();
  }
}

TEST(ProtoIoTest, StreamedTextErrorsAreTheSame) {
  const std::string text = "node {\n  name: \"a\"\n  op: }\n";
  std::string in_memory, streamed;
  try {
    tensorflow::GraphDef g;
    MemorySource source(text);
    proto::ParseText(&source, &g, "t");
  } catch (const Error& e) {
    in_memory = e.what();
  }
  try {
    tensorflow::GraphDef g;
    testing::ChunkedSource source(text);
    proto::ParseText(&source, &g, "t");
  } catch (const Error& e) {
    streamed = e.what();
  }
  EXPECT_FALSE(in_memory.empty());
  EXPECT_EQ(streamed, in_memory);
}

TEST(ProtoIoTest, NonUtf8StringIsAParseError) {
  // node { name: "\xff" }: well-formed wire bytes, but a proto3 string must be UTF-8.
  const std::string bytes("\x0a\x03\x0a\x01\xff", 5);
  tensorflow::GraphDef graph;
  MemorySource source(bytes);
  try {
    proto::ParseBinary(&source, &graph, "utf8.pb");
    FAIL() << "parsed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("utf8.pb"), std::string::npos) << e.what();
    EXPECT_TRUE(testing::ByteOffsetIn(e.what()).has_value()) << e.what();
  }
}

class DeepNestingTest : public ::testing::TestWithParam<bool> {};  // streamed?

TEST_P(DeepNestingTest, BinaryOverTheRecursionLimitIsAParseError) {
  std::string bytes = testing::DeeplyNestedGraph(200).SerializeAsString();
  tensorflow::GraphDef graph;
  MemorySource memory(bytes);
  testing::ChunkedSource chunks(bytes);
  ByteSource* source = GetParam() ? static_cast<ByteSource*>(&chunks) : &memory;
  try {
    proto::ParseBinary(source, &graph, "deep.pb");
    FAIL() << "parsed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("deep.pb"), std::string::npos) << e.what();
    EXPECT_TRUE(testing::ByteOffsetIn(e.what()).has_value()) << e.what();
  }
}

TEST_P(DeepNestingTest, TextOverTheRecursionLimitIsAParseError) {
  std::string text = testing::ReferenceText(testing::DeeplyNestedGraph(200));
  tensorflow::GraphDef graph;
  MemorySource memory(text);
  testing::ChunkedSource chunks(text);
  ByteSource* source = GetParam() ? static_cast<ByteSource*>(&chunks) : &memory;
  try {
    proto::ParseText(source, &graph, "deep.pbtxt");
    FAIL() << "parsed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("deep.pbtxt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line "), std::string::npos) << e.what();
  }
}

TEST_P(DeepNestingTest, NestingWellInsideTheLimitParses) {
  // 20 AttrValue levels are 80 message levels, plus GraphDef, NodeDef and the attr entry.
  tensorflow::GraphDef expected = testing::DeeplyNestedGraph(20);
  for (bool text : {false, true}) {
    std::string bytes = text ? testing::ReferenceText(expected) : expected.SerializeAsString();
    tensorflow::GraphDef graph;
    MemorySource memory(bytes);
    testing::ChunkedSource chunks(bytes);
    ByteSource* source = GetParam() ? static_cast<ByteSource*>(&chunks) : &memory;
    if (text) {
      proto::ParseText(source, &graph, "ok");
    } else {
      proto::ParseBinary(source, &graph, "ok");
    }
    EXPECT_TRUE(testing::MessagesEqual(expected, graph));
  }
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndStreamed, DeepNestingTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Streamed" : "InMemory"; });

// A source that says it is bigger than protobuf allows.
class HugeHintSource : public MemorySource {
 public:
  using MemorySource::MemorySource;
  bool SizeHint(uint64_t* size) const override {
    *size = kMaxProtoBytes + 1;
    return true;
  }
};

TEST(ProtoIoTest, SizeOverTwoGibibytesIsTooLargeBeforeReading) {
  const std::string bytes = "node { name: \"a\" }";
  for (bool text : {false, true}) {
    tensorflow::GraphDef graph;
    HugeHintSource source(bytes);
    try {
      text ? proto::ParseText(&source, &graph, "huge")
           : proto::ParseBinary(&source, &graph, "huge");
      FAIL() << "parsed";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kTooLarge);
      EXPECT_NE(std::string(e.what()).find("huge"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::to_string(kMaxProtoBytes + 1)), std::string::npos)
          << e.what();
    }
  }
}

class FailingSource : public ByteSource {
 public:
  explicit FailingSource(std::string bytes) : bytes_(std::move(bytes)) {}
  size_t Read(uint8_t* dst, size_t max) override {
    if (offset_ >= bytes_.size()) throw Error(ErrorCode::kIo, "disk on fire");
    size_t n = std::min({max, size_t{10}, bytes_.size() - offset_});
    std::memcpy(dst, bytes_.data() + offset_, n);
    offset_ += n;
    return n;
  }

 private:
  std::string bytes_;
  size_t offset_ = 0;
};

TEST(ProtoIoTest, SourceFailureIsAnIoError) {
  std::string bytes = testing::DeeplyNestedGraph(3).SerializeAsString();
  for (bool text : {false, true}) {
    tensorflow::GraphDef graph;
    FailingSource source(text ? testing::ReferenceText(testing::DeeplyNestedGraph(3)) : bytes);
    try {
      text ? proto::ParseText(&source, &graph, "src") : proto::ParseBinary(&source, &graph, "src");
      FAIL() << "parsed";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kIo);
      EXPECT_NE(std::string(e.what()).find("disk on fire"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("src"), std::string::npos) << e.what();
    }
  }
}

class FailingSink : public ByteSink {
 public:
  void Write(const uint8_t*, size_t) override { throw Error(ErrorCode::kIo, "sink full"); }
};

TEST(ProtoIoTest, SinkFailureIsAnIoError) {
  tensorflow::GraphDef graph = testing::DeeplyNestedGraph(3);
  for (bool text : {false, true}) {
    FailingSink sink;
    try {
      text ? (void)proto::WriteText(graph, &sink) : proto::WriteBinary(graph, &sink);
      FAIL() << "wrote";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kIo);
      EXPECT_NE(std::string(e.what()).find("sink full"), std::string::npos) << e.what();
    }
  }
}

TEST(ProtoIoTest, EmptyMessageWritesNothing) {
  tensorflow::GraphDef graph;
  EXPECT_EQ(Binary(graph), "");
  EXPECT_EQ(Text(graph, TfKind::kGraphDef), "");
}

}  // namespace
}  // namespace graphport::tf
