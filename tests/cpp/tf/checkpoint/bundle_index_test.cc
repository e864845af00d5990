#include "tf/checkpoint/bundle_index.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "tf/checkpoint/bundle_writer.h"

namespace graphport::testing {
namespace {

constexpr char kFile[] = "m/variables/variables.index";

std::string Index(
    const tensorflow::BundleHeaderProto& header,
    const std::vector<std::pair<std::string, tensorflow::BundleEntryProto>>& entries) {
  std::vector<std::pair<std::string, std::string>> table{{"", header.SerializeAsString()}};
  for (const auto& [key, entry] : entries) table.emplace_back(key, entry.SerializeAsString());
  return MakeTable(table, false, 16);
}

tensorflow::BundleHeaderProto Header(int shards = 1) {
  tensorflow::BundleHeaderProto header;
  header.set_num_shards(shards);
  header.mutable_version()->set_producer(1);
  return header;
}

tensorflow::BundleEntryProto Float(std::vector<int64_t> shape, int64_t size, int shard = 0) {
  tensorflow::BundleEntryProto entry;
  entry.set_dtype(tensorflow::DT_FLOAT);
  for (int64_t d : shape) entry.mutable_shape()->add_dim()->set_size(d);
  entry.set_size(size);
  entry.set_shard_id(shard);
  return entry;
}

std::string FailureOf(const std::string& index, ErrorCode* code) {
  try {
    ckpt::ReadBundleIndex(index, kFile, 1 << 20);
  } catch (const Error& e) {
    *code = e.code();
    EXPECT_EQ(e.where().file, kFile);
    return e.what();
  }
  *code = ErrorCode::kInternal;
  return "";
}

TEST(BundleIndexTest, EntriesAndHeader) {
  ckpt::BundleIndex index = ckpt::ReadBundleIndex(
      Index(Header(2), {{"a", Float({2, 3}, 24, 1)}, {"b", Float({}, 4)}}), kFile, 1 << 20);
  EXPECT_EQ(index.num_shards, 2);
  ASSERT_EQ(index.entries.size(), 2u);
  EXPECT_EQ(index.entries[0].key, "a");
  EXPECT_EQ(index.entries[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(index.entries[0].shard_id, 1);
  EXPECT_TRUE(index.slices.empty());
}

TEST(BundleIndexTest, EachBadFieldIsNamed) {
  ErrorCode code;
  EXPECT_NE(FailureOf(Index(Header(), {{"a", Float({2}, 4)}}), &code).find("\"a\""),
            std::string::npos);
  EXPECT_EQ(code, ErrorCode::kParseError);
  FailureOf(Index(Header(), {{"a", Float({2}, 8, 1)}}), &code);  // shard 1 of 1
  EXPECT_EQ(code, ErrorCode::kParseError);
  FailureOf(Index(Header(), {{"a", Float({-1}, 0)}}), &code);
  EXPECT_EQ(code, ErrorCode::kParseError);
  FailureOf(Index(Header(), {{"a", Float({INT64_MAX, 4}, 0)}}), &code);
  EXPECT_EQ(code, ErrorCode::kParseError);
  tensorflow::BundleEntryProto bad_dtype = Float({}, 4);
  bad_dtype.set_dtype(tensorflow::DT_FLOAT_REF);
  FailureOf(Index(Header(), {{"a", bad_dtype}}), &code);
  EXPECT_EQ(code, ErrorCode::kParseError);
  tensorflow::BundleEntryProto negative = Float({}, 4);
  negative.set_offset(-4);
  FailureOf(Index(Header(), {{"a", negative}}), &code);
  EXPECT_EQ(code, ErrorCode::kParseError);
  FailureOf(Index(Header(0), {}), &code);
  EXPECT_EQ(code, ErrorCode::kParseError);
  // No header: the first key is not the empty one.
  FailureOf(MakeTable({{"a", Float({}, 4).SerializeAsString()}}, false, 16), &code);
  EXPECT_EQ(code, ErrorCode::kParseError);
  FailureOf(MakeTable({}, false, 16), &code);
  EXPECT_EQ(code, ErrorCode::kParseError);
  tensorflow::BundleHeaderProto bad_consumer = Header();
  bad_consumer.mutable_version()->add_bad_consumers(1);
  FailureOf(Index(bad_consumer, {}), &code);
  EXPECT_EQ(code, ErrorCode::kUnsupported);
}

TEST(BundleIndexTest, TooManySlicesAreUnsupported) {
  tensorflow::BundleEntryProto entry = Float({5000}, 0);
  for (int i = 0; i <= ckpt::kMaxSlicesPerVariable; ++i) {
    auto* extent = entry.add_slices()->add_extent();
    extent->set_start(i);
    extent->set_length(1);
  }
  ErrorCode code;
  EXPECT_NE(FailureOf(Index(Header(), {{"v", entry}}), &code).find("4097 slices"),
            std::string::npos);
  EXPECT_EQ(code, ErrorCode::kUnsupported);
}

TEST(BundleIndexTest, SlicesAreMatchedToTheirEntries) {
  BundleWriter writer;
  writer.AddSlice("v", tensorflow::DT_FLOAT, {2}, {{0, 1}}, {1}, std::string(4, 'a'));
  writer.AddSlice("v", tensorflow::DT_FLOAT, {2}, {{1, 1}}, {1}, std::string(4, 'b'));
  ckpt::BundleIndex index = ckpt::ReadBundleIndex(writer.Files("p")["p.index"], kFile, 1 << 20);
  ASSERT_EQ(index.entries.size(), 1u);
  EXPECT_EQ(index.entries[0].slices.size(), 2u);
  EXPECT_EQ(index.entries[0].size, 8u);
  EXPECT_EQ(index.slices.size(), 2u);

  // A slice whose stored shape differs from its extents.
  BundleWriter wrong;
  wrong.AddSlice("v", tensorflow::DT_FLOAT, {2}, {{0, 1}}, {2}, std::string(8, 'a'));
  wrong.AddSlice("v", tensorflow::DT_FLOAT, {2}, {{1, 1}}, {1}, std::string(4, 'b'));
  ErrorCode code;
  EXPECT_NE(FailureOf(wrong.Files("p")["p.index"], &code).find("differs"), std::string::npos);
  EXPECT_EQ(code, ErrorCode::kParseError);
}

}  // namespace
}  // namespace graphport::testing
