// Param union members newer than graphport's schema (above 99) are kept byte for byte on
// re-dump, in both formats (their unions number members alike), and a table that does not
// lie in the flatbuffer is a parse error.
#include <gtest/gtest.h>

#include <cstring>

#include "mge/read.h"
#include "mge_test_util.h"
#include "one_op_model.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT

constexpr uint8_t kNewMember = 120;

// A table as a newer MegEngine's generated Create helper would build it: a ulong, two uints
// and a bool, largest first, a default-valued field left out (slot 3).
flatbuffers::Offset<void> NewParam(flatbuffers::FlatBufferBuilder& fbb) {
  auto start = fbb.StartTable();
  fbb.AddElement<uint64_t>(10, 0x1122334455667788ull, 0);
  fbb.AddElement<uint32_t>(6, 7, 0);
  fbb.AddElement<float>(4, 2.5f, 0);
  fbb.AddElement<uint8_t>(12, 1, 0);
  return flatbuffers::Offset<void>(fbb.EndTable(start));
}

OneOp NewOp() { return {"Copy", kNewMember, NewParam, {{4}}}; }

// The param table's field slots and inline bytes up to its first-added field's end. Left
// out: the soffset (where the vtable landed) and the padding the builder puts before the
// first-added field, which both depend on where the table lands in the new buffer, as they
// do in MegEngine's builder (vtable entry 1, the table size, counts that padding).
std::string TableBytes(const std::string& file_bytes) {
  auto file = ReadMgeFile(file_bytes, "t");
  const Operator& op = file->graphs[0].oprs[1];
  EXPECT_EQ(op.params.size(), 1u);
  EXPECT_EQ(op.params[0].type, kNewMember);
  const uint8_t* table = op.params[0].table;
  const uint8_t* vtable = table - flatbuffers::ReadScalar<flatbuffers::soffset_t>(table);
  auto vt_size = flatbuffers::ReadScalar<uint16_t>(vtable);
  // The ulong, added first, ends the fields: slot 10 (vtable entry 5).
  auto ulong_at = flatbuffers::ReadScalar<uint16_t>(vtable + 10);
  EXPECT_EQ(flatbuffers::ReadScalar<uint64_t>(table + ulong_at), 0x1122334455667788ull);
  return std::string(reinterpret_cast<const char*>(vtable) + 4, vt_size - 4) + "|" +
         std::string(reinterpret_cast<const char*>(table) + 4, ulong_at + 8 - 4);
}

TEST(MgeUnknownParam, IsKeptByteForByteInBothFormats) {
  const std::string model = Model(NewOp());
  const std::string original = TableBytes(model);
  auto l = Load(model);
  // inspect() shows the member by number.
  EXPECT_NO_THROW(l.model->Inspect());
  const std::string v2 = Export(l.model.get(), {{"dumpFormat", "FBS_V2"}}).model();
  EXPECT_TRUE(VerifiesAsV2(v2));
  EXPECT_EQ(TableBytes(v2), original);
  const std::string v1 = Export(l.model.get(), {{"dumpFormat", "FBS"}}).model();
  EXPECT_TRUE(VerifiesAsV1(v1));
  EXPECT_EQ(TableBytes(v1), original);
  // And from FBS v1 again, to both.
  auto l1 = Load(v1);
  EXPECT_EQ(Export(l1.model.get(), {{"dumpFormat", "FBS"}}).model(), v1);
  EXPECT_EQ(TableBytes(Export(l1.model.get(), {{"dumpFormat", "FBS_V2"}}).model()), original);
}

TEST(MgeUnknownParam, ATableNotLaidOutAsScalarsIsRefusedNamingTheOperator) {
  // A byte added before a uint: not the Create helper's order (largest first), so the uint
  // sits after padding and its size cannot be told from the vtable.
  OneOp spec = NewOp();
  spec.param = [](flatbuffers::FlatBufferBuilder& fbb) {
    auto start = fbb.StartTable();
    fbb.AddElement<uint8_t>(4, 1, 0);
    fbb.AddElement<uint32_t>(6, 7, 0);
    return flatbuffers::Offset<void>(fbb.EndTable(start));
  };
  auto l = Load(Model(spec));
  try {
    Export(l.model.get(), nullptr);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("param union member 120 is not in graphport's schema"),
              std::string::npos)
        << e.what();
    EXPECT_NE(e.where().opr.find("#1 (Copy)"), std::string::npos) << e.where().opr;
  }
}

TEST(MgeUnknownParam, ATableOutsideTheFlatbufferIsAParseError) {
  std::string model = Model(NewOp());
  // Point the param's soffset to its vtable far outside the buffer.
  auto file = ReadMgeFile(model, "t");
  const uint8_t* table = file->graphs[0].oprs[1].params[0].table;
  const std::string_view fb(file->graphs[0].flatbuffer);
  size_t at = model.find(std::string(fb)) +
              static_cast<size_t>(table - reinterpret_cast<const uint8_t*>(fb.data()));
  ASSERT_LT(at + 4, model.size());
  int32_t far = -0x40000000;
  std::memcpy(&model[at], &far, 4);
  try {
    ReadMgeFile(model, "t");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_NE(std::string(e.what()).find("param union member 120"), std::string::npos) << e.what();
    EXPECT_EQ(e.where().opr, "#1 (Copy)");
  }
}

// Every byte of the file changed, and every truncation: a graphport::Error or a good
// result, read and re-dumped, never a crash (the copy reads the table through its vtable).
TEST(MgeUnknownParam, DamagedFilesFailCleanly) {
  const std::string model = Model(NewOp());
  auto attempt = [](const std::string& bytes) {
    try {
      auto l = Load(bytes);
      Export(l.model.get(), nullptr);
      Export(l.model.get(), {{"dumpFormat", "FBS"}});
    } catch (const Error& e) {
      EXPECT_NE(e.code(), ErrorCode::kInternal) << e.what();
    }
  };
  for (size_t i = 0; i < model.size(); ++i) {
    for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      std::string damaged = model;
      damaged[i] = static_cast<char>(damaged[i] ^ flip);
      attempt(damaged);
    }
    attempt(model.substr(0, i));
  }
}

}  // namespace
}  // namespace graphport::mge
