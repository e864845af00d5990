// proto::CheckWire must never vouch for bytes libprotobuf refuses ("valid"), nor call bytes
// "canonical" that deterministic serialisation would write differently: writers copy such
// bytes instead of re-serialising them.
#include "proto/wire_check.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "graphport_test/schemas.h"
#include "proto_json_test.pb.h"
#include "tensorflow/function.pb.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tensorflow/schemas.h"
#include "test_util.h"

namespace graphport::proto {
namespace {

using tensorflow::NodeDef;

NodeDef RichNode() {
  NodeDef node;
  node.set_name("tower_0/conv/Conv2D");
  node.set_op("Conv2D");
  node.add_input("tower_0/input");
  node.add_input("^tower_0/init");
  node.set_device("/device:GPU:0");
  auto& attrs = *node.mutable_attr();
  attrs["T"].set_type(tensorflow::DT_FLOAT);
  attrs["strides"].mutable_list()->add_i(1);
  attrs["strides"].mutable_list()->add_i(-2);
  attrs["padding"].set_s("SAME");
  attrs["use_cudnn_on_gpu"].set_b(true);
  auto* tensor = attrs["value"].mutable_tensor();
  tensor->set_dtype(tensorflow::DT_FLOAT);
  tensor->mutable_tensor_shape()->add_dim()->set_size(2);
  tensor->add_float_val(1.5f);
  tensor->add_float_val(-0.0f);
  attrs["f"].mutable_func()->set_name("body");
  attrs["shape"].mutable_shape()->add_dim()->set_size(-1);
  attrs["empty"].set_s("");  // a oneof member set to its default is still written
  return node;
}

// A record: tag, length, payload.
std::string Field(int number, const std::string& payload) {
  std::string out;
  out.push_back(static_cast<char>((number << 3) | 2));
  out.push_back(static_cast<char>(payload.size()));
  return out + payload;
}

TEST(WireCheckTest, WhatLibprotobufWritesIsValidAndCanonical) {
  NodeDef node = RichNode();
  WireCheck check = CheckWire(testing::DeterministicBytes(node), SchemaOf<NodeDef>());
  EXPECT_TRUE(check.valid);
  EXPECT_TRUE(check.canonical);
  EXPECT_GT(check.parsed_bytes, testing::DeterministicBytes(node).size());
}

TEST(WireCheckTest, BytesWrittenOtherwiseAreValidButNotCanonical) {
  const std::string name = Field(1, "a"), op = Field(2, "Const");
  struct Case {
    const char* what;
    std::string bytes;
  } cases[] = {
      {"fields out of order", op + name},
      {"a singular field twice", name + name + op},
      {"an empty proto3 string written", name + op + Field(4, "")},
      {"a field the schema lacks, first", std::string("\x48\x01", 2) + name + op},
      {"a padded varint tag", std::string("\x8a\x00", 2) +
                                  std::string("\x01"
                                              "a",
                                              2) +
                                  op},
      {"a packed field written unpacked",
       name + op +
           Field(5, Field(1, "k") + Field(2, Field(1, std::string("\x18\x01\x18\x02", 4))))},
      {"attrs not sorted by key",
       name + op + Field(5, Field(1, "b") + Field(2, std::string("\x28\x01", 2))) +
           Field(5, Field(1, "a") + Field(2, std::string("\x28\x01", 2)))},
      {"a map entry without its key", name + op + Field(5, Field(2, std::string("\x28\x01", 2)))},
      {"a bool written as 2",
       name + op + Field(5, Field(1, "k") + Field(2, std::string("\x28\x02", 2)))},
      // Lengths and values with a padding byte (0x80 then 0x00): parsed alike, written minimal.
      {"a padded length prefix of a name", std::string("\x0a\x81\x00", 3) + "a" + op},
      {"a padded length prefix of an input", name + op + std::string("\x1a\x82\x00", 3) + "in"},
      {"a padded length prefix of an attr entry",
       name + op + std::string("\x2a\x87\x00", 3) + Field(1, "k") + Field(2, "\x28\x01")},
      {"a padded varint value",
       name + op + Field(5, Field(1, "k") + Field(2, std::string("\x18\x87\x00", 3)))},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    WireCheck check = CheckWire(c.bytes, SchemaOf<NodeDef>());
    EXPECT_TRUE(check.valid);
    EXPECT_FALSE(check.canonical);
    NodeDef parsed;
    ASSERT_TRUE(parsed.ParseFromString(c.bytes));
    EXPECT_NE(testing::DeterministicBytes(parsed), c.bytes);
  }
}

// Maps keyed by integers (a FunctionDef's arg_attr and resource_arg_unique_id) are written
// sorted by key value; bytes in that order are canonical, bytes in another are not.
TEST(WireCheckTest, IntegerMapKeysAreCheckedForTheirOrder) {
  tensorflow::FunctionDef function;
  function.mutable_signature()->set_name("f");
  for (uint32_t key : {0u, 1u, 200u, 4000000000u}) {
    (*function.mutable_arg_attr())[key].mutable_attr();
    (*function.mutable_resource_arg_unique_id())[key] = key + 1;
  }
  const std::string sorted = testing::DeterministicBytes(function);
  WireCheck check = CheckWire(sorted, SchemaOf<tensorflow::FunctionDef>());
  EXPECT_TRUE(check.valid);
  EXPECT_TRUE(check.canonical);
  // resource_arg_unique_id (field 8) entries {key: 5, value: 1}, {key: 3, value: 1}: descending.
  const std::string signature = Field(1, Field(1, "f"));
  const std::string reversed = signature + Field(8, std::string("\x08\x05\x10\x01", 4)) +
                               Field(8, std::string("\x08\x03\x10\x01", 4));
  check = CheckWire(reversed, SchemaOf<tensorflow::FunctionDef>());
  EXPECT_TRUE(check.valid);
  EXPECT_FALSE(check.canonical);
  tensorflow::FunctionDef parsed;
  ASSERT_TRUE(parsed.ParseFromString(reversed));
  EXPECT_NE(testing::DeterministicBytes(parsed), reversed);
  // The same two entries ascending, and a key given twice (the parse keeps one).
  const std::string ascending = signature + Field(8, std::string("\x08\x03\x10\x01", 4)) +
                                Field(8, std::string("\x08\x05\x10\x01", 4));
  EXPECT_TRUE(CheckWire(ascending, SchemaOf<tensorflow::FunctionDef>()).canonical);
  ASSERT_TRUE(parsed.ParseFromString(ascending));
  EXPECT_EQ(testing::DeterministicBytes(parsed), ascending);
  const std::string twice = signature + Field(8, std::string("\x08\x03\x10\x01", 4)) +
                            Field(8, std::string("\x08\x03\x10\x02", 4));
  EXPECT_FALSE(CheckWire(twice, SchemaOf<tensorflow::FunctionDef>()).canonical);
}

// Signed keys sort as signed values (-1 before 0), bool keys false first; fixed-width keys
// are not compared, so their maps are never called canonical.
TEST(WireCheckTest, SignedAndBoolMapKeysSortAsTheirValues) {
  graphport::test::Everything message;
  for (int32_t key : {-7, -1, 0, 5}) (*message.mutable_int_map())[key] = "v";
  for (int64_t key : {INT64_MIN, int64_t{-1}, int64_t{3}}) (*message.mutable_long_map())[key];
  (*message.mutable_bool_map())[true] = "t";
  (*message.mutable_bool_map())[false] = "f";
  WireCheck check =
      CheckWire(testing::DeterministicBytes(message), SchemaOf<graphport::test::Everything>());
  EXPECT_TRUE(check.valid);
  EXPECT_TRUE(check.canonical);
  graphport::test::Everything fixed;
  (*fixed.mutable_fixed_map())[1];
  (*fixed.mutable_fixed_map())[2];
  EXPECT_FALSE(
      CheckWire(testing::DeterministicBytes(fixed), SchemaOf<graphport::test::Everything>())
          .canonical);
  // int_map (field 10) entries {key: 0, value: "v"}, {key: -1, value: "v"}: -1 must come first.
  const std::string value = Field(2, "v");
  const std::string zero = Field(10, std::string("\x08\x00", 2) + value);
  const std::string minus_one =
      Field(10, std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11) + value);
  check = CheckWire(zero + minus_one, SchemaOf<graphport::test::Everything>());
  EXPECT_TRUE(check.valid);
  EXPECT_FALSE(check.canonical);
  EXPECT_TRUE(CheckWire(minus_one + zero, SchemaOf<graphport::test::Everything>()).canonical);
  graphport::test::Everything parsed;
  ASSERT_TRUE(parsed.ParseFromString(zero + minus_one));
  EXPECT_EQ(testing::DeterministicBytes(parsed), minus_one + zero);
}

TEST(WireCheckTest, BytesLibprotobufRefusesOrThatAreLeftToItAreNotValid) {
  const std::string op = Field(2, "Const");
  struct Case {
    const char* what;
    std::string bytes;
  } cases[] = {
      {"a name that is not UTF-8", Field(1, "\xff") + op},
      {"cut inside a field", Field(1, "abc").substr(0, 3)},
      {"a group", std::string("\x0b\x0c", 2)},
      {"wire type 7", std::string("\x0f", 1)},
      {"field number 0", std::string("\x02\x00", 2)},
      {"a length past the end", std::string("\x0a\x7f"
                                            "a",
                                            3)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_FALSE(CheckWire(c.bytes, SchemaOf<NodeDef>()).valid);
  }
}

// Every node of every corpus graph, as libprotobuf writes it, is canonical (so real graphs
// take the copying path); and over thousands of mutations of those bytes, "valid" always
// parses and "canonical" always re-serialises to the same bytes, whatever the checker has
// walked before.
TEST(WireCheckTest, CorpusNodesAndTheirMutationsAreJudgedSoundly) {
  std::mt19937 random(20261201);
  WireChecker checker(SchemaOf<NodeDef>());
  int nodes = 0, mutated_valid = 0, mutated_canonical = 0;
  for (const auto& g : testing::CorpusGraphs()) {
    auto root = testing::ReferenceParse(g.kind, testing::ReadFile(g.path()));
    ASSERT_NE(root, nullptr) << g.relative;
    const tensorflow::GraphDef* graph = &testing::GraphOf(g.kind, *root);
    for (const NodeDef& node : graph->node()) {
      std::string bytes = testing::DeterministicBytes(node);
      WireCheck check = checker.Check(bytes);
      ASSERT_TRUE(check.valid && check.canonical) << g.relative << ": " << node.name();
      ++nodes;
      for (int k = 0; k < 20; ++k) {
        std::string copy = bytes;
        copy[random() % copy.size()] ^= static_cast<char>(1 << (random() % 8));
        WireCheck m = checker.Check(copy);
        // The shared checker remembers map entries it walked: what it remembers must judge
        // the bytes as a checker that has seen nothing else does.
        WireCheck fresh = CheckWire(copy, SchemaOf<NodeDef>());
        ASSERT_EQ(m.valid, fresh.valid) << node.name() << " mutation " << k;
        ASSERT_EQ(m.canonical, fresh.canonical) << node.name() << " mutation " << k;
        ASSERT_EQ(m.parsed_bytes, fresh.parsed_bytes) << node.name() << " mutation " << k;
        if (!m.valid) continue;
        ++mutated_valid;
        NodeDef parsed;
        ASSERT_TRUE(parsed.ParseFromString(copy)) << node.name() << " mutation " << k;
        if (!m.canonical) continue;
        ++mutated_canonical;
        ASSERT_EQ(testing::DeterministicBytes(parsed), copy) << node.name() << " mutation " << k;
      }
    }
  }
  EXPECT_GT(nodes, 900);
  EXPECT_GT(mutated_valid, 1000);
  EXPECT_GT(mutated_canonical, 100);
}

// The records a check listed, as offsets into the bytes it checked.
std::vector<std::string> Listed(const std::vector<WatchedRecord>& watched,
                                const std::string& bytes) {
  const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
  std::vector<std::string> listed;
  for (const WatchedRecord& r : watched) {
    listed.push_back(std::to_string(r.number) + "@" + std::to_string(r.start - base) + "," +
                     std::to_string(r.value - base) + "+" + std::to_string(r.length));
  }
  return listed;
}

// A checker that remembers nodes' tails (device and attrs on) answers for every node as a
// walk of it does: valid, canonical, parsed bytes and the records it lists, also for nodes
// whose heads (name, op, inputs) were mutated so that the tail comes again after a head that
// is out of order, padded or broken, and for tails mutated themselves.
TEST(WireCheckTest, RememberedTailsAnswerAsAWalkDoes) {
  std::mt19937 random(20261203);
  WireChecker remembering(SchemaOf<NodeDef>()), walking(SchemaOf<NodeDef>());
  std::vector<WatchedRecord> remembered, walked;
  const uint32_t fields = 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4;
  remembering.Watch(fields, &remembered);
  remembering.MemoTails(NodeDef::kDeviceFieldNumber);
  walking.Watch(fields, &walked);
  int checks = 0;
  auto same = [&](const std::string& bytes, const std::string& what) {
    WireCheck m = remembering.Check(bytes);
    WireCheck w = walking.Check(bytes);
    ASSERT_EQ(m.valid, w.valid) << what;
    ASSERT_EQ(m.canonical, w.canonical) << what;
    ASSERT_EQ(m.parsed_bytes, w.parsed_bytes) << what;
    if (w.valid) {
      ASSERT_EQ(Listed(remembered, bytes), Listed(walked, bytes)) << what;
    }
    ++checks;
  };
  for (const auto& g : testing::CorpusGraphs()) {
    auto root = testing::ReferenceParse(g.kind, testing::ReadFile(g.path()));
    ASSERT_NE(root, nullptr) << g.relative;
    for (const NodeDef& node : testing::GraphOf(g.kind, *root).node()) {
      const std::string bytes = testing::DeterministicBytes(node);
      for (int k = 0; k < 3; ++k) same(bytes, node.name());  // the third sighting is known
      NodeDef renamed = node;
      renamed.set_name(node.name() + "/copy");
      renamed.add_input("^" + node.name());
      same(testing::DeterministicBytes(renamed), renamed.name());
      // Its name written last (out of order), and a head with a flipped bit.
      same(bytes + std::string(1, '\x0a') + std::string(1, '\x01') + "z", node.name() + " +name");
      for (int k = 0; k < 8; ++k) {
        std::string copy = bytes;
        copy[random() % copy.size()] ^= static_cast<char>(1 << (random() % 8));
        same(copy, node.name() + " mutation " + std::to_string(k));
        same(copy, node.name() + " mutation again " + std::to_string(k));
      }
    }
  }
  EXPECT_GT(checks, 10000);
  EXPECT_GT(remembering.tails_known(), 1000u);  // the memo was used, not only offered to
  EXPECT_EQ(walking.tails_known(), 0u);
}

TEST(WireCheckTest, WatchedRecordsAreTheTopLevelOnesOfTheWatchedFieldsInOrder) {
  NodeDef node = RichNode();
  node.add_input("third");
  const std::string bytes = testing::DeterministicBytes(node);
  WireChecker checker(SchemaOf<NodeDef>());
  std::vector<WatchedRecord> watched;
  checker.Watch(1u << 1 | 1u << 3 | 1u << 4, &watched);  // name, input, device
  ASSERT_TRUE(checker.Check(bytes).valid);
  std::vector<std::string> got;
  for (const WatchedRecord& r : watched) {
    const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
    EXPECT_EQ(r.start[0] >> 3, r.number);  // the record starts at its tag
    EXPECT_EQ(r.value + r.length - base <= static_cast<ptrdiff_t>(bytes.size()), true);
    got.push_back(std::to_string(r.number) + ":" +
                  std::string(reinterpret_cast<const char*>(r.value), r.length));
  }
  EXPECT_EQ(got, (std::vector<std::string>{"1:tower_0/conv/Conv2D", "3:tower_0/input",
                                           "3:^tower_0/init", "3:third", "4:/device:GPU:0"}));
  // Each check lists its own message's records; nested strings (attr keys, a padding's "SAME")
  // are not listed.
  NodeDef other;
  other.set_name("x");
  const std::string other_bytes = testing::DeterministicBytes(other);  // the records view it
  ASSERT_TRUE(checker.Check(other_bytes).valid);
  ASSERT_EQ(watched.size(), 1u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(watched[0].value), watched[0].length), "x");
  // A tag written in two bytes (not canonical, still valid) is listed too.
  const std::string padded = std::string("\x8a\x00\x01y", 4);
  WireCheck check = checker.Check(padded);
  ASSERT_TRUE(check.valid);
  EXPECT_FALSE(check.canonical);
  ASSERT_EQ(watched.size(), 1u);
  EXPECT_EQ(watched[0].start, reinterpret_cast<const uint8_t*>(padded.data()));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(watched[0].value), watched[0].length), "y");
}

}  // namespace
}  // namespace graphport::proto
