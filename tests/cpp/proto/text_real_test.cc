// proto::WriteTextFloat rounds most floats with integer arithmetic instead of snprintf and
// strtof: its text must be SimpleFtoa's for every float, which the snprintf path is.
#include "proto/text_real.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace graphport::proto {
namespace {

std::string Fast(float f) {
  char buffer[kMaxRealChars];
  return std::string(buffer, WriteTextFloat(f, buffer));
}

std::string Reference(float f) {
  char buffer[kMaxRealChars];
  return std::string(buffer, WriteTextFloatBySnprintf(f, buffer));
}

float FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

TEST(TextRealTest, FloatsAtRandomAsSnprintfWritesThem) {
  std::mt19937 random(20261203);
  for (int i = 0; i < 2000000; ++i) {
    float f = FromBits(static_cast<uint32_t>(random()));
    ASSERT_EQ(Fast(f), Reference(f)) << "bits " << std::hex << random();
  }
}

// Where rounding decides: decimals of 6 to 9 digits read as floats sit next to the halfway
// points of both roundings and next to the limits of reading back; and the floats either side.
TEST(TextRealTest, FloatsNearShortDecimalsPowersOfTwoAndTen) {
  std::mt19937 random(20261204);
  for (int i = 0; i < 300000; ++i) {
    int digits = 6 + static_cast<int>(random() % 4);
    int exponent = static_cast<int>(random() % 77) - 38;
    char text[64];
    std::snprintf(
        text, sizeof text, "%u5e%d",
        static_cast<unsigned>(random() % 100000000) % (digits == 9 ? 100000000 : 10000000),
        exponent);
    float f = std::strtof(text, nullptr);
    for (float g : {f, std::nextafter(f, 0.0f), std::nextafter(f, 1e30f), -f}) {
      ASSERT_EQ(Fast(g), Reference(g)) << text;
    }
  }
  for (int e = -126; e < 128; ++e) {
    float p = std::ldexp(1.0f, e);
    for (float g : {p, std::nextafter(p, 0.0f), std::nextafter(p, 1e38f)}) {
      ASSERT_EQ(Fast(g), Reference(g)) << "2^" << e;
    }
  }
  for (int e = -38; e <= 38; ++e) {
    float p = std::strtof(("1e" + std::to_string(e)).c_str(), nullptr);
    for (float g : {p, std::nextafter(p, 0.0f), std::nextafter(p, 1e38f)}) {
      ASSERT_EQ(Fast(g), Reference(g)) << "1e" << e;
    }
  }
}

TEST(TextRealTest, SpecialValues) {
  EXPECT_EQ(Fast(std::numeric_limits<float>::quiet_NaN()), "nan");
  EXPECT_EQ(Fast(-std::numeric_limits<float>::quiet_NaN()), "nan");
  EXPECT_EQ(Fast(std::numeric_limits<float>::infinity()), "inf");
  EXPECT_EQ(Fast(-std::numeric_limits<float>::infinity()), "-inf");
  EXPECT_EQ(Fast(-0.0f), "-0");
  EXPECT_EQ(Fast(0.1f), "0.1");
  EXPECT_EQ(Fast(16777217.0f), "16777216");
  EXPECT_EQ(Fast(1e-45f), Reference(1e-45f));
  EXPECT_EQ(Fast(std::numeric_limits<float>::max()), Reference(std::numeric_limits<float>::max()));
}

}  // namespace
}  // namespace graphport::proto
