#include "core/byte_stream.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "core/output_set.h"
#include "test_util.h"

namespace graphport {
namespace {

using testing::ChunkedSource;

std::string Drain(ByteSource* source, size_t step) {
  std::string out;
  std::string buffer(step, '\0');
  while (size_t n = source->Read(reinterpret_cast<uint8_t*>(buffer.data()), step)) {
    out.append(buffer.data(), n);
  }
  return out;
}

TEST(MemorySourceTest, ReadsEverythingInPiecesThenZero) {
  const std::string bytes = "0123456789abcdef";
  MemorySource source(bytes);
  EXPECT_EQ(Drain(&source, 5), bytes);
  uint8_t b;
  EXPECT_EQ(source.Read(&b, 1), 0u);
}

TEST(MemorySourceTest, SizeHintIsTheSize) {
  MemorySource source(std::string_view("abc", 3));
  uint64_t size = 0;
  ASSERT_TRUE(source.SizeHint(&size));
  EXPECT_EQ(size, 3u);
}

TEST(MemorySourceTest, ContiguousOnlyBeforeTheFirstRead) {
  const std::string bytes = "hello";
  MemorySource source(bytes);
  std::string_view view;
  ASSERT_TRUE(source.Contiguous(&view));
  EXPECT_EQ(view.data(), bytes.data());  // lends the caller's bytes, no copy
  EXPECT_EQ(view.size(), bytes.size());
  uint8_t b;
  ASSERT_EQ(source.Read(&b, 1), 1u);
  EXPECT_FALSE(source.Contiguous(&view));
}

TEST(MemorySourceTest, RewindStartsAgain) {
  const std::string bytes = "rewind me";
  MemorySource source(bytes);
  EXPECT_EQ(Drain(&source, 4), bytes);
  ASSERT_TRUE(source.Rewind());
  EXPECT_EQ(Drain(&source, 3), bytes);
}

TEST(MemorySourceTest, EmptyInput) {
  MemorySource source(std::string_view{});
  uint8_t b;
  EXPECT_EQ(source.Read(&b, 1), 0u);
}

TEST(PrefixedSourceTest, ReplaysThePrefixThenTheRest) {
  const std::string bytes = "abcdefghijklmnopqrstuvwxyz";
  MemorySource inner(bytes);
  std::string prefix = ReadPrefix(&inner, 10);
  ASSERT_EQ(prefix, bytes.substr(0, 10));
  PrefixedSource replay(prefix, &inner);
  EXPECT_EQ(Drain(&replay, 3), bytes);
}

TEST(PrefixedSourceTest, PassesTheSizeHintThroughButIsNotContiguous) {
  const std::string bytes = "abcdef";
  MemorySource inner(bytes);
  PrefixedSource replay(ReadPrefix(&inner, 2), &inner);
  uint64_t size = 0;
  ASSERT_TRUE(replay.SizeHint(&size));
  EXPECT_EQ(size, bytes.size());
  std::string_view view;
  EXPECT_FALSE(replay.Contiguous(&view));
}

// Rewinding restarts the inner source, whose first bytes the prefix was a copy of.
TEST(PrefixedSourceTest, RewindsWhenTheInnerSourceCan) {
  const std::string bytes = "abcdefghij";
  MemorySource inner(bytes);
  PrefixedSource replay(ReadPrefix(&inner, 4), &inner);
  uint8_t b[3];
  ASSERT_EQ(replay.Read(b, 3), 3u);
  ASSERT_TRUE(replay.Rewind());
  EXPECT_EQ(Drain(&replay, 3), bytes);

  ChunkedSource pipe(bytes);  // cannot rewind
  PrefixedSource over_pipe(ReadPrefix(&pipe, 4), &pipe);
  EXPECT_FALSE(over_pipe.Rewind());
  EXPECT_EQ(Drain(&over_pipe, 5), bytes);  // and a failed Rewind changed nothing
}

TEST(ReadPrefixTest, GathersSmallChunksUpToMax) {
  std::string bytes(1000, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 31);
  ChunkedSource source(bytes);
  std::string prefix = ReadPrefix(&source, 700);
  EXPECT_EQ(prefix, bytes.substr(0, 700));
  EXPECT_GT(source.reads(), 1u);  // the chunked source really did hand out several pieces
  EXPECT_EQ(ReadPrefix(&source, 700), bytes.substr(700));  // fewer only at the end
}

TEST(StringSinkTest, AppendsAndTakes) {
  StringSink sink;
  sink.Write(reinterpret_cast<const uint8_t*>("ab"), 2);
  sink.Write(reinterpret_cast<const uint8_t*>("cde"), 3);
  EXPECT_EQ(sink.bytes(), "abcde");
  EXPECT_EQ(sink.Take(), "abcde");
}

// Records what a writer did to it; wants the size first when told to.
class RecordingSink : public ByteSink {
 public:
  explicit RecordingSink(bool wants_size_first) : wants_size_first_(wants_size_first) {}
  void Write(const uint8_t* data, size_t size) override {
    log += "write " + std::string(reinterpret_cast<const char*>(data), size) + ";";
  }
  void SizeHint(uint64_t total) override { log += "size " + std::to_string(total) + ";"; }
  bool WantsSizeFirst() const override { return wants_size_first_; }
  std::string log;

 private:
  bool wants_size_first_;
};

int WriteHello(ByteSink* sink, int* runs) {
  sink->Write(reinterpret_cast<const uint8_t*>("hel"), 3);
  sink->Write(reinterpret_cast<const uint8_t*>("lo"), 2);
  return ++*runs;
}

TEST(WriteSizeFirstTest, CountsWithADryRunOnlyForASinkThatWantsTheSize) {
  int runs = 0;
  RecordingSink wants(true);
  EXPECT_EQ(WriteSizeFirst(&wants, [&](ByteSink* to) { return WriteHello(to, &runs); }), 2);
  EXPECT_EQ(wants.log, "size 5;write hel;write lo;");

  runs = 0;
  RecordingSink plain(false);
  EXPECT_EQ(WriteSizeFirst(&plain, [&](ByteSink* to) { return WriteHello(to, &runs); }), 1);
  EXPECT_EQ(plain.log, "write hel;write lo;");
}

TEST(WriteSizeFirstTest, WhatTheDryRunThrowsReachesNoSink) {
  RecordingSink wants(true);
  EXPECT_THROW(WriteSizeFirst(&wants,
                              [](ByteSink* to) {
                                to->Write(reinterpret_cast<const uint8_t*>("x"), 1);
                                throw std::runtime_error("refused");
                              }),
               std::runtime_error);
  EXPECT_EQ(wants.log, "");
}

TEST(MemoryOutputSetTest, KeepsClosedFilesInOrder) {
  MemoryOutputSet out;
  out.Open("a")->Write(reinterpret_cast<const uint8_t*>("1"), 1);
  out.Close();
  ByteSink* sink = out.Open("b");
  sink->Write(reinterpret_cast<const uint8_t*>("22"), 2);
  out.Close();
  out.Open("unfinished")->Write(reinterpret_cast<const uint8_t*>("3"), 1);  // never closed
  ASSERT_EQ(out.files().size(), 2u);
  EXPECT_EQ(out.files()[0].name, "a");
  EXPECT_EQ(out.files()[0].bytes, "1");
  EXPECT_EQ(out.files()[1].name, "b");
  EXPECT_EQ(out.files()[1].bytes, "22");
}

TEST(ReadWholeTest, ReadsAllInPiecesOfAnySize) {
  std::string bytes(10000, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
  ChunkedSource source(bytes);
  std::string out = "kept ";
  EXPECT_TRUE(ReadWhole(&source, UINT64_MAX, &out));
  EXPECT_EQ(out, "kept " + bytes);
}

TEST(ReadWholeTest, StopsPastTheLimitWithWhatItRead) {
  const std::string bytes(5000, 'x');
  ChunkedSource unsized(bytes);
  std::string out;
  EXPECT_FALSE(ReadWhole(&unsized, 1000, &out));
  EXPECT_GT(out.size(), 1000u);
  EXPECT_EQ(out, bytes.substr(0, out.size()));
  // A source that says its size is refused before a byte is read.
  MemorySource sized(bytes);
  out.clear();
  EXPECT_FALSE(ReadWhole(&sized, 1000, &out));
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace graphport
