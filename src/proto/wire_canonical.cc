#include "proto/wire_canonical.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "proto/wire_append.h"
#include "proto/wire_reader.h"

namespace graphport::proto {
namespace {

// A fixed-width value's bits (little-endian on the wire).
uint64_t FixedBits(const uint8_t* p, int width) {
  uint64_t bits = 0;
  for (int i = 0; i < width; ++i) bits |= static_cast<uint64_t>(p[i]) << (8 * i);
  return bits;
}

void AppendScalar(int wire_type, uint64_t bits, std::string* out) {
  if (wire_type == kWireVarint) {
    AppendVarint(out, bits);
  } else if (wire_type == kWireFixed32) {
    AppendFixed32(out, static_cast<uint32_t>(bits));
  } else {
    AppendFixed64(out, bits);
  }
}

void AppendLengthDelimited(int number, std::string_view payload, std::string* out) {
  AppendTag(out, number, kWireLength);
  AppendVarint(out, payload.size());
  out->append(payload.data(), payload.size());
}

// The number a scalar record holds; false when its wire type is not `wire_type`.
bool ScalarBits(const Record& r, int wire_type, uint64_t* bits) {
  if (r.wire_type != wire_type) return false;
  if (wire_type == kWireVarint) {
    *bits = r.varint;
  } else {
    const int width = wire_type == kWireFixed32 ? 4 : 8;
    *bits = FixedBits(r.end - width, width);
  }
  return true;
}

// The values of a repeated number field, from its records packed or not.
bool RepeatedBits(const Record* records, size_t count, int wire_type,
                  std::vector<uint64_t>* values) {
  for (size_t k = 0; k < count; ++k) {
    const Record& r = records[k];
    if (r.wire_type != kWireLength) {
      uint64_t bits;
      if (!ScalarBits(r, wire_type, &bits)) return false;
      values->push_back(bits);
      continue;
    }
    const uint8_t* p = r.value;
    const uint8_t* end = r.value + r.length;
    while (p < end) {
      if (wire_type == kWireVarint) {
        uint64_t bits;
        if (!ReadVarint(&p, end, &bits)) return false;
        values->push_back(bits);
      } else {
        const int width = wire_type == kWireFixed32 ? 4 : 8;
        if (end - p < width) return false;
        values->push_back(FixedBits(p, width));
        p += width;
      }
    }
  }
  return true;
}

// One singular field from its records: the last value, or the merge of every message.
// `always`: written even at its default (a map entry's key and value).
bool AppendSingular(const FieldSchema& field, const Record* records, size_t count, bool always,
                    std::string* out) {
  if (field.type == FieldType::kMessage) {
    if (count == 0 && !always) return true;
    std::string merged;
    for (size_t k = 0; k < count; ++k) {
      if (records[k].wire_type != kWireLength) return false;
      merged.append(records[k].view());
    }
    std::string canonical;
    if (!AppendCanonicalWire(merged, *field.message, &canonical)) return false;
    AppendLengthDelimited(field.number, canonical, out);
    return true;
  }
  if (field.is_text()) {
    std::string_view value;
    if (count > 0) {
      if (records[count - 1].wire_type != kWireLength) return false;
      value = records[count - 1].view();
    }
    if (always || field.presence || !value.empty()) AppendLengthDelimited(field.number, value, out);
    return true;
  }
  uint64_t bits = 0;
  if (count > 0 && !ScalarBits(records[count - 1], field.wire_type(), &bits)) return false;
  if (count == 0 && !always) return true;
  if (always || field.presence || bits != 0) {
    AppendTag(out, field.number, field.wire_type());
    AppendScalar(field.wire_type(), bits, out);
  }
  return true;
}

// A map entry as the reflection-based serializer writes one (in a map, or as a message of
// its own): key, then value, both always.
bool AppendMapEntry(std::string_view wire, const MessageSchema& entry, std::string* out) {
  std::vector<Record> keys, values;
  const auto* p = reinterpret_cast<const uint8_t*>(wire.data());
  const uint8_t* end = p + wire.size();
  Record r;
  for (; p < end; p = r.end) {
    if (!ReadRecord(p, end, &r)) return false;
    if (r.number == 1) {
      keys.push_back(r);
    } else if (r.number == 2) {
      values.push_back(r);
    } else {
      return false;
    }
  }
  const FieldSchema* key = entry.FindFieldByNumber(1);
  const FieldSchema* value = entry.FindFieldByNumber(2);
  if (key == nullptr || value == nullptr) return false;
  return AppendSingular(*key, keys.data(), keys.size(), /*always=*/true, out) &&
         AppendSingular(*value, values.data(), values.size(), /*always=*/true, out);
}

bool AppendField(const FieldSchema& field, const Record* records, size_t count, std::string* out) {
  if (!field.repeated) return AppendSingular(field, records, count, /*always=*/false, out);
  if (field.type == FieldType::kMessage) {
    // A map's entries too: in the order given, a key given twice kept twice (libprotobuf's
    // text parser adds entries to the map's repeated form, which its serializer then writes).
    for (size_t k = 0; k < count; ++k) {
      if (records[k].wire_type != kWireLength) return false;
      std::string canonical;
      if (!AppendCanonicalWire(records[k].view(), *field.message, &canonical)) return false;
      AppendLengthDelimited(field.number, canonical, out);
    }
    return true;
  }
  if (field.is_text()) {
    for (size_t k = 0; k < count; ++k) {
      if (records[k].wire_type != kWireLength) return false;
      AppendLengthDelimited(field.number, records[k].view(), out);
    }
    return true;
  }
  std::vector<uint64_t> values;
  const int wire_type = field.wire_type();
  if (!RepeatedBits(records, count, wire_type, &values)) return false;
  if (!field.packed) {
    for (uint64_t bits : values) {
      AppendTag(out, field.number, wire_type);
      AppendScalar(wire_type, bits, out);
    }
    return true;
  }
  if (values.empty()) return true;
  std::string packed;
  for (uint64_t bits : values) AppendScalar(wire_type, bits, &packed);
  AppendLengthDelimited(field.number, packed, out);
  return true;
}

}  // namespace

bool AppendCanonicalWire(std::string_view wire, const MessageSchema& type, std::string* out) {
  if (type.map_entry) return AppendMapEntry(wire, type, out);
  std::vector<Record> records;
  const auto* p = reinterpret_cast<const uint8_t*>(wire.data());
  const uint8_t* end = p + wire.size();
  Record r;
  for (; p < end; p = r.end) {
    if (!ReadRecord(p, end, &r)) return false;
    records.push_back(r);
  }
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.number < b.number; });
  for (size_t i = 0; i < records.size();) {
    size_t j = i;
    while (j < records.size() && records[j].number == records[i].number) ++j;
    const FieldSchema* field = type.FindFieldByNumber(records[i].number);
    if (field == nullptr || !AppendField(*field, &records[i], j - i, out)) return false;
    i = j;
  }
  return true;
}

}  // namespace graphport::proto
