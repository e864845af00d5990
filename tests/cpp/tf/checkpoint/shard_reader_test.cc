#include "tf/checkpoint/shard_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "test_util.h"

namespace graphport::testing {
namespace {

// A set whose files come as streams only (no contiguous view), like the CLI's files, and that
// counts how often each is opened.
class StreamingInputSet : public InputSet {
 public:
  void Add(const std::string& name, std::string bytes) {
    files_[name] = std::move(bytes);
    names_.push_back(name);
  }
  const std::vector<std::string>& Names() const override { return names_; }
  ByteSource* Open(const std::string& name) override {
    ++opens_[name];
    source_ = std::make_unique<Chunked>(files_.at(name));
    return source_.get();
  }
  const std::string& label() const override { return label_; }
  // The size a file says it has, when told (it may lie: a short file).
  bool Size(const std::string& name, uint64_t* size) const override {
    auto it = sizes_.find(name);
    if (it == sizes_.end()) return false;
    *size = it->second;
    return true;
  }
  void TellSize(const std::string& name, uint64_t size) { sizes_[name] = size; }
  int opens(const std::string& name) { return opens_[name]; }

 private:
  class Chunked : public ByteSource {
   public:
    explicit Chunked(std::string_view bytes) : bytes_(bytes) {}
    size_t Read(uint8_t* dst, size_t max) override {
      size_t n = std::min<size_t>({max, 3, bytes_.size() - at_});
      std::copy_n(bytes_.data() + at_, n, dst);
      at_ += n;
      return n;
    }

   private:
    std::string_view bytes_;
    size_t at_ = 0;
  };
  std::map<std::string, std::string> files_;
  std::map<std::string, int> opens_;
  std::map<std::string, uint64_t> sizes_;
  std::vector<std::string> names_;
  std::unique_ptr<ByteSource> source_;
  std::string label_ = "model";
};

using tf::checkpoint::ShardFileName;
using tf::checkpoint::ShardReader;

std::string ReadAll(ShardReader* reader, int shard, uint64_t offset, uint64_t size) {
  std::string out;
  reader->ReadRange(shard, offset, size, "k", [&](std::string_view piece) { out += piece; });
  return out;
}

TEST(ShardReaderTest, FileNames) {
  EXPECT_EQ(ShardFileName("variables/variables", 0, 1), "variables/variables.data-00000-of-00001");
  EXPECT_EQ(ShardFileName("p", 12, 345), "p.data-00012-of-00345");
}

TEST(ShardReaderTest, StreamedFilesAreReadForwardAndReopenedToGoBack) {
  StreamingInputSet inputs;
  inputs.Add("v.data-00000-of-00002", "0123456789");
  inputs.Add("v.data-00001-of-00002", "abcdefghij");
  ShardReader reader(&inputs, "v", 2);
  EXPECT_EQ(ReadAll(&reader, 0, 2, 5), "23456");
  EXPECT_EQ(ReadAll(&reader, 0, 8, 2), "89");
  EXPECT_EQ(inputs.opens("v.data-00000-of-00002"), 1);
  EXPECT_EQ(ReadAll(&reader, 1, 0, 3), "abc");
  EXPECT_EQ(ReadAll(&reader, 0, 0, 1), "0");  // behind: opened again
  EXPECT_EQ(inputs.opens("v.data-00000-of-00002"), 2);
  EXPECT_EQ(ReadAll(&reader, 0, 10, 0), "");
}

// ReadRangeInto into a string of its own; "<none>" when it left the range to ReadRange.
std::string ReadInto(ShardReader* reader, int shard, uint64_t offset, uint64_t size,
                     std::string* pieces = nullptr) {
  std::string out;
  bool direct = reader->ReadRangeInto(
      shard, offset, size, "k",
      [&] {
        out.resize(size);
        return out.data();
      },
      [&](std::string_view piece) {
        // Each piece is where it was written, in order.
        EXPECT_EQ(piece.data(), out.data() + (pieces ? pieces->size() : 0));
        if (pieces) *pieces += piece;
      });
  return direct ? out : "<none>";
}

TEST(ShardReaderTest, StreamedFilesOfKnownSizeAreReadStraightIntoTheValue) {
  StreamingInputSet inputs;
  inputs.Add("v.data-00000-of-00001", "0123456789");
  inputs.TellSize("v.data-00000-of-00001", 10);
  ShardReader reader(&inputs, "v", 1);
  std::string pieces;
  EXPECT_EQ(ReadInto(&reader, 0, 2, 7, &pieces), "2345678");
  EXPECT_EQ(pieces, "2345678");  // the source's 3-byte reads, each passed on
  EXPECT_EQ(ReadInto(&reader, 0, 9, 1), "9");
  EXPECT_EQ(ReadInto(&reader, 0, 0, 3), "012");  // behind: opened again
  EXPECT_EQ(inputs.opens("v.data-00000-of-00001"), 2);
  EXPECT_EQ(ReadInto(&reader, 0, 10, 0), "");
  // Past the size it told: left to ReadRange, which says where.
  EXPECT_EQ(ReadInto(&reader, 0, 8, 3), "<none>");
  EXPECT_THROW(ReadAll(&reader, 0, 8, 3), Error);
}

TEST(ShardReaderTest, ReadStraightIntoTheValueOnlyWhenStreamedWithASize) {
  StreamingInputSet unsized;
  unsized.Add("v.data-00000-of-00001", "0123456789");
  ShardReader streamed(&unsized, "v", 1);
  EXPECT_EQ(ReadInto(&streamed, 0, 0, 4), "<none>");
  EXPECT_EQ(ReadAll(&streamed, 0, 0, 4), "0123");
  MemoryInputSet memory("model");
  memory.Add("v.data-00000-of-00001", std::string("0123456789"));
  ShardReader in_memory(&memory, "v", 1);
  EXPECT_EQ(ReadInto(&in_memory, 0, 0, 4), "<none>");  // read in place by ReadRange
}

TEST(ShardReaderTest, AFileShorterThanItsSizeIsLocated) {
  StreamingInputSet inputs;
  inputs.Add("v.data-00000-of-00001", "0123");
  inputs.TellSize("v.data-00000-of-00001", 10);
  ShardReader reader(&inputs, "v", 1);
  try {
    ReadInto(&reader, 0, 2, 5);
    FAIL() << "read past the end";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_EQ(e.where().file, "model/v.data-00000-of-00001");
    EXPECT_EQ(e.where().offset, 2);
    EXPECT_NE(std::string(e.what()).find("\"k\""), std::string::npos) << e.what();
  }
}

TEST(ShardReaderTest, FilesInMemoryAreReadInPlace) {
  MemoryInputSet inputs;
  std::string bytes = "0123456789";
  inputs.Add("v.data-00000-of-00001", bytes);
  ShardReader reader(&inputs, "v", 1);
  std::string_view piece;
  reader.ReadRange(0, 3, 4, "k", [&](std::string_view p) { piece = p; });
  EXPECT_EQ(piece, "3456");
  EXPECT_EQ(piece.data(), bytes.data() + 3);  // no copy
  EXPECT_EQ(ReadAll(&reader, 0, 0, 2), "01");
}

TEST(ShardReaderTest, MissingFilesAndShortFilesAreLocated) {
  for (bool streamed : {false, true}) {
    StreamingInputSet streaming;
    MemoryInputSet memory("model");
    InputSet* inputs = streamed ? static_cast<InputSet*>(&streaming) : &memory;
    std::string bytes = "0123";
    if (streamed)
      streaming.Add("v.data-00000-of-00002", bytes);
    else
      memory.Add("v.data-00000-of-00002", bytes);
    ShardReader reader(inputs, "v", 2);
    try {
      ReadAll(&reader, 1, 0, 1);
      FAIL() << "read a missing file";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kNotFound);
      EXPECT_NE(std::string(e.what()).find("model/v.data-00001-of-00002"), std::string::npos)
          << e.what();
    }
    try {
      ReadAll(&reader, 0, 2, 3);
      FAIL() << "read past the end";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kParseError);
      EXPECT_EQ(e.where().file, "model/v.data-00000-of-00002");
      EXPECT_EQ(e.where().offset, 2);
      EXPECT_NE(std::string(e.what()).find("\"k\""), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace graphport::testing
