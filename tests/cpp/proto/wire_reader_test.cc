// The one wire reader (proto/wire_reader.h): varints, records, groups and the nesting limit,
// with the fault and the byte offset each kind of bad input gives.
#include "proto/wire_reader.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "every_field.pb.h"
#include "proto/wire_check.h"
#include "test_util.h"
#include "text_test/schemas.h"

namespace graphport::proto {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out += static_cast<char>(v);
  return out;
}

// What a reader over `bytes` reads: every record, then why it stopped.
struct Walked {
  std::vector<Record> records;
  Record last;  // what Next() left at the fault
  WireFault fault = WireFault::kNone;
  size_t offset = 0;
};

Walked Walk(const std::string& bytes, int depth = 0) {
  Walked walked;
  WireReader reader(bytes, depth);
  Record r;
  while (reader.Next(&r)) walked.records.push_back(r);
  walked.last = r;
  walked.fault = reader.fault();
  walked.offset = reader.fault_offset();
  return walked;
}

TEST(WireReaderVarint, ReadsOneToTenBytesAndSaysWhetherTheyAreMinimal) {
  struct Case {
    std::string bytes;
    uint64_t value;
    bool minimal;
  } cases[] = {
      {Bytes({0x00}), 0, true},
      {Bytes({0x7f}), 127, true},
      {Bytes({0x80, 0x01}), 128, true},
      {Bytes({0x80, 0x00}), 0, false},  // padded
      {Bytes({0xff, 0x80, 0x00}), 127, false},
      {std::string(9, '\xff') + Bytes({0x01}), UINT64_MAX, true},
      // A tenth byte's bits past the 64th are dropped, as libprotobuf drops them.
      {std::string(9, '\xff') + Bytes({0x7f}), UINT64_MAX, false},
  };
  for (const Case& c : cases) {
    const uint8_t* p = testing::Data(c.bytes);
    const uint8_t* end = p + c.bytes.size();
    uint64_t value = 1;
    bool minimal = !c.minimal;
    ASSERT_TRUE(ReadVarint(&p, end, &value, &minimal)) << c.value;
    EXPECT_EQ(p, end) << c.value;
    EXPECT_EQ(value, c.value);
    EXPECT_EQ(minimal, c.minimal) << c.value;
    p = testing::Data(c.bytes);
    ASSERT_TRUE(ReadVarint(&p, end, &value));
    EXPECT_EQ(value, c.value);
  }
}

TEST(WireReaderVarint, RefusesElevenBytesAndCutOffOnes) {
  const std::string overlong = std::string(10, '\x80') + Bytes({0x01});
  const uint8_t* p = testing::Data(overlong);
  uint64_t value;
  EXPECT_FALSE(ReadVarint(&p, testing::Data(overlong) + overlong.size(), &value));
  const std::string cut = Bytes({0x80, 0x80});
  p = testing::Data(cut);
  EXPECT_FALSE(ReadVarint(&p, testing::Data(cut) + cut.size(), &value));
}

TEST(WireReaderVarint, TheBuilderReadsAByteAtATime) {
  VarintBuilder builder;
  EXPECT_EQ(builder.Add(0x96), VarintBuilder::kMore);
  EXPECT_TRUE(builder.started());
  EXPECT_EQ(builder.Add(0x01), VarintBuilder::kDone);
  EXPECT_EQ(builder.value(), 150u);
  EXPECT_FALSE(builder.started());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(builder.Add(0x80), VarintBuilder::kMore) << i;
  EXPECT_EQ(builder.Add(0x01), VarintBuilder::kOverlong);
}

TEST(WireReader, ReadsEachWireTypeWhereItIs) {
  // 1: varint 150; 2: "ab"; 3: fixed32; 4: fixed64; field 2047 (a two-byte tag): varint 1.
  const std::string bytes =
      Bytes({0x08, 0x96, 0x01, 0x12, 0x02, 'a', 'b', 0x1d, 1, 2,    3,    4,
             0x21, 1,    2,    3,    4,    5,   6,   7,    8, 0xf8, 0x7f, 0x01});
  Walked w = Walk(bytes);
  EXPECT_EQ(w.fault, WireFault::kNone);
  ASSERT_EQ(w.records.size(), 5u);
  EXPECT_EQ(w.records[0].number, 1);
  EXPECT_EQ(w.records[0].varint, 150u);
  EXPECT_EQ(w.records[1].view(), "ab");
  EXPECT_EQ(w.records[1].start - testing::Data(bytes), 3);
  EXPECT_EQ(w.records[2].wire_type, kWireFixed32);
  EXPECT_EQ(w.records[2].end - testing::Data(bytes), 12);
  EXPECT_EQ(w.records[3].wire_type, kWireFixed64);
  EXPECT_EQ(w.records[4].number, 2047);
  EXPECT_EQ(w.records[4].varint, 1u);
  EXPECT_EQ(w.records[4].end, testing::Data(bytes) + bytes.size());
}

// Each part of a record cut off by the end: kTruncated at the record's tag, with what was read
// of it.
TEST(WireReader, TruncationsAreFaultsAtTheirRecord) {
  struct Case {
    const char* what;
    std::string bytes;
    size_t offset;
    int wire_type;
  } cases[] = {
      {"tag", Bytes({0x08, 0x01, 0x80}), 2, -1},
      {"varint value", Bytes({0x08, 0x01, 0x08, 0x80}), 2, kWireVarint},
      {"fixed32", Bytes({0x0d, 0x00, 0x00}), 0, kWireFixed32},
      {"fixed64", Bytes({0x08, 0x00, 0x09, 1, 2, 3, 4, 5, 6, 7}), 2, kWireFixed64},
      {"length", Bytes({0x0a}), 0, kWireLength},
      {"payload", Bytes({0x08, 0x00, 0x0a, 0x05, 'a'}), 2, kWireLength},
  };
  for (const Case& c : cases) {
    Walked w = Walk(c.bytes);
    EXPECT_EQ(w.fault, WireFault::kTruncated) << c.what;
    EXPECT_EQ(w.offset, c.offset) << c.what;
    EXPECT_EQ(w.last.wire_type, c.wire_type) << c.what;
    EXPECT_EQ(w.last.start, testing::Data(c.bytes) + c.offset) << c.what;
  }
  // A cut-off payload keeps its claimed length, for the message that names it.
  Walked payload = Walk(Bytes({0x0a, 0x05, 'a'}));
  EXPECT_EQ(payload.last.length, 5u);
  EXPECT_EQ(payload.last.value - payload.last.start, 2);
}

TEST(WireReader, AnOverlongVarintIsNotATruncation) {
  const std::string overlong = std::string(10, '\xff') + Bytes({0x01});
  struct Case {
    const char* what;
    std::string bytes;
    size_t offset;
  } cases[] = {
      {"tag", Bytes({0x08, 0x00}) + overlong, 2},
      {"value", Bytes({0x08}) + overlong, 0},
      {"length", Bytes({0x10, 0x01, 0x0a}) + overlong, 2},
  };
  for (const Case& c : cases) {
    Walked w = Walk(c.bytes);
    EXPECT_EQ(w.fault, WireFault::kOverlongVarint) << c.what;
    EXPECT_EQ(w.offset, c.offset) << c.what;
  }
}

TEST(WireReader, FieldNumbersAndWireTypesOutsideTheFormatAreFaults) {
  Walked zero = Walk(Bytes({0x08, 0x01, 0x00, 0x01}));
  EXPECT_EQ(zero.fault, WireFault::kBadFieldNumber);
  EXPECT_EQ(zero.offset, 2u);
  // 2^29 (tag 2^32) is one past the largest field number; 2^29 - 1 reads.
  Walked too_large = Walk(Bytes({0x80, 0x80, 0x80, 0x80, 0x10, 0x00}));
  EXPECT_EQ(too_large.fault, WireFault::kBadFieldNumber);
  EXPECT_EQ(too_large.offset, 0u);
  Walked largest = Walk(Bytes({0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00}));
  EXPECT_EQ(largest.fault, WireFault::kNone);
  ASSERT_EQ(largest.records.size(), 1u);
  EXPECT_EQ(static_cast<uint64_t>(largest.records[0].number), kMaxFieldNumber);
  for (int tag : {0x0e, 0x0f}) {  // field 1, wire types 6 and 7
    Walked w = Walk(Bytes({0x08, 0x01, tag, 0x00}));
    EXPECT_EQ(w.fault, WireFault::kBadWireType) << tag;
    EXPECT_EQ(w.offset, 2u) << tag;
    EXPECT_EQ(w.last.number, 1) << tag;
  }
}

TEST(WireReader, AGroupIsOneRecordWithItsBodyAsPayload) {
  // group 1 { 2: 5, group 3 {} }, then 4: 1.
  const std::string bytes = Bytes({0x0b, 0x10, 0x05, 0x1b, 0x1c, 0x0c, 0x20, 0x01});
  Walked w = Walk(bytes);
  EXPECT_EQ(w.fault, WireFault::kNone);
  ASSERT_EQ(w.records.size(), 2u);
  const Record& group = w.records[0];
  EXPECT_EQ(group.number, 1);
  EXPECT_EQ(group.wire_type, kWireStartGroup);
  EXPECT_EQ(group.view(), Bytes({0x10, 0x05, 0x1b, 0x1c}));
  EXPECT_EQ(group.end - testing::Data(bytes), 6);
  EXPECT_EQ(w.records[1].number, 4);
  // The body reads as a message one level down, its own group too.
  WireReader reader(bytes);
  Record r;
  ASSERT_TRUE(reader.Next(&r));
  WireReader body = reader.Nested(r);
  EXPECT_EQ(body.depth(), 1);
  Record inner;
  ASSERT_TRUE(body.Next(&inner));
  EXPECT_EQ(inner.varint, 5u);
  ASSERT_TRUE(body.Next(&inner));
  EXPECT_EQ(inner.wire_type, kWireStartGroup);
  EXPECT_EQ(inner.length, 0u);
  EXPECT_FALSE(body.Next(&inner));
  EXPECT_EQ(body.fault(), WireFault::kNone);
}

TEST(WireReader, GroupsThatDoNotMatchAreFaultsAtTheTagAtFault) {
  struct Case {
    const char* what;
    std::string bytes;
    WireFault fault;
    size_t offset;
  } cases[] = {
      // An end-group of another number than the group's: at that end tag.
      {"other number", Bytes({0x08, 0x00, 0x0b, 0x10, 0x01, 0x14}), WireFault::kGroupMismatch, 5},
      // An end-group with no group open.
      {"end alone", Bytes({0x08, 0x01, 0x0c}), WireFault::kGroupMismatch, 2},
      // A group the bytes end in: at its start tag.
      {"unclosed", Bytes({0x08, 0x01, 0x0b, 0x10, 0x05}), WireFault::kUnclosedGroup, 2},
      {"unclosed inner", Bytes({0x0b, 0x1b, 0x0c}), WireFault::kGroupMismatch, 2},
      // A fault inside a group's body is the fault, where it is.
      {"cut inside", Bytes({0x0b, 0x12, 0x09, 0x00}), WireFault::kTruncated, 1},
  };
  for (const Case& c : cases) {
    Walked w = Walk(c.bytes);
    EXPECT_EQ(w.fault, c.fault) << c.what << ": " << WireFaultName(w.fault);
    EXPECT_EQ(w.offset, c.offset) << c.what;
  }
}

TEST(WireReader, OffsetsCountFromTheInputsStart) {
  const std::string input = Bytes({0x0a, 0x04, 0x08, 0x01, 0x10, 0x80});
  WireReader reader(input);
  Record r;
  ASSERT_TRUE(reader.Next(&r));
  WireReader nested = reader.Nested(r);
  Record inner;
  ASSERT_TRUE(nested.Next(&inner));
  EXPECT_FALSE(nested.Next(&inner));
  EXPECT_EQ(nested.fault(), WireFault::kTruncated);
  EXPECT_EQ(nested.fault_offset(), 4u);  // in the input, not in the nested message
  EXPECT_EQ(nested.FaultText(), "truncated at byte 4");
}

// The nesting limit: groups nest to kMaxProtoNesting levels, and a reader one level past it
// reads nothing.
TEST(WireReader, GroupsNestToTheLimitAndNoFurther) {
  for (int levels : {kMaxProtoNesting, kMaxProtoNesting + 1}) {
    const std::string bytes =
        std::string(static_cast<size_t>(levels), '\x0b') + std::string(levels, '\x0c');
    Walked w = Walk(bytes);
    if (levels <= kMaxProtoNesting) {
      EXPECT_EQ(w.fault, WireFault::kNone) << levels;
      EXPECT_EQ(w.records.size(), 1u);
    } else {
      EXPECT_EQ(w.fault, WireFault::kTooDeep) << levels;
      EXPECT_EQ(w.offset, static_cast<size_t>(kMaxProtoNesting)) << levels;  // the 101st tag
    }
  }
}

TEST(WireReader, AMessagePastTheLimitIsAFaultAtItsRecord) {
  const std::string bytes = Bytes({0x08, 0x01, 0x0a, 0x02, 0x08, 0x01});
  EXPECT_EQ(Walk(bytes, kMaxProtoNesting).fault, WireFault::kNone);
  EXPECT_EQ(Walk(bytes, kMaxProtoNesting + 1).fault, WireFault::kTooDeep);
  WireReader reader(bytes, kMaxProtoNesting);
  Record r;
  ASSERT_TRUE(reader.Next(&r));
  ASSERT_TRUE(reader.Next(&r));
  WireReader deeper = reader.Nested(r);
  Record inner;
  EXPECT_FALSE(deeper.Next(&inner));
  EXPECT_EQ(deeper.fault(), WireFault::kTooDeep);
  EXPECT_EQ(deeper.fault_offset(), 2u);
}

// The limit is libprotobuf's: what its parser takes, the walks take (wire_check calls the
// bytes valid, so a graph keeps them unparsed), and one level more neither does.
TEST(WireReader, TheLimitIsTheOneLibprotobufParsesTo) {
  for (int levels : {kMaxProtoNesting - 1, kMaxProtoNesting, kMaxProtoNesting + 1}) {
    text_test::EveryField message;
    text_test::EveryField* inner = &message;
    for (int i = 0; i < levels; ++i) inner = inner->mutable_child();
    inner->set_i32(7);
    const std::string bytes = message.SerializeAsString();
    text_test::EveryField parsed;
    const bool libprotobuf = parsed.ParseFromString(bytes);
    EXPECT_EQ(libprotobuf, levels <= kMaxProtoNesting) << levels;
    const WireCheck check = CheckWire(bytes, SchemaOf<text_test::EveryField>());
    EXPECT_EQ(check.valid, libprotobuf) << levels;
  }
}

}  // namespace
}  // namespace graphport::proto
