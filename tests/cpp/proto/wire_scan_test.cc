#include "proto/wire_scan.h"

#include <gtest/gtest.h>

#include <string>

#include "tensorflow/schemas.h"
#include "tensorflow/tensor.pb.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using testing::CorpusGraph;

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out += static_cast<char>(v);
  return out;
}

const proto::MessageSchema& GraphDefType() { return proto::SchemaOf<tensorflow::GraphDef>(); }

class WireScanCorpusTest : public ::testing::TestWithParam<CorpusGraph> {};

TEST_P(WireScanCorpusTest, WholeFileFitsItsOwnSchema) {
  const CorpusGraph& g = GetParam();
  std::string bytes = testing::ReadFile(g.path());
  proto::WireScan scan = proto::ScanWire(bytes, KindSchema(g.kind), /*complete=*/true);
  EXPECT_FALSE(scan.conflict) << scan.conflict_reason << " at " << scan.conflict_offset;
  EXPECT_FALSE(scan.truncated) << scan.conflict_reason << " at " << scan.conflict_offset;
  EXPECT_GT(scan.known_fields, 0);
  // tests/schema/check_no_unknown_fields.sh checks the same thing with protoc.
  EXPECT_EQ(scan.unknown_fields, 0);
}

TEST_P(WireScanCorpusTest, PrefixesNeverConflictWhenIncomplete) {
  const CorpusGraph& g = GetParam();
  std::string bytes = testing::ReadFile(g.path());
  for (size_t n = 1; n < bytes.size(); n += 97) {
    proto::WireScan scan = proto::ScanWire(std::string_view(bytes).substr(0, n), KindSchema(g.kind),
                                           /*complete=*/false);
    EXPECT_FALSE(scan.conflict) << "prefix of " << n << " bytes: " << scan.conflict_reason;
    EXPECT_FALSE(scan.truncated) << "prefix of " << n << " bytes: " << scan.conflict_reason;
  }
}

// Cut at a top-level field boundary, the bytes are still a whole message; cut anywhere else,
// the last field is truncated and the scan must say where (as a truncation: the bytes do fit
// the schema, they just stop early).
TEST_P(WireScanCorpusTest, TruncationIsReportedUnlessAtAFieldBoundary) {
  const CorpusGraph& g = GetParam();
  std::string bytes = testing::ReadFile(g.path());
  std::vector<size_t> boundaries = testing::TopLevelFieldBoundaries(bytes);
  ASSERT_GE(boundaries.size(), 2u);
  std::vector<size_t> cuts;
  for (size_t n = 1; n < bytes.size(); n += 97) cuts.push_back(n);
  for (size_t k = 1; k <= 10 && k < bytes.size(); ++k) cuts.push_back(bytes.size() - k);
  cuts.insert(cuts.end(), boundaries.begin() + 1, boundaries.end() - 1);
  for (size_t n : cuts) {
    std::string_view cut = std::string_view(bytes).substr(0, n);
    proto::WireScan scan = proto::ScanWire(cut, KindSchema(g.kind), /*complete=*/true);
    bool at_boundary = std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end();
    EXPECT_FALSE(scan.conflict) << "cut at " << n << ": " << scan.conflict_reason;
    EXPECT_EQ(scan.truncated, !at_boundary) << "cut at " << n << ": " << scan.conflict_reason;
    if (scan.truncated) {
      EXPECT_LT(scan.conflict_offset, n) << "cut at " << n;
      EXPECT_GE(scan.conflict_offset,
                *(std::upper_bound(boundaries.begin(), boundaries.end(), n) - 1))
          << "the cut-off field starts at the last top-level field before the cut";
      EXPECT_FALSE(scan.conflict_reason.empty());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, WireScanCorpusTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

// libprotobuf parses a known number with another wire type as an unknown field, so the scan
// does too: no conflict, but counted apart and described (issue 11, fault 3: an export keeps
// such a field, and must be detected again).
TEST(WireScanTest, WrongWireTypeIsAMismatchNamingFieldAndTypes) {
  // GraphDef field 1 (node) as a varint.
  proto::WireScan scan = proto::ScanWire(Bytes({0x08, 0x01}), GraphDefType(), true);
  EXPECT_FALSE(scan.conflict);
  EXPECT_EQ(scan.mismatched_fields, 1);
  EXPECT_EQ(scan.known_fields, 0);
  EXPECT_EQ(scan.unknown_fields, 0);
  EXPECT_NE(scan.first_mismatch.find("node"), std::string::npos) << scan.first_mismatch;
  EXPECT_NE(scan.first_mismatch.find("varint"), std::string::npos) << scan.first_mismatch;
  EXPECT_NE(scan.first_mismatch.find("length-delimited"), std::string::npos) << scan.first_mismatch;
  EXPECT_NE(scan.first_mismatch.find("at byte 0"), std::string::npos) << scan.first_mismatch;
}

TEST(WireScanTest, NestedMismatchHasTheAbsoluteOffset) {
  // node { <field 1 (name, a string) as a varint> } : the odd tag is byte 2 of the input.
  proto::WireScan scan = proto::ScanWire(Bytes({0x0a, 0x02, 0x08, 0x01}), GraphDefType(), true);
  EXPECT_FALSE(scan.conflict);
  EXPECT_EQ(scan.known_fields, 1);
  EXPECT_EQ(scan.mismatched_fields, 1);
  EXPECT_NE(scan.first_mismatch.find("name of NodeDef"), std::string::npos) << scan.first_mismatch;
  EXPECT_NE(scan.first_mismatch.find("at byte 2"), std::string::npos) << scan.first_mismatch;
}

TEST(WireScanTest, NestedConflictHasTheAbsoluteOffset) {
  // node { <field 1 claiming 9 bytes of a 2-byte payload> }: the cut tag is byte 2.
  proto::WireScan scan = proto::ScanWire(Bytes({0x0a, 0x02, 0x0a, 0x09}), GraphDefType(), true);
  ASSERT_TRUE(scan.conflict);
  EXPECT_EQ(scan.conflict_offset, 2u);
  EXPECT_NE(scan.conflict_reason.find("claims 9 bytes"), std::string::npos) << scan.conflict_reason;
}

TEST(WireScanTest, FieldNumberZeroIsAConflict) {
  proto::WireScan scan = proto::ScanWire(Bytes({0x00, 0x01}), GraphDefType(), true);
  EXPECT_TRUE(scan.conflict);
  EXPECT_EQ(scan.conflict_offset, 0u);
}

TEST(WireScanTest, ReservedWireTypesAreConflicts) {
  for (int tag : {0x0e, 0x0f}) {  // field 1 with wire types 6, 7
    proto::WireScan scan = proto::ScanWire(Bytes({0x12, 0x00, tag, 0x00}), GraphDefType(), true);
    EXPECT_TRUE(scan.conflict) << "tag " << tag;
    EXPECT_FALSE(scan.group) << "tag " << tag;
    EXPECT_EQ(scan.conflict_offset, 2u) << "tag " << tag;
  }
}

// A group ends the walk where it starts, without a conflict: what came before decides the
// schema, and the reader refuses the group by its offset (tests/cpp/tf/groups_test.cc).
TEST(WireScanTest, AGroupIsAConflictMarkedAsAGroup) {
  // No TensorFlow schema has groups: bytes holding one are not the message (detection then
  // says so), and the mark lets a reader name the group's field and node.
  for (int tag : {0x0b, 0x0c, 0x73}) {  // field 1 start and end, field 14 start
    proto::WireScan scan =
        proto::ScanWire(Bytes({0x0a, 0x00, tag, 0x00, 0x0a, 0x00}), GraphDefType(), true);
    EXPECT_TRUE(scan.conflict) << "tag " << tag;
    EXPECT_FALSE(scan.truncated) << "tag " << tag;
    EXPECT_TRUE(scan.group) << "tag " << tag;
    EXPECT_EQ(scan.conflict_offset, 2u) << "tag " << tag;
    EXPECT_EQ(scan.known_fields, 1) << "tag " << tag;  // the node before it, not the one after
  }
}

TEST(WireScanTest, UnknownFieldsAreCountedNotConflicts) {
  // Field 100 (unknown to GraphDef) as varint 1, then an empty node.
  proto::WireScan scan =
      proto::ScanWire(Bytes({0xa0, 0x06, 0x01, 0x0a, 0x00}), GraphDefType(), true);
  EXPECT_FALSE(scan.conflict) << scan.conflict_reason;
  EXPECT_EQ(scan.unknown_fields, 1);
  EXPECT_EQ(scan.known_fields, 1);
}

TEST(WireScanTest, PackedAndUnpackedRepeatedScalarsBothFit) {
  const auto& tensor = proto::SchemaOf<tensorflow::TensorProto>();
  // int_val = 7: packed (length-delimited) and one unpacked varint.
  proto::WireScan scan =
      proto::ScanWire(Bytes({0x3a, 0x03, 0x01, 0x02, 0x03, 0x38, 0x04}), tensor, true);
  EXPECT_FALSE(scan.conflict) << scan.conflict_reason;
  EXPECT_EQ(scan.known_fields, 2);
  EXPECT_EQ(scan.unknown_fields, 0);
}

// A field cut off by the end of the input is a truncation when the bytes are all of the input,
// and nothing at all when they are only a prefix of it.
TEST(WireScanTest, CutFieldsAreTruncationsOnlyWhenTheInputIsComplete) {
  const auto& tensor = proto::SchemaOf<tensorflow::TensorProto>();
  struct Case {
    const char* what;
    std::string bytes;
    const proto::MessageSchema& type;
  } cases[] = {
      {"length past the end", Bytes({0x0a, 0x05, 0x0a, 0x01, 0x61}), GraphDefType()},
      {"tag varint cut", Bytes({0x0a, 0x00, 0xa0}), GraphDefType()},
      {"value varint cut", Bytes({0x38, 0x80}), tensor},
      {"fixed32 cut", Bytes({0x2d, 0x00, 0x00}), tensor},  // float_val = 5, unpacked
      {"length varint cut", Bytes({0x0a, 0xff}), GraphDefType()},
  };
  for (const Case& c : cases) {
    proto::WireScan whole = proto::ScanWire(c.bytes, c.type, /*complete=*/true);
    EXPECT_TRUE(whole.truncated) << c.what;
    EXPECT_FALSE(whole.conflict) << c.what << ": " << whole.conflict_reason;
    proto::WireScan partial = proto::ScanWire(c.bytes, c.type, /*complete=*/false);
    EXPECT_FALSE(partial.conflict) << c.what << ": " << partial.conflict_reason;
    EXPECT_FALSE(partial.truncated) << c.what;
  }
  // The second field is the cut one: the offset says so.
  EXPECT_EQ(
      proto::ScanWire(Bytes({0x0a, 0x00, 0x0a, 0x05, 0x00}), GraphDefType(), true).conflict_offset,
      2u);
}

// Inside a payload whose length is known, running out of bytes is no truncation of the file:
// the bytes cannot be this message.
TEST(WireScanTest, CutInsideASizedPayloadIsAConflict) {
  // node { <a 5-byte name field that claims more than the 3 bytes node has> }
  proto::WireScan scan =
      proto::ScanWire(Bytes({0x0a, 0x03, 0x0a, 0x05, 0x61}), GraphDefType(), true);
  EXPECT_TRUE(scan.conflict) << scan.conflict_reason;
  EXPECT_EQ(scan.conflict_offset, 2u);
}

// A varint of more than 10 bytes followed by more input is malformed, not cut off: a
// conflict whether or not the bytes are the whole input.
TEST(WireScanTest, OverlongVarintIsAConflictNotATruncation) {
  std::string overlong(11, '\xff');
  overlong += Bytes({0x01});
  struct Case {
    const char* what;
    std::string bytes;
    size_t offset;
  } cases[] = {
      {"length", Bytes({0x0a}) + overlong, 0},
      {"tag", Bytes({0x0a, 0x00}) + overlong, 2},
      {"value", Bytes({0x12, 0x00, 0x18}) + overlong, 2},  // version = 3, a varint
  };
  for (const Case& c : cases) {
    for (bool complete : {true, false}) {
      proto::WireScan scan = proto::ScanWire(c.bytes, GraphDefType(), complete);
      EXPECT_TRUE(scan.conflict) << c.what;
      EXPECT_FALSE(scan.truncated) << c.what;
      EXPECT_EQ(scan.conflict_offset, c.offset) << c.what;
      EXPECT_NE(scan.conflict_reason.find("longer than 10 bytes"), std::string::npos)
          << c.what << ": " << scan.conflict_reason;
    }
  }
}

TEST(WireScanTest, DeepNestingIsWalkedWithoutConflictOrCrash) {
  std::string bytes = testing::DeeplyNestedGraph(500).SerializeAsString();
  proto::WireScan scan = proto::ScanWire(bytes, GraphDefType(), true);
  EXPECT_FALSE(scan.conflict) << scan.conflict_reason;
  EXPECT_FALSE(scan.truncated);
  EXPECT_GT(scan.known_fields, 0);
}

TEST(WireScanTest, EmptyBytesFitWithNoFields) {
  proto::WireScan scan = proto::ScanWire(std::string_view{}, GraphDefType(), true);
  EXPECT_FALSE(scan.conflict);
  EXPECT_EQ(scan.known_fields, 0);
  EXPECT_EQ(scan.unknown_fields, 0);
}

}  // namespace
}  // namespace graphport::tf
