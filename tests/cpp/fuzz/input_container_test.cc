// The input container of the fuzz targets that read input sets: what is packed unpacks to the
// same files, and damaged containers still give files.
#include "fuzz/targets/input_container.h"

#include <gtest/gtest.h>

#include <string>

namespace graphport::fuzz {
namespace {

TEST(InputContainerTest, UnpacksWhatWasPacked) {
  std::string big(300, 'x');
  std::vector<PackedFile> files = {
      {"saved_model.pb", "graph"}, {"variables/variables.index", ""}, {"assets/a.txt", big}};
  std::string packed = PackInputs(files);
  EXPECT_EQ(packed.size(), 3 * 5 + 14 + 25 + 12 + 5 + 300u);
  EXPECT_EQ(UnpackInputs(packed), files);
}

TEST(InputContainerTest, ASizePastTheEndTakesTheRest) {
  std::string packed = std::string("\x01m\xff\xff\xff\xff", 6) + "abc";
  std::vector<PackedFile> files = UnpackInputs(packed);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0], PackedFile("m", "abc"));
  // Cut inside the size: an empty file; cut inside the name: a shorter name.
  EXPECT_EQ(UnpackInputs(std::string("\x01m\x05", 3)), std::vector<PackedFile>({{"m", ""}}));
  EXPECT_EQ(UnpackInputs("\x05"
                         "ab"),
            std::vector<PackedFile>({{"ab", ""}}));
}

TEST(InputContainerTest, DropsEmptyAndRepeatedNames) {
  std::string packed = PackInputs({{"", "lost"}, {"a", "1"}, {"a", "2"}, {"b", "3"}});
  EXPECT_EQ(UnpackInputs(packed), std::vector<PackedFile>({{"a", "1"}, {"b", "3"}}));
  EXPECT_TRUE(UnpackInputs("").empty());
}

TEST(InputContainerTest, RefusesANameItCannotPack) {
  EXPECT_THROW(PackInputs({{std::string(256, 'n'), ""}}), std::length_error);
}

}  // namespace
}  // namespace graphport::fuzz
