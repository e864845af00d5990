// Real text: every text file of the corpus, the text libprotobuf prints for every binary one
// (in each of its styles), and mutations of real text, each parsed by libprotobuf and by
// graphport, fed whole and a byte at a time.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "proto/text_parse.h"
#include "tensorflow/schemas.h"
#include "test_util.h"
#include "text_parse_reference.h"

namespace graphport::proto {
namespace {

using namespace text_parse_testing;  // NOLINT: the shared helpers of these tests

std::string Printed(const pb::Message& message, int style) {
  pb::TextFormat::Printer printer;
  printer.SetExpandAny((style & 1) != 0);
  printer.SetSingleLineMode((style & 2) != 0);
  printer.SetUseShortRepeatedPrimitives((style & 4) != 0);
  std::string text;
  EXPECT_TRUE(printer.PrintToString(message, &text));
  return text;
}

TEST(TextParseCorpus, EveryTextFileLikeLibprotobuf) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::CorpusDir())) {
    if (entry.path().extension() != ".pbtxt") continue;
    ++files;
    SCOPED_TRACE(entry.path().string());
    const std::string text = testing::ReadFile(entry.path());
    const std::string type = "tensorflow.OpList";  // ops.pbtxt: TensorFlow's op registry
    const Outcome want = Reference(type, text);
    ASSERT_TRUE(want.ok) << want;
    EXPECT_TRUE(Same(want, Ours(type, text)));
    EXPECT_TRUE(Same(want, Ours(type, text, {1})));
    EXPECT_TRUE(Same(want, Ours(type, text, {4093, 1, 17})));
  }
  EXPECT_GE(files, 1);
}

// Every binary corpus file, printed by libprotobuf in each of its styles (Any expanded or not,
// one line or many, short lists), parsed back; also into the generated lite classes.
TEST(TextParseCorpus, LibprotobufsTextOfEveryBinaryFile) {
  int printed = 0;
  for (const testing::CorpusGraph& graph : testing::CorpusGraphs()) {
    ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
    SCOPED_TRACE(graph.relative);
    const std::string type =
        std::string(graph.kind == tf::TfKind::kSavedModel     ? "tensorflow.SavedModel"
                    : graph.kind == tf::TfKind::kMetaGraphDef ? "tensorflow.MetaGraphDef"
                                                              : "tensorflow.GraphDef");
    std::unique_ptr<pb::Message> message =
        ReferencePool::Tf().New(type, testing::ReadFile(graph.path()));
    for (int style = 0; style < 8; ++style) {
      SCOPED_TRACE(style);
      const std::string text = Printed(*message, style);
      ++printed;
      const Outcome want = Reference(type, text);
      ASSERT_TRUE(want.ok) << want;
      // The text is the binary's message (TensorFlow wrote its Any values' map entries in
      // hash order, so those are compared settled).
      std::unique_ptr<pb::Message> reread = ReferencePool::Tf().New(type);
      ASSERT_TRUE(pb::TextFormat::ParseFromString(text, reread.get()));
      EXPECT_EQ(Normalized(*reread, true).value_or("?"), Normalized(*message, true).value_or("?"));
      EXPECT_TRUE(Same(want, Ours(type, text)));
      EXPECT_TRUE(Same(want, Ours(type, text, {1})));
      std::unique_ptr<pb::MessageLite> generated(testing::NewRoot(graph.kind));
      TextParseError error;
      ASSERT_TRUE(ParseTextMessage(text, *tf::TfSchemas().Find(type), generated.get(), &error))
          << error.message;
      EXPECT_EQ(Normalized(*testing::ReferenceCopy(*generated)).value_or("?"), want.bytes);
    }
  }
  EXPECT_GT(printed, 40);
}

// Real text with one byte deleted, inserted or replaced, at many places: wherever libprotobuf
// refuses it, the same error; wherever it takes it, the same message.
TEST(TextParseCorpus, MutationsOfRealTextLikeLibprotobuf) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  std::unique_ptr<pb::Message> meta = ReferencePool::Tf().New(
      "tensorflow.MetaGraphDef", testing::ReadCorpus(testing::kSessionBundleMeta));
  const std::string text = Printed(*meta, /*expand any, short lists=*/5);
  const std::string alphabet =
      std::string("{}<>[]:;,\"'\\#-.0x1eEfuU9 \n\t_aZ\xff\x01", 32) + std::string(1, '\0');
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&](uint64_t n) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % n;
  };
  int refused = 0, taken = 0, not_utf8 = 0;
  for (int i = 0; i < 1500; ++i) {
    std::string mutated = text;
    const size_t at = next(mutated.size());
    const char c = alphabet[next(alphabet.size())];
    switch (next(3)) {
      case 0:
        mutated.erase(at, 1);
        break;
      case 1:
        mutated.insert(at, 1, c);
        break;
      default:
        mutated[at] = c;
    }
    const Outcome want = Reference("tensorflow.MetaGraphDef", mutated);
    (want.ok ? taken : refused)++;
    if (want.bad_utf8) {
      // libprotobuf takes a string that is not UTF-8; graphport refuses it.
      const Outcome got = Ours("tensorflow.MetaGraphDef", mutated);
      EXPECT_FALSE(got.ok);
      EXPECT_NE(got.message.find("is not valid UTF-8"), std::string::npos) << got;
      ++not_utf8;
      continue;
    }
    ASSERT_TRUE(Same(want, Ours("tensorflow.MetaGraphDef", mutated)))
        << "mutation " << i << " at byte " << at;
    if (i % 15 == 0) {
      ASSERT_TRUE(Same(want, Ours("tensorflow.MetaGraphDef", mutated, {1})))
          << "byte by byte, mutation " << i << " at byte " << at;
    }
  }
  EXPECT_GT(refused, 250);
  EXPECT_GT(taken, 150);
  EXPECT_GT(not_utf8, 1);
}

}  // namespace
}  // namespace graphport::proto
