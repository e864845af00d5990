#include "tf/checkpoint/table_block.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "tf/checkpoint/bundle_writer.h"

namespace graphport::testing {
namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

Entries Read(const std::string& block) {
  Entries out;
  ckpt::ReadBlockEntries(block, ckpt::BlockPlace{"m/variables/variables.index", 7},
                         [&](const std::string& key, std::string_view value) {
                           out.emplace_back(key, std::string(value));
                         });
  return out;
}

TEST(TableBlockTest, PrefixCompressedKeysAreRebuilt) {
  Entries entries;
  for (int i = 0; i < 40; ++i) {
    entries.emplace_back("layer_" + std::to_string(100 + i) + "/kernel", std::to_string(i));
  }
  for (size_t interval : {1, 3, 16}) EXPECT_EQ(Read(MakeBlock(entries, interval)), entries);
  EXPECT_TRUE(Read(MakeBlock({}, 16)).empty());
}

TEST(TableBlockTest, TheCorpusMetaindexIsEmpty) {
  // research §1.7: an empty block is one restart at 0 and the count 1.
  EXPECT_TRUE(Read(std::string("\0\0\0\0\1\0\0\0", 8)).empty());
}

ErrorCode Fails(const std::string& block) {
  try {
    Read(block);
  } catch (const Error& e) {
    EXPECT_EQ(e.where().file, "m/variables/variables.index");
    EXPECT_EQ(e.where().offset, 7);
    return e.code();
  }
  return ErrorCode::kInternal;
}

TEST(TableBlockTest, MalformedBlocksAreParseErrors) {
  std::string block = MakeBlock({{"abc", "1"}, {"abd", "2"}}, 16);
  EXPECT_EQ(Fails(block.substr(0, 3)), ErrorCode::kParseError);  // no restart count
  std::string many = block;
  many[many.size() - 4] = 100;  // more restarts than fit
  EXPECT_EQ(Fails(many), ErrorCode::kParseError);
  std::string shared = block;
  shared[0] = 2;  // the first entry shares bytes of no key
  EXPECT_EQ(Fails(shared), ErrorCode::kParseError);
  std::string long_value = block;
  long_value[2] = 100;  // value runs past the entries
  EXPECT_EQ(Fails(long_value), ErrorCode::kParseError);
  // A restart point inside an entry.
  std::string restart = MakeBlock({{"abc", "1"}, {"abd", "2"}}, 1);
  restart[restart.size() - 8] = 3;
  EXPECT_EQ(Fails(restart), ErrorCode::kParseError);
}

}  // namespace
}  // namespace graphport::testing
