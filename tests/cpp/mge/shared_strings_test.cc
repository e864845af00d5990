// SharedStrings (src/mge/shared_strings.h) must write what FlatBufferBuilder::CreateSharedString
// writes, string for string, and share what it shares.
#include "mge/shared_strings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace graphport::mge {
namespace {

using flatbuffers::FlatBufferBuilder;

// Builds a vector of the strings, each shared, in both builders, and checks the two buffers and
// every offset agree.
void ExpectSameAsTheBuilder(const std::vector<std::string>& strings) {
  FlatBufferBuilder theirs, ours;
  SharedStrings shared(&ours);
  std::vector<flatbuffers::Offset<flatbuffers::String>> a, b;
  for (const std::string& s : strings) {
    a.push_back(theirs.CreateSharedString(s));
    // A table between strings, as a writer makes them: the buffer grows and moves.
    theirs.CreateVector(std::vector<uint32_t>{1, 2, 3});
    b.push_back(shared.Create(s));
    ours.CreateVector(std::vector<uint32_t>{1, 2, 3});
    ASSERT_EQ(a.back().o, b.back().o) << "string #" << a.size() - 1;
  }
  theirs.Finish(theirs.CreateVector(a));
  ours.Finish(ours.CreateVector(b));
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(theirs.GetBufferPointer()), theirs.GetSize()),
            std::string(reinterpret_cast<const char*>(ours.GetBufferPointer()), ours.GetSize()));
}

TEST(SharedStringsTest, SharesWhatTheBuildersOwnPoolShares) {
  ExpectSameAsTheBuilder({"", "conv", "conv", "", "conv1", "con", std::string("a\0b", 3),
                          std::string("a\0c", 3), std::string("a\0b", 3), "a", "conv1"});
}

// Thousands of names with long common prefixes, each met twice or three times, which grows the
// table several times over.
TEST(SharedStringsTest, ManyNamesWithCommonPrefixes) {
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) {
    names.push_back("network/block_" + std::to_string(i % 700) + "/conv_" + std::to_string(i));
    if (i % 3 == 0)
      names.push_back("network/block_" + std::to_string(i % 700) + "/conv_" +
                      std::to_string(i / 2));
    if (i % 7 == 0) names.push_back("cpu0:0");
  }
  ExpectSameAsTheBuilder(names);
}

TEST(SharedStringsTest, EqualStringsGetOneOffsetDifferentOnesTheirOwn) {
  FlatBufferBuilder fbb;
  SharedStrings shared(&fbb);
  const auto first = shared.Create("relu");
  const auto other = shared.Create("relu6");
  EXPECT_EQ(shared.Create("relu").o, first.o);
  EXPECT_NE(other.o, first.o);
  EXPECT_EQ(shared.Create(std::string("relu6")).o, other.o);
}

}  // namespace
}  // namespace graphport::mge
