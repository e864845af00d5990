#include "tf/checkpoint/slice_key.h"

#include <gtest/gtest.h>

#include <string>

#include "tf/checkpoint/checkpoint.h"

namespace graphport::tf::checkpoint {
namespace {

std::string Signed(int64_t v) {
  std::string out;
  AppendOrderedSigned(v, &out);
  return out;
}

TEST(SliceKeyTest, ResearchExample) {
  // research §1.6: rows 0-4 of a 10 x 20 variable "x": 00 | "x" 00 01 | 01 02 | 80 85 | 80 7F.
  EXPECT_EQ(EncodeSliceKey("x", {{0, 5}, {0, -1}}),
            std::string("\x00x\x00\x01\x01\x02\x80\x85\x80\x7f", 10));
}

TEST(SliceKeyTest, StringsEscapeZeroAndFF) {
  std::string out;
  AppendOrderedString(std::string("a\0b\xff", 4), &out);
  EXPECT_EQ(out, std::string("a\x00\xff"
                             "b\xff\x00\x00\x01",
                             8));
}

TEST(SliceKeyTest, UnsignedNumbers) {
  std::string out;
  AppendOrderedUnsigned(0, &out);
  AppendOrderedUnsigned(2, &out);
  AppendOrderedUnsigned(0x1234, &out);
  EXPECT_EQ(out, std::string("\x00\x01\x02\x02\x12\x34", 6));
}

TEST(SliceKeyTest, SignedNumbersOfEachLength) {
  EXPECT_EQ(Signed(0), "\x80");
  EXPECT_EQ(Signed(63), "\xbf");
  EXPECT_EQ(Signed(-1), "\x7f");
  EXPECT_EQ(Signed(-64), "\x40");
  EXPECT_EQ(Signed(64), std::string("\xc0\x40", 2));
  EXPECT_EQ(Signed(-65), std::string("\x3f\xbf", 2));
  EXPECT_EQ(Signed(8191), std::string("\xdf\xff", 2));
  EXPECT_EQ(Signed(8192), std::string("\xe0\x20\x00", 3));
  EXPECT_EQ(Signed(INT64_MAX), std::string("\xff\xc0\x7f\xff\xff\xff\xff\xff\xff\xff", 10));
  EXPECT_EQ(Signed(INT64_MIN), std::string("\x00\x3f\x80\x00\x00\x00\x00\x00\x00\x00", 10));
}

TEST(SliceKeyTest, SignedEncodingKeepsOrder) {
  const int64_t values[] = {
      INT64_MIN, -1000000000000, -70000, -8193,   -8192,    -65, -64, -1, 0, 1, 63,
      64,        8191,           8192,   1 << 20, INT64_MAX};
  for (size_t i = 1; i < sizeof(values) / sizeof(values[0]); ++i) {
    EXPECT_LT(Signed(values[i - 1]), Signed(values[i])) << values[i - 1] << " " << values[i];
  }
}

TEST(SliceKeyTest, SliceKeysSortBeforeOrdinaryNames) {
  EXPECT_LT(std::string(""), EncodeSliceKey("a", {{0, 1}}));
  EXPECT_LT(EncodeSliceKey("zzz", {{0, 1}}), std::string("\x01"));
}

}  // namespace
}  // namespace graphport::tf::checkpoint
