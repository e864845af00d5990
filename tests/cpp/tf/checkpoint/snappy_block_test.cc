#include "tf/checkpoint/snappy_block.h"

#include <gtest/gtest.h>
#include <snappy.h>

#include <string>

#include "core/error.h"

namespace graphport::tf::checkpoint {
namespace {

std::string Compress(const std::string& bytes) {
  std::string out;
  snappy::Compress(bytes.data(), bytes.size(), &out);
  return out;
}

ErrorCode CodeOf(const std::string& stored, uint64_t max_bytes = 1 << 20) {
  try {
    UncompressSnappyBlock(stored, max_bytes, "model/variables/variables.index", 171);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("variables.index"), std::string::npos);
    EXPECT_EQ(e.where().offset, 171);
    return e.code();
  }
  return ErrorCode::kInternal;  // no error
}

TEST(SnappyBlockTest, RoundTrips) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "a/.ATTRIBUTES/VARIABLE_VALUE" + std::to_string(i);
  EXPECT_EQ(UncompressSnappyBlock(Compress(text), 1 << 20, "f", 0), text);
  EXPECT_EQ(UncompressSnappyBlock(Compress(""), 1 << 20, "f", 0), "");
}

TEST(SnappyBlockTest, DeclaredLengthBeyondWhatSnappyCanMakeIsAParseError) {
  // A 5-byte varint length of 4 GiB - 1 and nothing else: no allocation is attempted.
  std::string hostile = "\xFF\xFF\xFF\xFF\x0F";
  EXPECT_EQ(CodeOf(hostile), ErrorCode::kParseError);
  // 64 zero bytes compress to a handful of bytes; a header claiming far more is refused.
  std::string stored = Compress(std::string(64, '\0'));
  std::string inflated = "\x80\x80\x04" + stored.substr(1);  // declares 65536
  EXPECT_EQ(CodeOf(inflated), ErrorCode::kParseError);
}

TEST(SnappyBlockTest, DeclaredLengthBeyondTheBudgetIsTooLarge) {
  std::string stored = Compress(std::string(100000, 'x'));
  EXPECT_EQ(CodeOf(stored, 1000), ErrorCode::kTooLarge);
}

TEST(SnappyBlockTest, DamagedElementsAreAParseError) {
  std::string stored = Compress("hello hello hello hello hello");
  EXPECT_EQ(CodeOf(stored.substr(0, stored.size() - 3)), ErrorCode::kParseError);
  EXPECT_EQ(CodeOf(""), ErrorCode::kParseError);
  // A copy reaching back before the first byte: length 8, then a 1-byte-offset copy of
  // offset 5 with nothing before it.
  EXPECT_EQ(CodeOf(std::string("\x08\x11\x05", 3)), ErrorCode::kParseError);
}

}  // namespace
}  // namespace graphport::tf::checkpoint
