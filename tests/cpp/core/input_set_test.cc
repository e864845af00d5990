#include "core/input_set.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "test_util.h"

namespace graphport {
namespace {

TEST(MemoryInputSetTest, NamesAreSortedAndEachOpensAtItsStart) {
  MemoryInputSet set("model");
  set.Add("variables/variables.index", "index");
  set.Add("saved_model.pb", "graph");
  EXPECT_EQ(set.Names(), (std::vector<std::string>{"saved_model.pb", "variables/variables.index"}));
  EXPECT_TRUE(set.Has("saved_model.pb"));
  EXPECT_FALSE(set.Has("saved_model"));
  EXPECT_EQ(testing::ReadAll(set.Open("saved_model.pb"), 3), "graph");
  EXPECT_EQ(testing::ReadAll(set.Open("saved_model.pb"), 3), "graph");
  uint64_t size = 0;
  ASSERT_TRUE(set.Size("variables/variables.index", &size));
  EXPECT_EQ(size, 5u);
  EXPECT_EQ(set.DisplayName("saved_model.pb"), "model/saved_model.pb");
}

TEST(MemoryInputSetTest, AMissingNameIsNotFound) {
  MemoryInputSet set;
  set.Add("a", "1");
  try {
    set.Open("b");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_NE(std::string(e.what()).find("'b'"), std::string::npos);
  }
}

TEST(SingleInputSetTest, ReopeningRewinds) {
  std::string bytes = "abcdef";
  MemorySource source(bytes);
  SingleInputSet set(&source, "m.pb", "dir/m.pb");
  EXPECT_EQ(set.Names(), std::vector<std::string>{"m.pb"});
  EXPECT_EQ(testing::ReadAll(set.Open("m.pb"), 3), "abcdef");
  EXPECT_EQ(testing::ReadAll(set.Open("m.pb"), 3), "abcdef");
  EXPECT_EQ(set.DisplayName("m.pb"), "dir/m.pb");
  // A file the input names (a TF.js shard) is looked for beside it, and said so.
  EXPECT_EQ(set.DisplayName("group1-shard1of1.bin"), "dir/group1-shard1of1.bin");
  SingleInputSet bare(&source, "model.json", "");
  EXPECT_EQ(bare.DisplayName("group1-shard1of1.bin"), "group1-shard1of1.bin");
}

TEST(SingleInputSetTest, AStreamThatCannotRewindOpensOnce) {
  class Once : public ByteSource {
   public:
    size_t Read(uint8_t*, size_t) override { return 0; }
  } once;
  SingleInputSet set(&once, "", "");
  EXPECT_EQ(set.Names(), std::vector<std::string>{"input"});
  set.Open("input");
  EXPECT_THROW(set.Open("input"), Error);
}

TEST(InputNamesTest, OnlyRelativeNamesInsideTheSetAreSafe) {
  for (const char* ok : {"model.json", "variables/variables.index", "a/b/c.bin", "..a", "a..b"}) {
    EXPECT_TRUE(IsSafeInputName(ok)) << ok;
  }
  for (const char* bad :
       {"", "/etc/passwd", "../x", "a/../b", "a/./b", "a//b", "a/", ".", "..", "a\\b"}) {
    EXPECT_FALSE(IsSafeInputName(bad)) << bad;
  }
  EXPECT_FALSE(IsSafeInputName(std::string_view("a\0b", 3)));
  EXPECT_EQ(InputDirName("a/b/c"), "a/b");
  EXPECT_EQ(InputDirName("c"), "");
  EXPECT_EQ(InputBaseName("a/b/c"), "c");
}

}  // namespace
}  // namespace graphport
