#include "proto/wire_check.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/utf8.h"
#include "proto/wire_check_tables.h"
#include "proto/wire_entry_memo.h"
#include "proto/wire_reader.h"

namespace graphport::proto {
namespace {

using wire_check_internal::FieldInfo;
using wire_check_internal::TailRecord;
using wire_check_internal::TypeInfo;

// What one parsed message or field costs beyond its payload, roughly (object, pointers,
// string headers): only an upper estimate for the memory budget.
constexpr uint64_t kMessageCost = 64;
constexpr uint64_t kFieldCost = 32;

// After this many tails, the memo is kept only if it answered for at least one in eight: a
// graph whose nodes all differ (weights, say) would pay a hash per node for nothing.
constexpr uint32_t kTailTrial = 4096;

}  // namespace

namespace {

// The key of the map entry before, for the order check.
struct LastKey {
  std::string_view text;
  uint64_t number = 0;
  bool any = false;
};

// Where a tail being walked started, and what the walk had found before it.
struct TailWalk {
  const uint8_t* start = nullptr;  // null: no tail is being remembered
  uint64_t hash = 0;
  uint64_t parsed_before = 0;
  size_t watched_before = 0;
  bool canonical_before = true;
};

class Walker {
 public:
  Walker(WireChecker::Tables* tables, uint32_t watched_fields, std::vector<WatchedRecord>* watched)
      : tables_(tables), watched_fields_(watched_fields), watched_(watched) {}
  WireCheck result;

  // False when the bytes are not (or not surely) a parseable `type`.
  bool Message(const uint8_t* p, const uint8_t* end, const TypeInfo& info, int depth) {
    if (!WithinNesting(depth)) return false;  // libprotobuf refuses it too
    result.parsed_bytes += kMessageCost;
    // proto2 presence (has-bits, closed enums) is not modelled: such messages are parsed.
    if (!info.proto3) result.canonical = false;
    int last_number = 0;
    bool last_packed = false;
    uint64_t oneofs_seen = 0;
    int entry_fields = 0;
    const FieldSchema* map_field = nullptr;  // the map whose entries come one after another
    LastKey last_key;
    std::optional<FieldInfo> scratch;  // a field past the table's, described when met
    uint64_t tail_tag = depth == 0 ? tables_->tail_tag : UINT64_MAX;
    TailWalk tail;
    while (p < end) {
      const uint8_t* record = p;
      uint64_t tag = *p;
      if (tag >= tail_tag) {
        // The tail starts: every record before it has a smaller number, so what it holds does
        // not depend on them (a tag of two bytes or more starts it too: a larger number, or a
        // padded tag, which makes the tail not canonical by itself).
        tail_tag = UINT64_MAX;
        if (KnownTail(record, end, &tail)) return true;
        if (tail.start != nullptr) {
          last_number = 0;
          last_packed = false;
          map_field = nullptr;
        }
      }
      const FieldInfo* field;
      bool packed_record = false;
      if (tag < 0x80 && (field = info.by_tag[tag]) != nullptr) {
        ++p;  // a one-byte tag of a known field with its own wire type: the common case
        if (field->plain_text) {
          // Most of a graph's records are names (a node's name, op, inputs, device, an attr's
          // key): what Value and the checks below do for them, without what cannot apply.
          const int number = static_cast<int>(tag >> 3);
          if (info.map_entry && number != ++entry_fields) result.canonical = false;
          if (number < last_number || (number == last_number && !field->repeated)) {
            result.canonical = false;
          }
          last_number = number;
          last_packed = false;
          const uint8_t* value = Text(&p, end, *field);
          if (value == nullptr) return false;
          if (depth == 0 && (watched_fields_ >> number & 1)) {
            Note(record, value, static_cast<uint32_t>(p - value), number);
          }
          continue;
        }
      } else {
        if (tag < 0x80) {
          ++p;
        } else {
          bool minimal;
          if (!ReadVarint(&p, end, &tag, &minimal) || tag > UINT32_MAX) return false;
          if (!minimal) result.canonical = false;
        }
        const int number = static_cast<int>(tag >> 3);
        const int wire_type = static_cast<int>(tag & 7);
        if (number == 0) return false;
        // Groups (3, 4) are left to libprotobuf; 6 and 7 are not wire types.
        if (wire_type != kWireVarint && wire_type != kWireFixed64 && wire_type != kWireLength &&
            wire_type != kWireFixed32) {
          return false;
        }
        field = tables_->Field(info, number, &scratch);
        packed_record =
            field != nullptr && field->repeated && field->packable && wire_type == kWireLength;
        if (field == nullptr || (wire_type != field->wire_type && !packed_record)) {
          // Kept as an unknown field, which re-serialisation moves to the end.
          result.canonical = false;
          if (info.map_entry) ++entry_fields;
          if (!SkipValue(&p, end, wire_type)) return false;
          continue;
        }
      }
      const int number = static_cast<int>(tag >> 3);
      const int wire_type = static_cast<int>(tag & 7);
      // A canonical map entry is its key, then its value, each written once.
      if (info.map_entry && number != ++entry_fields) result.canonical = false;
      if (number < last_number ||
          (number == last_number && (!field->repeated || packed_record || last_packed))) {
        result.canonical = false;  // out of order, or a singular field given twice
      }
      last_number = number;
      last_packed = packed_record;
      if (field->oneof >= 0) {
        if (field->oneof >= 64 || (oneofs_seen >> field->oneof & 1)) result.canonical = false;
        if (field->oneof < 64) oneofs_seen |= uint64_t{1} << field->oneof;
      }
      if (field->is_map && field->field != map_field) {
        map_field = field->field;
        last_key = LastKey();
      }
      if (!Value(&p, end, *field, wire_type, depth, packed_record, &last_key)) {
        return false;
      }
      if (depth == 0 && wire_type == kWireLength && number < 32 &&
          (watched_fields_ >> number & 1)) {
        Watched(record, p, number);
      }
    }
    if (info.map_entry && entry_fields != 2) result.canonical = false;
    if (tail.start != nullptr) RememberTail(tail, end);
    return true;
  }

 private:
  // When the memo knows the tail from `start` to `end`, adds what it found and returns true.
  // Otherwise, when the tail is one to remember, sets `*tail` up for RememberTail.
  bool KnownTail(const uint8_t* start, const uint8_t* end, TailWalk* tail) {
    const size_t size = static_cast<size_t>(end - start);
    if (!WireEntryMemo::Fits(size)) return false;
    uint64_t hash = 0;
    WireChecker::Tables& t = *tables_;
    if (++t.tail_tries == kTailTrial && t.tail_hits < kTailTrial / 8) t.tail_tag = UINT64_MAX;
    const WireEntryMemo::Result* known = t.tails.Find(start, size, &hash);
    if (known == nullptr) {
      tail->start = start;
      tail->hash = hash;
      tail->parsed_before = result.parsed_bytes;
      tail->watched_before = watched_ != nullptr ? watched_->size() : 0;
      tail->canonical_before = result.canonical;
      result.canonical = true;
      return false;
    }
    ++t.tail_hits;
    result.canonical = result.canonical && known->canonical;
    result.parsed_bytes += known->parsed_bytes;
    for (uint32_t i = 0; i < known->extra_count; ++i) {
      const TailRecord& r = t.tail_records[known->first_extra + i];
      Note(start + r.start, start + r.value, r.length, r.number);
    }
    return true;
  }

  // After a walk of a tail the memo did not know: offers what it found.
  void RememberTail(const TailWalk& tail, const uint8_t* end) {
    WireChecker::Tables& t = *tables_;
    WireEntryMemo::Result found;
    found.parsed_bytes = result.parsed_bytes - tail.parsed_before;
    found.canonical = result.canonical;
    result.canonical = tail.canonical_before && found.canonical;
    found.first_extra = static_cast<uint32_t>(t.tail_records.size());
    const size_t watched = watched_ != nullptr ? watched_->size() : 0;
    for (size_t i = tail.watched_before; i < watched; ++i) {
      const WatchedRecord& r = (*watched_)[i];
      t.tail_records.push_back({static_cast<uint32_t>(r.start - tail.start),
                                static_cast<uint32_t>(r.value - tail.start), r.length, r.number});
    }
    found.extra_count = static_cast<uint32_t>(watched - tail.watched_before);
    const size_t size = static_cast<size_t>(end - tail.start);
    if (!t.tails.Offer(tail.start, size, tail.hash, found)) {
      t.tail_records.resize(found.first_extra);  // not kept: neither are its records
    }
  }

  // A record from `start` (its tag) to `end` (its payload's end), both varints known valid.
  void Watched(const uint8_t* start, const uint8_t* end, int number) {
    const uint8_t* value = start;
    uint64_t skipped;
    ReadVarint(&value, end, &skipped);  // the tag
    ReadVarint(&value, end, &skipped);  // the length
    Note(start, value, static_cast<uint32_t>(end - value), number);
  }

  // Lists a watched record. Forced inline: in WebAssembly this was left a call, on every
  // name and input of every node. Written field by field into its place: natively, a record
  // built on the stack and copied in whole stalled on its own stores (a third of the walk).
  [[gnu::always_inline]] void Note(const uint8_t* start, const uint8_t* value, uint32_t length,
                                   int number) {
    WatchedRecord& r = watched_->emplace_back();
    r.start = start;
    r.value = value;
    r.length = length;
    r.number = number;
  }

  // A string or bytes record's length and payload, `*p` past its tag. Returns where the
  // payload starts, or null when the record is not valid.
  const uint8_t* Text(const uint8_t** p, const uint8_t* end, const FieldInfo& field) {
    uint64_t length;
    bool minimal;
    if (!ReadVarint(p, end, &length, &minimal) || length > static_cast<uint64_t>(end - *p)) {
      return nullptr;
    }
    if (!minimal) result.canonical = false;
    const uint8_t* text_start = *p;
    std::string_view text(reinterpret_cast<const char*>(*p), length);
    *p += length;
    // libprotobuf refuses a proto3 string that is not UTF-8; the real parse says where.
    if (field.is_string && !IsAscii(text) && !IsValidUtf8(text)) return nullptr;
    if (field.zero_omitted && length == 0) result.canonical = false;
    result.parsed_bytes += kFieldCost + length;
    return text_start;
  }

  // Values that parse but come back written differently.
  void CheckVarint(const FieldInfo& field, uint64_t value) {
    switch (field.type) {
      case FieldType::kBool:
        if (value > 1) result.canonical = false;
        break;
      case FieldType::kInt32:
      case FieldType::kEnum:
        if (static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(value))) != value) {
          result.canonical = false;
        }
        break;
      case FieldType::kUint32:
      case FieldType::kSint32:
        if (value > UINT32_MAX) result.canonical = false;
        break;
      default:
        break;
    }
  }

  bool Value(const uint8_t** p, const uint8_t* end, const FieldInfo& field, int wire_type,
             int depth, bool packed_record, LastKey* last_key) {
    uint64_t value;
    bool minimal;
    if (wire_type != kWireLength && field.packed) result.canonical = false;  // written packed
    result.parsed_bytes += kFieldCost;
    switch (wire_type) {
      case kWireVarint:
        if (!ReadVarint(p, end, &value, &minimal)) return false;
        if (!minimal) result.canonical = false;
        CheckVarint(field, value);
        if (field.zero_omitted && value == 0) result.canonical = false;
        return true;
      case kWireFixed64:
      case kWireFixed32: {
        size_t width = wire_type == kWireFixed64 ? 8 : 4;
        if (static_cast<size_t>(end - *p) < width) return false;
        uint64_t bits = 0;
        std::memcpy(&bits, *p, width);
        *p += width;
        if (field.zero_omitted && bits == 0) result.canonical = false;
        return true;
      }
      default:
        break;
    }
    if (!ReadVarint(p, end, &value, &minimal) || value > static_cast<uint64_t>(end - *p)) {
      return false;
    }
    if (!minimal) result.canonical = false;
    const uint8_t* start = *p;
    const uint8_t* stop = start + value;
    *p = stop;
    if (packed_record) return Packed(start, stop, field);
    if (field.is_message) {
      if (!field.is_map) return Message(start, stop, tables_->Child(field), depth + 1);
      MapKey(start, stop, field, last_key);
      return MapEntry(start, stop, field, depth + 1);
    }
    std::string_view text(reinterpret_cast<const char*>(start), value);
    // libprotobuf refuses a proto3 string that is not UTF-8; the real parse says where.
    if (field.is_string && !IsAscii(text) && !IsValidUtf8(text)) return false;
    if (field.zero_omitted && value == 0) result.canonical = false;
    result.parsed_bytes += value;
    return true;
  }

  bool Packed(const uint8_t* p, const uint8_t* end, const FieldInfo& field) {
    if (!field.packed) result.canonical = false;  // written one record per element
    if (p == end) result.canonical = false;       // an empty packed field is not written
    uint64_t count = 0;
    if (field.wire_type == kWireVarint) {
      while (p < end) {
        uint64_t value;
        bool minimal;
        if (!ReadVarint(&p, end, &value, &minimal)) return false;
        if (!minimal) result.canonical = false;
        CheckVarint(field, value);
        ++count;
      }
    } else {
      size_t width = field.wire_type == kWireFixed64 ? 8 : 4;
      if ((end - p) % width != 0) return false;
      count = (end - p) / width;
    }
    result.parsed_bytes += count * field.memory_width;
    return true;
  }

  // A map entry, from the memo when the same bytes were walked before (no deeper than now).
  bool MapEntry(const uint8_t* p, const uint8_t* end, const FieldInfo& field, int depth) {
    const size_t size = static_cast<size_t>(end - p);
    if (!WireEntryMemo::Fits(size)) return Message(p, end, tables_->Child(field), depth);
    uint64_t hash = 0;
    const WireEntryMemo::Result* known = tables_->entries.Find(p, size, &hash);
    if (known != nullptr && depth <= known->depth) {
      result.canonical = result.canonical && known->canonical;
      result.parsed_bytes += known->parsed_bytes;
      return true;
    }
    const bool canonical_before = result.canonical;
    const uint64_t parsed_before = result.parsed_bytes;
    result.canonical = true;
    if (!Message(p, end, tables_->Child(field), depth)) return false;
    const bool canonical = result.canonical;
    result.canonical = canonical_before && canonical;
    if (known == nullptr) {
      tables_->entries.Offer(p, size, hash,
                             {result.parsed_bytes - parsed_before, depth, canonical});
    }
    return true;
  }

  // Deterministic serialisation writes a map's entries sorted by key, each key once.
  void MapKey(const uint8_t* p, const uint8_t* end, const FieldInfo& field, LastKey* last) {
    using Order = FieldInfo::MapKeyOrder;
    uint64_t value;
    bool minimal;
    const uint8_t key_tag = field.map_key == Order::kString ? ((1 << 3) | kWireLength) : (1 << 3);
    if (field.map_key == Order::kNone || p == end || *p++ != key_tag ||
        !ReadVarint(&p, end, &value, &minimal)) {
      result.canonical = false;  // keys of other types are not compared here
      return;
    }
    if (field.map_key != Order::kString) {
      // A zero key is written too: a map entry's key is always present.
      const bool ascending = field.map_key == Order::kSigned
                                 ? static_cast<int64_t>(last->number) < static_cast<int64_t>(value)
                                 : last->number < value;
      if (last->any && !ascending) result.canonical = false;
      last->number = value;
      last->any = true;
      return;
    }
    if (value > static_cast<uint64_t>(end - p)) {
      result.canonical = false;
      return;
    }
    std::string_view text(reinterpret_cast<const char*>(p), value);
    if (last->any && !(last->text < text)) result.canonical = false;
    last->text = text;
    last->any = true;
  }
  WireChecker::Tables* tables_;
  uint32_t watched_fields_;
  std::vector<WatchedRecord>* watched_;
};

}  // namespace

WireChecker::WireChecker(const MessageSchema& type)
    : type_(&type), tables_(std::make_unique<Tables>()) {}
WireChecker::~WireChecker() = default;

void WireChecker::MemoTails(int from_field) {
  // A tail is found by the first byte of its tags, which for fields 1-15 is the whole tag.
  if (from_field < 1 || from_field > 15 || type_->oneof_count > 0 || type_->map_entry) return;
  tables_->tail_tag = static_cast<uint64_t>(from_field) << 3;
}

uint32_t WireChecker::tails_known() const { return tables_->tail_hits; }

void WireChecker::Watch(uint32_t fields, std::vector<WatchedRecord>* out) {
  watched_fields_ = out != nullptr ? fields : 0;
  watched_ = out;
}

WireCheck WireChecker::Check(std::string_view bytes) {
  if (watched_ != nullptr) watched_->clear();
  Walker walker(tables_.get(), watched_fields_, watched_);
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  if (tables_->root == nullptr) tables_->root = &tables_->For(*type_);  // once, not per message
  walker.result.valid = walker.Message(p, p + bytes.size(), *tables_->root, 0);
  if (!walker.result.valid) walker.result.canonical = false;
  return walker.result;
}

WireCheck CheckWire(std::string_view bytes, const MessageSchema& type) {
  return WireChecker(type).Check(bytes);
}

}  // namespace graphport::proto
