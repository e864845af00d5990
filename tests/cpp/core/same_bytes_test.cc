// SameBytes must agree with memcmp for every length and wherever two runs differ: the index
// takes an op number and the wire check a remembered entry on its word.
#include "core/same_bytes.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace graphport {
namespace {

TEST(SameBytesTest, AgreesWithMemcmpAtEveryLengthAndPosition) {
  int compared = 0;
  for (size_t size = 0; size <= 40; ++size) {
    std::string a(size, 'x');
    for (size_t i = 0; i < size; ++i) a[i] = static_cast<char>('a' + i % 26);
    EXPECT_TRUE(SameBytes(a.data(), std::string(a).data(), size)) << size;
    for (size_t at = 0; at < size; ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string b = a;
        b[at] = static_cast<char>(b[at] ^ (1 << bit));
        ASSERT_EQ(SameBytes(a.data(), b.data(), size), std::memcmp(a.data(), b.data(), size) == 0)
            << size << " " << at;
        EXPECT_FALSE(SameBytes(a, b)) << size << " " << at;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 6000);
}

TEST(SameBytesTest, ViewsOfDifferentLengthsDiffer) {
  EXPECT_TRUE(SameBytes(std::string_view("Const"), std::string_view("Const")));
  EXPECT_FALSE(SameBytes(std::string_view("Const"), std::string_view("ConstV2")));
  EXPECT_FALSE(SameBytes(std::string_view(""), std::string_view("a")));
  EXPECT_TRUE(SameBytes(std::string_view(""), std::string_view("")));
}

}  // namespace
}  // namespace graphport
