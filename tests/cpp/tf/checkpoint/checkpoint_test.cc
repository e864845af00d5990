// The checkpoint reader end to end: every real checkpoint we have opens and every value reads
// with its crc verified; the corpus TF2 and TF1 half_plus_two values of research §7; damaged
// indexes and data files give located errors; strings, partitioned variables and several data
// files, built by the tests' own writer, read back.
#include "tf/checkpoint/checkpoint.h"

#include <gtest/gtest.h>

#include <cstring>

#include "core/error.h"
#include "tf/checkpoint/bundle_index.h"
#include "tf/checkpoint/bundle_writer.h"
#include "tf/checkpoint/checkpoint_test_util.h"

namespace graphport::testing {
namespace {

using ckpt::Checkpoint;
using ckpt::VariableEntry;

constexpr char kPrefix[] = "variables/variables";

std::string Floats(std::initializer_list<float> values) {
  std::string out(values.size() * 4, '\0');
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

class CorpusCheckpointTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(CorpusCheckpointTest, OpensAndEveryValueReadsWithItsCrc) {
  ASSERT_TRUE(fs::is_regular_file(GetParam())) << MissingCorpusMessage() << " " << GetParam();
  HeldCheckpoint held = HeldCheckpoint::FromIndex(GetParam());
  auto checkpoint = Checkpoint::Open(held.inputs(), kPrefix);
  ASSERT_FALSE(checkpoint->entries().empty());
  EXPECT_EQ(checkpoint->num_shards(), 1);
  std::string previous;
  for (const VariableEntry& entry : checkpoint->entries()) {
    SCOPED_TRACE(entry.key);
    EXPECT_LT(previous, entry.key);
    previous = entry.key;
    EXPECT_EQ(checkpoint->Find(entry.key), &entry);
    int64_t elements = ckpt::ShapeElements(entry.shape);
    ASSERT_GE(elements, 0);
    if (entry.dtype == tensorflow::DT_STRING) {
      std::vector<std::string> strings = checkpoint->ReadStrings(entry);
      EXPECT_EQ(strings.size(), static_cast<size_t>(elements));
    } else {
      uint64_t width = ckpt::FixedWidthBytes(entry.dtype);
      ASSERT_GT(width, 0u) << tensorflow::DataType_Name(entry.dtype);
      EXPECT_EQ(entry.size, static_cast<uint64_t>(elements) * width);
      std::string content = checkpoint->ReadContent(entry);
      EXPECT_EQ(content.size(), entry.size);
      // The bytes are the data file's, at the entry's offset.
      const std::string& data = held.files()["variables/variables.data-00000-of-00001"];
      EXPECT_EQ(content, data.substr(entry.offset, entry.size));
      StringSink sink;
      checkpoint->StreamContent(entry, &sink);
      EXPECT_EQ(sink.bytes(), content);
      tensorflow::TensorProto tensor;
      checkpoint->ReadTensor(entry, &tensor);
      EXPECT_EQ(tensor.tensor_content(), content);
      EXPECT_EQ(tensor.tensor_shape().dim_size(), static_cast<int>(entry.shape.size()));
    }
  }
  EXPECT_EQ(checkpoint->Find("no such key"), nullptr);
}

INSTANTIATE_TEST_SUITE_P(AllIndexes, CorpusCheckpointTest, ::testing::ValuesIn(CheckpointIndexes()),
                         IndexTestName);

constexpr char kTf2[] =
    "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123/"
    "variables/variables.index";
constexpr char kTf1[] =
    "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_cpu/00000123/"
    "variables/variables.index";

TEST(CheckpointTest, HalfPlusTwoTf2HasTheResearchValues) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  HeldCheckpoint held = HeldCheckpoint::FromIndex(CorpusDir() / kTf2);
  auto checkpoint = Checkpoint::Open(held.inputs(), kPrefix);
  struct Expected {
    const char* key;
    tensorflow::DataType dtype;
    uint64_t offset, size;
    uint32_t crc;
  };
  const Expected expected[] = {
      {"_CHECKPOINTABLE_OBJECT_GRAPH", tensorflow::DT_STRING, 12, 619, 0x47b7d190},
      {"a/.ATTRIBUTES/VARIABLE_VALUE", tensorflow::DT_FLOAT, 0, 4, 0x1f273806},
      {"b/.ATTRIBUTES/VARIABLE_VALUE", tensorflow::DT_FLOAT, 4, 4, 0x4f78fd10},
      {"c/.ATTRIBUTES/VARIABLE_VALUE", tensorflow::DT_FLOAT, 8, 4, 0xc382d6ef},
  };
  ASSERT_EQ(checkpoint->entries().size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    const VariableEntry& e = checkpoint->entries()[i];
    EXPECT_EQ(e.key, expected[i].key);
    EXPECT_EQ(e.dtype, expected[i].dtype);
    EXPECT_TRUE(e.shape.empty());
    EXPECT_EQ(e.shard_id, 0);
    EXPECT_EQ(e.offset, expected[i].offset);
    EXPECT_EQ(e.size, expected[i].size);
    EXPECT_EQ(e.masked_crc32c, expected[i].crc);
    EXPECT_TRUE(e.slices.empty());
  }
  EXPECT_EQ(checkpoint->ReadContent(checkpoint->entries()[1]), Floats({0.5f}));
  EXPECT_EQ(checkpoint->ReadContent(checkpoint->entries()[2]), Floats({2.0f}));
  EXPECT_EQ(checkpoint->ReadContent(checkpoint->entries()[3]), Floats({3.0f}));
  std::vector<std::string> graph_bytes = checkpoint->ReadStrings(checkpoint->entries()[0]);
  ASSERT_EQ(graph_bytes.size(), 1u);
  EXPECT_EQ(graph_bytes[0].size(), 613u);

  tensorflow::TrackableObjectGraph graph;
  ASSERT_TRUE(checkpoint->ReadObjectGraph(&graph));
  ASSERT_EQ(graph.nodes_size(), 24);
  const char* children[] = {"a",
                            "b",
                            "c",
                            "asset",
                            "classify_x2y3",
                            "classify_xy",
                            "predict",
                            "regress_x2y3",
                            "regress_xy",
                            "regress_xy2",
                            "signatures"};
  ASSERT_EQ(graph.nodes(0).children_size(), 11);
  for (int i = 0; i < 11; ++i) {
    EXPECT_EQ(graph.nodes(0).children(i).local_name(), children[i]);
    EXPECT_EQ(graph.nodes(0).children(i).node_id(), i + 1);
  }
  for (int node = 1; node <= 3; ++node) {
    ASSERT_EQ(graph.nodes(node).attributes_size(), 1);
    const auto& attribute = graph.nodes(node).attributes(0);
    std::string name(1, static_cast<char>('a' + node - 1));
    EXPECT_EQ(attribute.name(), "VARIABLE_VALUE");
    EXPECT_EQ(attribute.full_name(), name);
    EXPECT_EQ(attribute.checkpoint_key(), name + "/.ATTRIBUTES/VARIABLE_VALUE");
  }
}

TEST(CheckpointTest, HalfPlusTwoTf1HasItsFiveVariables) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  HeldCheckpoint held = HeldCheckpoint::FromIndex(CorpusDir() / kTf1);
  auto checkpoint = Checkpoint::Open(held.inputs(), kPrefix);
  const std::pair<const char*, float> expected[] = {
      {"a", 0.5f}, {"a2", 0.5f}, {"b", 2.0f}, {"c", 3.0f}, {"c2", 3.0f}};
  ASSERT_EQ(checkpoint->entries().size(), 5u);
  uint64_t offsets = 0;
  for (size_t i = 0; i < 5; ++i) {
    const VariableEntry& e = checkpoint->entries()[i];
    EXPECT_EQ(e.key, expected[i].first);
    EXPECT_EQ(e.dtype, tensorflow::DT_FLOAT);
    EXPECT_EQ(checkpoint->ReadContent(e), Floats({expected[i].second})) << e.key;
    offsets |= uint64_t{1} << (e.offset / 4);
  }
  EXPECT_EQ(offsets, 0x1Fu);  // offsets 0, 4, ..., 16, each once
  tensorflow::TrackableObjectGraph graph;
  EXPECT_FALSE(checkpoint->ReadObjectGraph(&graph));
}

TEST(CheckpointTest, MissingIndexIsNotFound) {
  HeldCheckpoint held(std::map<std::string, std::string>{{"variables/other", "x"}});
  try {
    Checkpoint::Open(held.inputs(), kPrefix);
    FAIL() << "opened";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_NE(std::string(e.what()).find("variables/variables.index"), std::string::npos);
  }
}

// Every prefix of the index, and every byte flipped, gives a parse error or not-found naming
// the index, never anything else; what opens reads each value or fails the same way.
void ExpectCleanFailure(HeldCheckpoint* held, const std::string& what) {
  held->Refresh();
  try {
    auto checkpoint = Checkpoint::Open(held->inputs(), kPrefix);
    for (const VariableEntry& entry : checkpoint->entries()) {
      if (entry.dtype == tensorflow::DT_STRING) {
        checkpoint->ReadStrings(entry);
      } else if (ckpt::FixedWidthBytes(entry.dtype) > 0) {
        checkpoint->ReadContent(entry);
      }
    }
  } catch (const Error& e) {
    ASSERT_TRUE(e.code() == ErrorCode::kParseError || e.code() == ErrorCode::kNotFound)
        << what << ": " << ErrorCodeName(e.code()) << " " << e.what();
    ASSERT_NE(std::string(e.what()).find("variables/variables."), std::string::npos)
        << what << ": " << e.what();
    ASSERT_FALSE(e.where().file.empty()) << what;
  }
}

class DamagedIndexTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(DamagedIndexTest, EveryTruncationFailsCleanly) {
  ASSERT_TRUE(fs::is_regular_file(GetParam())) << MissingCorpusMessage() << " " << GetParam();
  HeldCheckpoint held = HeldCheckpoint::FromIndex(GetParam());
  const std::string index = held.files()["variables/variables.index"];
  for (size_t n = 0; n < index.size(); ++n) {
    held.files()["variables/variables.index"] = index.substr(0, n);
    ExpectCleanFailure(&held, "first " + std::to_string(n) + " bytes");
    if (HasFatalFailure()) return;
  }
}

TEST_P(DamagedIndexTest, EveryBitFlipFailsCleanly) {
  ASSERT_TRUE(fs::is_regular_file(GetParam())) << MissingCorpusMessage() << " " << GetParam();
  HeldCheckpoint held = HeldCheckpoint::FromIndex(GetParam());
  const std::string index = held.files()["variables/variables.index"];
  for (size_t i = 0; i < index.size(); ++i) {
    for (uint8_t mask : {0x01, 0x80}) {
      std::string flipped = index;
      flipped[i] = static_cast<char>(flipped[i] ^ mask);
      held.files()["variables/variables.index"] = flipped;
      // A flip the crc32c catches cannot open; the footer's padding is outside every crc.
      ExpectCleanFailure(&held, "byte " + std::to_string(i) + " ^ " + std::to_string(mask));
      if (HasFatalFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllIndexes, DamagedIndexTest, ::testing::ValuesIn(CheckpointIndexes()),
                         IndexTestName);

TEST(CheckpointTest, FlippedDataByteNamesKeyShardAndOffset) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  HeldCheckpoint held = HeldCheckpoint::FromIndex(CorpusDir() / kTf2);
  std::string& data = held.files()["variables/variables.data-00000-of-00001"];
  data[5] = static_cast<char>(data[5] ^ 0x01);  // inside b (offset 4)
  held.Refresh();
  auto checkpoint = Checkpoint::Open(held.inputs(), kPrefix);
  const VariableEntry* b = checkpoint->Find("b/.ATTRIBUTES/VARIABLE_VALUE");
  ASSERT_NE(b, nullptr);
  for (int streamed = 0; streamed < 2; ++streamed) {
    try {
      if (streamed) {
        StringSink sink;
        checkpoint->StreamContent(*b, &sink);
        EXPECT_EQ(sink.bytes().size(), 4u);  // every chunk went out before the throw
      } else {
        checkpoint->ReadContent(*b);
      }
      FAIL() << "read a damaged value";
    } catch (const Error& e) {
      std::string message = e.what();
      EXPECT_EQ(e.code(), ErrorCode::kParseError);
      EXPECT_NE(message.find("b/.ATTRIBUTES/VARIABLE_VALUE"), std::string::npos) << message;
      EXPECT_NE(message.find("variables/variables.data-00000-of-00001"), std::string::npos)
          << message;
      EXPECT_NE(message.find("byte 4"), std::string::npos) << message;
      EXPECT_EQ(e.where().offset, 4);
    }
  }
  // The other values are untouched.
  EXPECT_EQ(checkpoint->ReadContent(*checkpoint->Find("c/.ATTRIBUTES/VARIABLE_VALUE")),
            Floats({3.0f}));
  // A flipped byte of the object graph's strings.
  data[12 + 2 + 4 + 100] ^= 0x01;
  held.Refresh();
  checkpoint = Checkpoint::Open(held.inputs(), kPrefix);
  tensorflow::TrackableObjectGraph graph;
  try {
    checkpoint->ReadObjectGraph(&graph);
    FAIL() << "read a damaged object graph";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("_CHECKPOINTABLE_OBJECT_GRAPH"), std::string::npos);
  }
}

TEST(CheckpointTest, MissingDataFileIsNotFoundWhenAValueIsRead) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  HeldCheckpoint held = HeldCheckpoint::FromIndex(CorpusDir() / kTf2);
  held.files().erase("variables/variables.data-00000-of-00001");
  held.Refresh();
  auto checkpoint = Checkpoint::Open(held.inputs(), kPrefix);  // the index alone opens
  EXPECT_EQ(checkpoint->entries().size(), 4u);
  try {
    checkpoint->ReadContent(checkpoint->entries()[1]);
    FAIL() << "read without a data file";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    EXPECT_NE(std::string(e.what()).find("variables.data-00000-of-00001"), std::string::npos);
  }
}

TEST(CheckpointTest, WrittenBundleWithStringsSlicesAndShardsReadsBack) {
  for (bool snappy : {false, true}) {
    SCOPED_TRACE(snappy ? "snappy" : "plain");
    BundleWriter writer(3);
    writer.AddStrings("names", {3}, {"", "two", std::string("n\0l", 3)}, 1);
    writer.AddStrings("scalar_string", {}, {std::string(300, 'x')}, 2);
    writer.AddTensor("ints", tensorflow::DT_INT32, {2, 2},
                     std::string("\1\0\0\0\2\0\0\0\3\0\0\0\4\0\0\0", 16), 2);
    writer.AddTensor("empty", tensorflow::DT_DOUBLE, {0, 5}, "", 0);
    // A 4 x 3 float variable in two row slices and a 2 x 4 int64 one in two column slices,
    // stored in different data files.
    std::vector<float> whole(12);
    for (int i = 0; i < 12; ++i) whole[i] = static_cast<float>(i) + 0.25f;
    auto rows = [&](int first, int count) {
      return std::string(reinterpret_cast<const char*>(whole.data() + first * 3),
                         static_cast<size_t>(count) * 12);
    };
    writer.AddSlice("part/kernel", tensorflow::DT_FLOAT, {4, 3}, {{0, 1}, {0, -1}}, {1, 3},
                    rows(0, 1), 0);
    writer.AddSlice("part/kernel", tensorflow::DT_FLOAT, {4, 3}, {{1, 3}, {0, -1}}, {3, 3},
                    rows(1, 3), 1);
    int64_t cols_a[] = {0, 1, 4, 5}, cols_b[] = {2, 3, 6, 7};  // [[0 1 2 3] [4 5 6 7]]
    writer.AddSlice("part/cols", tensorflow::DT_INT64, {2, 4}, {{0, -1}, {0, 2}}, {2, 2},
                    std::string(reinterpret_cast<const char*>(cols_a), 32), 2);
    writer.AddSlice("part/cols", tensorflow::DT_INT64, {2, 4}, {{0, -1}, {2, 2}}, {2, 2},
                    std::string(reinterpret_cast<const char*>(cols_b), 32), 0);
    HeldCheckpoint held(writer.Files(kPrefix, snappy, /*per_block=*/2));
    auto checkpoint = Checkpoint::Open(held.inputs(), kPrefix);
    EXPECT_EQ(checkpoint->num_shards(), 3);
    std::vector<std::string> keys;
    for (const auto& e : checkpoint->entries()) keys.push_back(e.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"empty", "ints", "names", "part/cols", "part/kernel",
                                              "scalar_string"}));

    EXPECT_EQ(checkpoint->ReadStrings(*checkpoint->Find("names")),
              (std::vector<std::string>{"", "two", std::string("n\0l", 3)}));
    EXPECT_EQ(checkpoint->ReadStrings(*checkpoint->Find("scalar_string")),
              std::vector<std::string>{std::string(300, 'x')});
    tensorflow::TensorProto tensor;
    checkpoint->ReadTensor(*checkpoint->Find("names"), &tensor);
    EXPECT_EQ(tensor.dtype(), tensorflow::DT_STRING);
    EXPECT_EQ(tensor.string_val_size(), 3);
    EXPECT_EQ(tensor.tensor_shape().dim(0).size(), 3);
    EXPECT_EQ(checkpoint->ReadContent(*checkpoint->Find("ints")).size(), 16u);
    EXPECT_EQ(checkpoint->ReadContent(*checkpoint->Find("empty")), "");

    const VariableEntry* kernel = checkpoint->Find("part/kernel");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->slices.size(), 2u);
    EXPECT_EQ(kernel->shape, (std::vector<int64_t>{4, 3}));
    EXPECT_EQ(kernel->size, 48u);
    EXPECT_EQ(checkpoint->ReadContent(*kernel),
              std::string(reinterpret_cast<const char*>(whole.data()), 48));
    StringSink sink;
    checkpoint->StreamContent(*kernel, &sink);
    EXPECT_EQ(sink.bytes(), checkpoint->ReadContent(*kernel));
    int64_t cols[8];
    std::string cols_bytes = checkpoint->ReadContent(*checkpoint->Find("part/cols"));
    ASSERT_EQ(cols_bytes.size(), 64u);
    std::memcpy(cols, cols_bytes.data(), 64);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(cols[i], i);

    // Strings asked of a float tensor, content of a string one: the caller's mistake, said.
    EXPECT_THROW(checkpoint->ReadStrings(*kernel), Error);
    EXPECT_THROW(checkpoint->ReadContent(*checkpoint->Find("names")), Error);
  }
}

TEST(CheckpointTest, PartitionedStringsReassemble) {
  BundleWriter writer(2);
  writer.AddStringSlice("words", {2, 2}, {{0, 2}, {1, 1}}, {2, 1}, {"b", "d"}, 1);
  writer.AddStringSlice("words", {2, 2}, {{0, 2}, {0, 1}}, {2, 1}, {"a", "c"}, 0);
  HeldCheckpoint held(writer.Files(kPrefix, /*snappy=*/true));
  auto checkpoint = Checkpoint::Open(held.inputs(), kPrefix);
  ASSERT_EQ(checkpoint->entries().size(), 1u);
  EXPECT_EQ(checkpoint->ReadStrings(checkpoint->entries()[0]),
            (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(CheckpointTest, SlicesThatDoNotCoverTheTensorAreRejected) {
  BundleWriter writer;
  writer.AddSlice("v", tensorflow::DT_FLOAT, {4}, {{0, 2}}, {2}, Floats({1, 2}));
  HeldCheckpoint held(writer.Files(kPrefix));
  try {
    Checkpoint::Open(held.inputs(), kPrefix);
    FAIL() << "opened";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("covering 2 of its 4"), std::string::npos) << e.what();
  }
}

TEST(CheckpointTest, SizeThatDisagreesWithDtypeAndShapeIsRejected) {
  BundleWriter writer;
  writer.AddTensor("v", tensorflow::DT_FLOAT, {3}, Floats({1, 2}));
  HeldCheckpoint held(writer.Files(kPrefix));
  try {
    Checkpoint::Open(held.inputs(), kPrefix);
    FAIL() << "opened";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("holds 8 bytes where a DT_FLOAT tensor of 3 elements"),
              std::string::npos)
        << e.what();
  }
}

TEST(CheckpointTest, BigEndianAndNewerCheckpointsAreUnsupported) {
  for (int variant = 0; variant < 2; ++variant) {
    tensorflow::BundleHeaderProto header;
    header.set_num_shards(1);
    if (variant == 0) header.set_endianness(tensorflow::BundleHeaderProto::BIG);
    if (variant == 1) header.mutable_version()->set_min_consumer(2);
    HeldCheckpoint held(
        {{"variables/variables.index", MakeTable({{"", header.SerializeAsString()}}, false, 10)}});
    try {
      Checkpoint::Open(held.inputs(), kPrefix);
      FAIL() << "opened";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kUnsupported) << e.what();
    }
  }
}

TEST(CheckpointTest, DataRangePastTheFileIsAParseError) {
  BundleWriter writer;
  writer.AddTensor("v", tensorflow::DT_FLOAT, {2}, Floats({1, 2}));
  HeldCheckpoint held(writer.Files(kPrefix));
  held.files()["variables/variables.data-00000-of-00001"].resize(6);
  held.Refresh();
  auto checkpoint = Checkpoint::Open(held.inputs(), kPrefix);
  try {
    checkpoint->ReadContent(checkpoint->entries()[0]);
    FAIL() << "read";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("runs past the end of the file (6 bytes)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace graphport::testing
