// What WireChecker's walk (wire_check.cc) reads of a message type's schema, once per type and
// field rather than once per record, and what it keeps between checks: the memos of map
// entries and of tails (WireChecker::MemoTails).
#ifndef GRAPHPORT_PROTO_WIRE_CHECK_TABLES_H_
#define GRAPHPORT_PROTO_WIRE_CHECK_TABLES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "proto/schema.h"
#include "proto/wire_check.h"
#include "proto/wire_entry_memo.h"

namespace graphport::proto {
namespace wire_check_internal {

// What the walk needs of one field, read from its schema once.
struct TypeInfo;

struct FieldInfo {
  const FieldSchema* field = nullptr;
  FieldType type = FieldType::kInt32;
  int wire_type = -1;
  bool repeated = false, packable = false, packed = false, is_map = false;
  bool zero_omitted = false;  // proto3 without presence: a zero value is not written
  bool is_string = false, is_message = false;
  // A string or bytes field outside a oneof: its record is checked on the walk's short path.
  bool plain_text = false;
  int oneof = -1;
  uint64_t memory_width = 0;
  // How a map's keys are compared for the order deterministic serialisation writes them in:
  // strings by bytes, varint integers by value (int32 and int64 as signed); other keys are not
  // compared (such a map is not canonical).
  enum class MapKeyOrder : uint8_t { kNone, kString, kUnsigned, kSigned };
  MapKeyOrder map_key = MapKeyOrder::kNone;
  mutable const TypeInfo* child = nullptr;  // a message field's type, resolved on first use
};

struct TypeInfo {
  const MessageSchema* type = nullptr;
  bool proto3 = false;
  bool map_entry = false;
  std::vector<FieldInfo> fields;  // by field number, up to the largest one (small: TF's are)
  int field_limit = 0;            // fields.size()
  // By one-byte tag (fields 1-15), the field whose own wire type the tag carries: the common
  // record found in one load. Null for anything else (packed records, unknown fields, wrong
  // wire types, tags of two bytes or more), which the general path sorts out.
  const FieldInfo* by_tag[128] = {};
};

// A watched record of a remembered tail, by offsets from the tail's start.
struct TailRecord {
  uint32_t start, value, length;
  int number;
};

}  // namespace wire_check_internal

struct WireChecker::Tables {
  using FieldInfo = wire_check_internal::FieldInfo;
  using TypeInfo = wire_check_internal::TypeInfo;
  using TailRecord = wire_check_internal::TailRecord;

  std::unordered_map<const MessageSchema*, std::unique_ptr<TypeInfo>> types;
  const TypeInfo* root = nullptr;  // the checked type's
  WireEntryMemo entries;           // map entries walked before
  // Tails (MemoTails): a top-level record whose first byte is at least `tail_tag` starts one
  // (UINT64_MAX: none do); what walking each found, with its watched records.
  uint64_t tail_tag = UINT64_MAX;
  WireEntryMemo tails;
  std::vector<TailRecord> tail_records;
  uint32_t tail_tries = 0, tail_hits = 0;

  const TypeInfo& For(const MessageSchema& type);
  static FieldInfo Describe(const FieldSchema& f, const TypeInfo& owner);

  // The type of a message field: looked up once per field, then kept in the field's entry
  // (lazily, so recursive types such as AttrValue's lists do not recurse here).
  const TypeInfo& Child(const FieldInfo& field) {
    if (field.child == nullptr) {
      field.child = &For(*field.field->message);
    }
    return *field.child;
  }

  // Null for a number the type does not have.
  const FieldInfo* Field(const TypeInfo& info, int number, std::optional<FieldInfo>* scratch) {
    if (number < info.field_limit) {
      const FieldInfo& fi = info.fields[number];
      return fi.field != nullptr ? &fi : nullptr;
    }
    const FieldSchema* f = info.type->FindFieldByNumber(number);
    if (f == nullptr) return nullptr;
    scratch->emplace(Describe(*f, info));
    return &**scratch;
  }
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_CHECK_TABLES_H_
