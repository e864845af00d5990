#include "tf/checkpoint/table.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "tf/checkpoint/bundle_writer.h"
#include "tf/checkpoint/checkpoint_test_util.h"

namespace graphport::testing {
namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

Entries ReadTableFile(const std::string& file, std::vector<uint64_t>* blocks = nullptr) {
  Entries out;
  ckpt::ReadTable(
      file, "m/variables/variables.index", 1 << 20,
      [&](const std::string& key, std::string_view value, const ckpt::BlockPlace& place) {
        out.emplace_back(key, std::string(value));
        if (blocks) blocks->push_back(place.offset);
      });
  return out;
}

TEST(TableTest, TheCorpusSnappyIndexHasTheResearchLayout) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::string file = ReadCorpus(
      "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123/"
      "variables/variables.index");
  ASSERT_EQ(file.size(), 239u);
  EXPECT_EQ(file.substr(231), std::string("\x57\xfb\x80\x8b\x24\x75\x47\xdb", 8));
  // The data block's trailer: snappy, masked crc LE fd 7e cf 88 over 153 bytes + type.
  EXPECT_EQ(file[153], '\x01');
  EXPECT_EQ(ckpt::UnmaskCrc(0x88cf7efdu), ckpt::Crc32c(file.substr(0, 154)));
  std::vector<uint64_t> blocks;
  Entries entries = ReadTableFile(file, &blocks);
  std::vector<std::string> keys;
  for (const auto& e : entries) keys.push_back(e.first);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "", "_CHECKPOINTABLE_OBJECT_GRAPH", "a/.ATTRIBUTES/VARIABLE_VALUE",
                      "b/.ATTRIBUTES/VARIABLE_VALUE", "c/.ATTRIBUTES/VARIABLE_VALUE"}));
  EXPECT_EQ(blocks, std::vector<uint64_t>(5, 0));                            // one data block, at 0
  EXPECT_EQ(entries[0].second, std::string("\x08\x01\x1a\x02\x08\x01", 6));  // the header
}

TEST(TableTest, WrittenTablesReadBackPlainAndSnappy) {
  Entries entries;
  for (int i = 0; i < 100; ++i) {
    entries.emplace_back("v" + std::to_string(1000 + i), std::string(i % 7, 'x'));
  }
  for (bool snappy : {false, true}) {
    for (size_t per_block : {1, 16, 1000}) {
      std::vector<uint64_t> blocks;
      EXPECT_EQ(ReadTableFile(MakeTable(entries, snappy, per_block), &blocks), entries);
      EXPECT_EQ(blocks.back() > 0, per_block < 100);
    }
  }
}

ErrorCode TableFileFails(const std::string& file) {
  try {
    ReadTableFile(file);
  } catch (const Error& e) {
    EXPECT_EQ(e.where().file, "m/variables/variables.index") << e.what();
    return e.code();
  }
  return ErrorCode::kInternal;
}

TEST(TableTest, DamageIsLocated) {
  std::string file = MakeTable({{"a", "1"}, {"b", "2"}}, false, 1);
  EXPECT_EQ(TableFileFails(file.substr(0, 47)), ErrorCode::kParseError);  // shorter than the footer
  std::string magic = file;
  magic.back() ^= 1;
  EXPECT_EQ(TableFileFails(magic), ErrorCode::kParseError);
  std::string crc = file;
  crc[1] ^= 1;  // inside the first data block
  EXPECT_EQ(TableFileFails(crc), ErrorCode::kParseError);
  // Keys out of order, each block on its own intact.
  EXPECT_EQ(TableFileFails(MakeTable({{"b", "1"}, {"a", "2"}}, false, 1)), ErrorCode::kParseError);
  EXPECT_EQ(TableFileFails(MakeTable({{"a", "1"}, {"a", "2"}}, false, 16)), ErrorCode::kParseError);
}

TEST(TableTest, AnUnknownCompressionTypeIsUnsupported) {
  std::string file;
  std::string handle = AppendBlock(MakeBlock({{"a", "1"}}, 16), false, &file);
  // Rewrite the trailer with type 2 and its matching crc.
  size_t type_at = file.size() - 5;
  file[type_at] = 2;
  uint32_t crc = ckpt::Crc32c(file.substr(0, type_at + 1));
  file.resize(type_at + 1);
  PutLe32(ckpt::MaskCrc(crc), &file);
  std::string metaindex = AppendBlock(MakeBlock({}, 16), false, &file);
  std::string index = AppendBlock(MakeBlock({{"a", handle}}, 1), false, &file);
  std::string footer = metaindex + index;
  footer.resize(40, '\0');
  PutLe32(static_cast<uint32_t>(ckpt::kTableMagic), &footer);
  PutLe32(static_cast<uint32_t>(ckpt::kTableMagic >> 32), &footer);
  EXPECT_EQ(TableFileFails(file + footer), ErrorCode::kUnsupported);
}

}  // namespace
}  // namespace graphport::testing
