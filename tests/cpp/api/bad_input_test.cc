// Hostile and broken input through the public facade: every case must end in a
// graphport::Error with the right stable code and a message naming the input and where it
// went wrong. A crash, an abort, a hang or a huge allocation fails the test (or the
// sanitizer build).
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>

#include "api/model.h"
#include "core/limits.h"
#include "test_util.h"

namespace graphport {
namespace {

using testing::CorpusGraph;

enum class Delivery { kInMemory, kStreamed };

struct Outcome {
  bool loaded = false;
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  std::unique_ptr<Model> model;
};

Outcome TryLoad(const std::string& bytes, const std::string& format, Delivery delivery,
                const std::string& name = "bad.bin") {
  Outcome out;
  MemorySource memory(bytes);
  testing::ChunkedSource chunks(bytes);
  ByteSource* source =
      delivery == Delivery::kStreamed ? static_cast<ByteSource*>(&chunks) : &memory;
  LoadOptions options;
  options.format = format;
  options.name = name;
  try {
    out.model = Model::Load(source, options);
    out.loaded = true;
  } catch (const Error& e) {
    out.code = e.code();
    out.message = e.what();
  }
  // Anything other than graphport::Error escapes and fails the test.
  return out;
}

std::string Describe(const Outcome& o) {
  return o.loaded ? "loaded" : std::string(ErrorCodeName(o.code)) + ": " + o.message;
}

// --- Empty input ------------------------------------------------------------------------------

TEST(BadInputTest, EmptyInput) {
  for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
    for (const char* format : {"auto", "graph-def", "meta-graph-binary", "saved-model-text"}) {
      Outcome o = TryLoad("", format, d, "empty.pb");
      ASSERT_FALSE(o.loaded) << format;
      EXPECT_EQ(o.code, ErrorCode::kEmptyInput) << Describe(o);
      EXPECT_EQ(o.message.rfind("empty.pb: ", 0), 0u) << o.message;
    }
  }
}

// --- Truncated corpus files -------------------------------------------------------------------

struct TruncationCase {
  CorpusGraph graph;
  Delivery delivery;
};

void PrintTo(const TruncationCase& c, std::ostream* os) {
  *os << c.graph.relative << (c.delivery == Delivery::kStreamed ? " (streamed)" : " (in memory)");
}

std::vector<TruncationCase> TruncationCases() {
  std::vector<TruncationCase> out;
  for (const CorpusGraph& g : testing::CorpusGraphs()) {
    out.push_back({g, Delivery::kInMemory});
    out.push_back({g, Delivery::kStreamed});
  }
  return out;
}

class TruncationTest : public ::testing::TestWithParam<TruncationCase> {};

// Cut every 97th byte and at each of the last 10 bytes. A cut inside a top-level field must
// fail; a cut exactly between two top-level fields leaves a whole, shorter message, which
// loads (and equals libprotobuf's parse of the same bytes) unless the SavedModel lost all
// of its MetaGraphDefs.
TEST_P(TruncationTest, EveryCutFailsCleanlyOrIsAWholeShorterMessage) {
  const CorpusGraph& g = GetParam().graph;
  const Delivery delivery = GetParam().delivery;
  std::string bytes = testing::ReadFile(g.path());
  std::vector<size_t> boundaries = testing::TopLevelFieldBoundaries(bytes);
  ASSERT_GE(boundaries.size(), 2u);
  std::vector<size_t> cuts;
  for (size_t n = 97; n < bytes.size(); n += 97) cuts.push_back(n);
  for (size_t k = 1; k <= 10; ++k) cuts.push_back(bytes.size() - k);
  const std::string kind = tf::KindName(g.kind);
  int failures = 0;
  for (size_t n : cuts) {
    std::string cut = bytes.substr(0, n);
    bool at_boundary = std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end();
    for (const std::string& format : {std::string("auto"), kind, kind + "-binary"}) {
      SCOPED_TRACE("cut at " + std::to_string(n) + " of " + std::to_string(bytes.size()) +
                   ", format " + format);
      Outcome o = TryLoad(cut, format, delivery, "cut.pb");
      if (o.loaded) {
        EXPECT_TRUE(at_boundary) << "a cut inside a field loaded";
        nlohmann::json s = nlohmann::json::parse(o.model->InspectJson());
        EXPECT_EQ(s["format"], kind);
        EXPECT_EQ(s["inputBytes"], n);
        MemoryOutputSet out;
        o.model->Export(nlohmann::json{{"to", kind}}, &out);
        ASSERT_EQ(out.files().size(), 1u);
        auto expected = testing::ReferenceParse(g.kind, cut);
        auto actual = testing::ReferenceParse(g.kind, out.files()[0].bytes);
        ASSERT_NE(expected, nullptr);
        ASSERT_NE(actual, nullptr);
        EXPECT_TRUE(testing::MessagesEqual(*expected, *actual));
        continue;
      }
      ++failures;
      // The bytes fit the schema up to the cut: a truncated file of its kind, detected as
      // such, not an unknown format.
      EXPECT_EQ(o.code, ErrorCode::kParseError) << Describe(o);
      EXPECT_EQ(o.message.rfind("cut.pb: ", 0), 0u) << o.message;
      if (at_boundary) {
        // Only a SavedModel left with no MetaGraphDef may fail at a boundary.
        EXPECT_EQ(g.kind, tf::TfKind::kSavedModel) << Describe(o);
        EXPECT_NE(o.message.find("no MetaGraphDef"), std::string::npos) << o.message;
        continue;
      }
      auto offset = testing::ByteOffsetIn(o.message);
      ASSERT_TRUE(offset.has_value()) << "no byte offset in: " << o.message;
      EXPECT_LE(*offset, n) << o.message;
      // It says where the input is cut off: a binary input of up to 256 MiB, streamed or not,
      // is held whole to index its graph's nodes.
      EXPECT_NE(o.message.find("the input ends inside a field"), std::string::npos) << o.message;
    }
  }
  EXPECT_GT(failures, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, TruncationTest, ::testing::ValuesIn(TruncationCases()),
                         [](const ::testing::TestParamInfo<TruncationCase>& info) {
                           return testing::CorpusTestName({info.param.graph, info.index}) +
                                  (info.param.delivery == Delivery::kStreamed ? "_streamed"
                                                                              : "_in_memory");
                         });

// --- Random bytes -----------------------------------------------------------------------------

std::string RandomBytes(uint32_t seed, size_t n) {
  std::mt19937 rng(seed);
  std::string out(n, '\0');
  for (auto& c : out) c = static_cast<char>(rng() & 0xFF);
  return out;
}

TEST(BadInputTest, RandomBytesFailCleanly) {
  const size_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 100, 255, 1000, 4096, 65537};
  const char* formats[] = {"auto", "graph-def-binary", "meta-graph-binary", "saved-model-binary"};
  int failed = 0, total = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    for (size_t n : lengths) {
      std::string bytes = RandomBytes(seed * 7919 + static_cast<uint32_t>(n), n);
      for (const char* format : formats) {
        for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
          SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(n) + " bytes, " +
                       format);
          Outcome o = TryLoad(bytes, format, d, "random.bin");
          ++total;
          if (o.loaded) {
            // Random bytes can happen to be valid protobuf; then the model must work.
            MemoryOutputSet out;
            o.model->ExportJson(R"({"asText": true})", &out);
            EXPECT_EQ(out.files().size(), 1u);
            EXPECT_TRUE(nlohmann::json::parse(o.model->InspectJson()).is_object());
            continue;
          }
          ++failed;
          std::set<ErrorCode> allowed = {ErrorCode::kParseError};
          if (std::string(format) == "auto") allowed.insert(ErrorCode::kUnknownFormat);
          EXPECT_TRUE(allowed.count(o.code)) << Describe(o);
          EXPECT_EQ(o.message.rfind("random.bin: ", 0), 0u) << o.message;
        }
      }
    }
  }
  // Random bytes are almost never a valid graph; most must be rejected.
  EXPECT_GT(failed, total * 9 / 10);
}

// In memory and streamed must agree on every random input.
TEST(BadInputTest, RandomBytesSameOutcomeStreamedAndInMemory) {
  for (uint32_t seed = 100; seed < 140; ++seed) {
    for (size_t n : {size_t{3}, size_t{50}, size_t{777}}) {
      std::string bytes = RandomBytes(seed, n);
      for (const char* format : {"auto", "graph-def-binary"}) {
        Outcome a = TryLoad(bytes, format, Delivery::kInMemory);
        Outcome b = TryLoad(bytes, format, Delivery::kStreamed);
        EXPECT_EQ(a.loaded, b.loaded) << Describe(a) << " vs " << Describe(b);
        if (!a.loaded && !b.loaded) {
          EXPECT_EQ(a.code, b.code) << Describe(a) << " vs " << Describe(b);
        }
      }
    }
  }
}

// --- Text -------------------------------------------------------------------------------------

// Returns the 1-based line and column of the first occurrence of `token` in `text`.
std::pair<int, int> LineColumnOf(const std::string& text, const std::string& token) {
  size_t at = text.find(token);
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
  size_t line_start = text.rfind('\n', at);
  int column = static_cast<int>(at - (line_start == std::string::npos ? 0 : line_start + 1)) + 1;
  return {line, column};
}

TEST(BadInputTest, TextThatIsNotAProto) {
  const std::string text = "Hello, world!\nThis is a plain text file, not a graph.\n";
  for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
    Outcome o = TryLoad(text, "auto", d, "notes.txt");
    ASSERT_FALSE(o.loaded);
    EXPECT_EQ(o.code, ErrorCode::kUnknownFormat) << Describe(o);
    EXPECT_EQ(o.message.rfind("notes.txt: ", 0), 0u) << o.message;
    EXPECT_NE(o.message.find("'Hello'"), std::string::npos) << o.message;
    EXPECT_NE(o.message.find("line 1"), std::string::npos) << o.message;
    // With the kind forced, the text parser says where.
    Outcome forced = TryLoad(text, "graph-def", d, "notes.txt");
    ASSERT_FALSE(forced.loaded);
    EXPECT_EQ(forced.code, ErrorCode::kParseError) << Describe(forced);
    EXPECT_NE(forced.message.find("notes.txt"), std::string::npos) << forced.message;
    // libprotobuf reports the unknown field "Hello" at the token after it: the ','.
    auto [line, column] = LineColumnOf(text, ",");
    std::string where = "line " + std::to_string(line) + " column " + std::to_string(column) + ": ";
    EXPECT_NE(forced.message.find(where), std::string::npos)
        << where << " not in " << forced.message;
  }
}

TEST(BadInputTest, AGraphModelJsonIsTensorFlowJsNotTensorFlow) {
  const std::string json = R"({"format": "graph-model", "modelTopology": {"node": []}})";
  for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
    Outcome o = TryLoad(json, "auto", d, "model.json");
    ASSERT_FALSE(o.loaded);
    // The TensorFlow.js family claims it, and its reader says what is missing (TF.js's
    // GraphModel decodes weightsManifest unconditionally).
    EXPECT_EQ(o.code, ErrorCode::kParseError) << Describe(o);
    EXPECT_EQ(o.message.rfind("model.json: ", 0), 0u) << o.message;
    EXPECT_NE(o.message.find("TensorFlow.js"), std::string::npos) << o.message;
    EXPECT_NE(o.message.find("weightsManifest"), std::string::npos) << o.message;
  }
}

TEST(BadInputTest, TextOfTheRightKindWithASyntaxError) {
  const std::string text =
      "node {\n"
      "  name: \"a\"\n"
      "  op: \"Const\"\n"
      "  attr {\n"
      "    key: \"value\"\n"
      "    value { i: ] }\n"
      "  }\n"
      "}\n";
  auto [line, column] = LineColumnOf(text, "]");
  for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
    for (const char* format : {"auto", "graph-def", "graph-def-text"}) {
      Outcome o = TryLoad(text, format, d, "graph.pbtxt");
      ASSERT_FALSE(o.loaded) << format;
      EXPECT_EQ(o.code, ErrorCode::kParseError) << Describe(o);
      EXPECT_EQ(o.message.rfind("graph.pbtxt: ", 0), 0u) << o.message;
      std::string where =
          "line " + std::to_string(line) + " column " + std::to_string(column) + ": ";
      EXPECT_NE(o.message.find(where), std::string::npos) << where << " not in " << o.message;
    }
  }
}

// The text of a real SavedModel (printed by protoc) with one stray brace appended.
TEST(BadInputTest, CorpusTextWithAStrayBrace) {
  std::string error;
  auto text = testing::ProtocDecode(tf::TfKind::kSavedModel,
                                    testing::CorpusDir() / testing::kMatrixSavedModel, &error);
  ASSERT_TRUE(text.has_value()) << error;
  std::string broken = *text + "}\n";
  int line = 1 + static_cast<int>(std::count(text->begin(), text->end(), '\n'));
  for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
    Outcome o = TryLoad(broken, "auto", d, "sm.pbtxt");
    ASSERT_FALSE(o.loaded);
    EXPECT_EQ(o.code, ErrorCode::kParseError) << Describe(o);
    EXPECT_NE(o.message.find("sm.pbtxt"), std::string::npos) << o.message;
    EXPECT_NE(o.message.find("line " + std::to_string(line) + " column 1: "), std::string::npos)
        << "line " << line << ": " << o.message;
  }
}

// --- Lengths claiming gigabytes ---------------------------------------------------------------

TEST(BadInputTest, LengthPrefixClaimingGigabytes) {
  struct Case {
    const char* what;
    std::string bytes;
  } cases[] = {
      {"2 GiB - 1", std::string("\x0a\xff\xff\xff\xff\x07", 6)},
      {"4 GiB - 1", std::string("\x0a\xff\xff\xff\xff\x0f", 6)},
      {"2^63", std::string("\x0a\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11)},
      {"inside a node", std::string("\x0a\x08\x0a\x06\x12\xff\xff\xff\xff\x07", 10)},
      {"after a valid SavedModel field", std::string("\x08\x01\x12\xfe\xff\xff\xff\x07", 8)},
  };
  for (Case& c : cases) {
    c.bytes += std::string(64, '\x01');
    for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
      for (const char* format :
           {"auto", "graph-def-binary", "meta-graph-binary", "saved-model-binary"}) {
        SCOPED_TRACE(std::string(c.what) + ", " + format);
        Outcome o = TryLoad(c.bytes, format, d, "huge.pb");
        ASSERT_FALSE(o.loaded);
        std::set<ErrorCode> allowed = {ErrorCode::kParseError};
        if (std::string(format) == "auto") allowed.insert(ErrorCode::kUnknownFormat);
        EXPECT_TRUE(allowed.count(o.code)) << Describe(o);
        EXPECT_EQ(o.message.rfind("huge.pb: ", 0), 0u) << o.message;
        auto offset = testing::ByteOffsetIn(o.message);
        ASSERT_TRUE(offset.has_value()) << o.message;
        EXPECT_LE(*offset, c.bytes.size()) << o.message;
      }
    }
  }
}

// A source that reports a size over protobuf's 2 GiB limit.
class HugeSource : public MemorySource {
 public:
  using MemorySource::MemorySource;
  bool SizeHint(uint64_t* size) const override {
    *size = uint64_t{3} << 30;
    return true;
  }
};

TEST(BadInputTest, InputOverTwoGibibytesIsTooLarge) {
  std::string bytes = testing::ReadCorpus(testing::kFrozenGraph);
  for (const char* format : {"auto", "graph-def"}) {
    HugeSource source(bytes);
    LoadOptions options;
    options.format = format;
    options.name = "big.pb";
    try {
      Model::Load(&source, options);
      FAIL() << "loaded";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kTooLarge) << e.what();
      EXPECT_NE(std::string(e.what()).find("big.pb"), std::string::npos) << e.what();
    }
  }
}

// --- Recursion --------------------------------------------------------------------------------

TEST(BadInputTest, DeepNestingIsAParseError) {
  tensorflow::GraphDef deep = testing::DeeplyNestedGraph(200);
  const std::string binary = deep.SerializeAsString();
  const std::string text = testing::ReferenceText(deep);
  for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
    for (const char* format : {"auto", "graph-def"}) {
      Outcome b = TryLoad(binary, format, d, "deep.pb");
      ASSERT_FALSE(b.loaded) << format;
      EXPECT_EQ(b.code, ErrorCode::kParseError) << Describe(b);
      EXPECT_EQ(b.message.rfind("deep.pb: ", 0), 0u) << b.message;
      EXPECT_TRUE(testing::ByteOffsetIn(b.message).has_value()) << b.message;

      Outcome t = TryLoad(text, format, d, "deep.pbtxt");
      ASSERT_FALSE(t.loaded) << format;
      EXPECT_EQ(t.code, ErrorCode::kParseError) << Describe(t);
      EXPECT_EQ(t.message.rfind("deep.pbtxt: ", 0), 0u) << t.message;
      EXPECT_NE(t.message.find("line "), std::string::npos) << t.message;
    }
  }
}

TEST(BadInputTest, NestingInsideTheLimitLoads) {
  tensorflow::GraphDef ok = testing::DeeplyNestedGraph(20);
  for (Delivery d : {Delivery::kInMemory, Delivery::kStreamed}) {
    Outcome o = TryLoad(ok.SerializeAsString(), "auto", d);
    ASSERT_TRUE(o.loaded) << Describe(o);
    MemoryOutputSet out;
    o.model->ExportJson(R"({"to": "graph-def"})", &out);
    ASSERT_EQ(out.files().size(), 1u);
    tensorflow::GraphDef back;
    ASSERT_TRUE(back.ParseFromString(out.files()[0].bytes));
    EXPECT_TRUE(testing::MessagesEqual(ok, back));
  }
}

// --- Sources that fail ------------------------------------------------------------------------

class BrokenSource : public ByteSource {
 public:
  BrokenSource(std::string bytes, size_t fail_at) : bytes_(std::move(bytes)), fail_at_(fail_at) {}
  size_t Read(uint8_t* dst, size_t max) override {
    if (offset_ >= fail_at_) throw Error(ErrorCode::kIo, "device unplugged");
    size_t n = std::min({max, size_t{33}, fail_at_ - offset_, bytes_.size() - offset_});
    std::memcpy(dst, bytes_.data() + offset_, n);
    offset_ += n;
    return n;
  }

 private:
  std::string bytes_;
  size_t fail_at_;
  size_t offset_ = 0;
};

TEST(BadInputTest, ASourceThatFailsIsAnIoError) {
  std::string bytes = testing::ReadCorpus(testing::kSessionBundleMeta);
  for (size_t fail_at : {size_t{0}, size_t{100}, bytes.size() / 2}) {
    BrokenSource source(bytes, fail_at);
    LoadOptions options;
    options.name = "unplugged.meta";
    try {
      Model::Load(&source, options);
      FAIL() << "loaded";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kIo) << e.what();
      EXPECT_NE(std::string(e.what()).find("device unplugged"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace graphport
