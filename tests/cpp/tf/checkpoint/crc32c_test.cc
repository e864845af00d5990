#include "tf/checkpoint/crc32c.h"

#include <gtest/gtest.h>

#include <string>

namespace graphport::tf::checkpoint {
namespace {

TEST(Crc32cTest, CheckValue) { EXPECT_EQ(Crc32c("123456789"), 0xE3069283u); }

TEST(Crc32cTest, KnownVectors) {
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(Crc32c(std::string(32, '\xFF')), 0x62A8AB43u);
}

TEST(Crc32cTest, ExtendEqualsWholeAtEverySplit) {
  std::string bytes;
  for (int i = 0; i < 100; ++i) bytes.push_back(static_cast<char>(i * 37 + 11));
  uint32_t whole = Crc32c(bytes);
  for (size_t split = 0; split <= bytes.size(); ++split) {
    std::string_view view(bytes);
    EXPECT_EQ(Crc32cExtend(Crc32c(view.substr(0, split)), view.substr(split)), whole) << split;
  }
}

TEST(Crc32cTest, MaskAndUnmask) {
  // The corpus half_plus_two TF2 checkpoint: a = 0.5 stored with masked crc 0x1f273806.
  const char a[] = {0, 0, 0, 0x3f};
  EXPECT_EQ(MaskCrc(Crc32c(std::string_view(a, 4))), 0x1f273806u);
  for (uint32_t crc : {0u, 1u, 0xE3069283u, 0xFFFFFFFFu, 0x80000000u}) {
    EXPECT_EQ(UnmaskCrc(MaskCrc(crc)), crc);
    EXPECT_NE(MaskCrc(crc), crc);
  }
  EXPECT_EQ(MaskCrc(0), 0xA282EAD8u);
}

}  // namespace
}  // namespace graphport::tf::checkpoint
