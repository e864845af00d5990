#include "proto/wire_record.h"

namespace graphport::proto {

bool ReadVarint(const uint8_t** p, const uint8_t* end, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t byte = *(*p)++;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool ReadRecord(const uint8_t* p, const uint8_t* end, Record* r) {
  uint64_t tag, value;
  r->start = p;
  if (!ReadVarint(&p, end, &tag)) return false;
  r->number = static_cast<int>(tag >> 3);
  r->wire_type = static_cast<int>(tag & 7);
  switch (r->wire_type) {
    case 0:
      if (!ReadVarint(&p, end, &value)) return false;
      break;
    case 1:
      if (end - p < 8) return false;
      p += 8;
      break;
    case 5:
      if (end - p < 4) return false;
      p += 4;
      break;
    case 2:
      if (!ReadVarint(&p, end, &value) || value > static_cast<uint64_t>(end - p)) return false;
      r->value = p;
      r->length = value;
      p += value;
      break;
    default:
      return false;
  }
  r->end = p;
  return true;
}

bool FindLengthDelimited(std::string_view message, int number, std::string_view* value) {
  const auto* p = reinterpret_cast<const uint8_t*>(message.data());
  const uint8_t* end = p + message.size();
  Record r;
  for (; p < end && ReadRecord(p, end, &r); p = r.end) {
    if (r.number == number && r.wire_type == 2) {
      *value = r.view();
      return true;
    }
  }
  return false;
}

}  // namespace graphport::proto
