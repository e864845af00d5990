#include "proto/wire_reader.h"

#include <string>

namespace graphport::proto {

bool ReadVarintSlow(const uint8_t** p, const uint8_t* end, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 7 * kMaxVarintBytes && *p < end; shift += 7) {
    const uint8_t byte = *(*p)++;
    result |= static_cast<uint64_t>(byte & 0x7f) << (shift & 63);
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool ReadVarintSlow(const uint8_t** p, const uint8_t* end, uint64_t* value, bool* minimal) {
  const uint8_t* q = *p;
  if (!ReadVarintSlow(&q, end, value)) return false;
  const auto size = q - *p;
  const uint8_t last = q[-1];
  // A longer varint than needed ends in a zero byte; the tenth holds one bit of the value.
  *minimal = size == 1 || (last != 0 && (size < kMaxVarintBytes || last == 1));
  *p = q;
  return true;
}

const char* WireFaultName(WireFault fault) {
  switch (fault) {
    case WireFault::kNone:
      return "no fault";
    case WireFault::kTruncated:
      return "truncated";
    case WireFault::kOverlongVarint:
      return "varint longer than 10 bytes";
    case WireFault::kBadFieldNumber:
      return "invalid field number";
    case WireFault::kBadWireType:
      return "invalid wire type";
    case WireFault::kGroupMismatch:
      return "end-group tag without its start-group";
    case WireFault::kUnclosedGroup:
      return "start-group tag without its end-group";
    case WireFault::kTooDeep:
      return "nested too deep";
  }
  return "unknown fault";
}

namespace {

// Why a varint read failed at `p`: cut off by `end`, or ten bytes that all go on.
WireFault VarintFault(const uint8_t* p, const uint8_t* end) {
  return end - p >= kMaxVarintBytes ? WireFault::kOverlongVarint : WireFault::kTruncated;
}

}  // namespace

WireReader::WireReader(std::string_view bytes, int depth, const uint8_t* base)
    : begin_(reinterpret_cast<const uint8_t*>(bytes.data())),
      p_(begin_),
      end_(p_ + bytes.size()),
      base_(base != nullptr ? base : p_),
      depth_(depth) {
  if (!WithinNesting(depth)) Fail(WireFault::kTooDeep, p_);
}

WireReader::WireReader(const uint8_t* begin, const uint8_t* end, int depth, const uint8_t* base,
                       const uint8_t* too_deep_at)
    : begin_(begin), p_(begin), end_(end), base_(base), depth_(depth) {
  if (!WithinNesting(depth)) Fail(WireFault::kTooDeep, too_deep_at);
}

WireReader WireReader::Nested(const Record& r) const {
  return WireReader(r.value, r.value + r.length, depth_ + 1, base_, r.start);
}

std::string WireReader::FaultText() const {
  return std::string(WireFaultName(fault_)) + " at byte " + std::to_string(fault_offset_);
}

bool WireReader::Fail(WireFault fault, const uint8_t* at) {
  fault_ = fault;
  fault_offset_ = Offset(at);
  p_ = end_;
  return false;
}

bool WireReader::NextSlow(Record* r) {
  if (fault_ != WireFault::kNone || p_ >= end_) return false;
  const uint8_t* p = p_;
  *r = Record();
  r->start = p;
  r->wire_type = -1;
  uint64_t tag;
  if (!ReadVarint(&p, end_, &tag)) return Fail(VarintFault(r->start, end_), r->start);
  if ((tag >> 3) == 0 || (tag >> 3) > kMaxFieldNumber) {
    return Fail(WireFault::kBadFieldNumber, r->start);
  }
  r->number = static_cast<int>(tag >> 3);
  r->wire_type = static_cast<int>(tag & 7);
  switch (r->wire_type) {
    case kWireVarint: {
      const uint8_t* value = p;
      if (!ReadVarint(&p, end_, &r->varint)) return Fail(VarintFault(value, end_), r->start);
      break;
    }
    case kWireFixed64:
    case kWireFixed32:
      if (end_ - p < FixedWidth(r->wire_type)) return Fail(WireFault::kTruncated, r->start);
      p += FixedWidth(r->wire_type);
      break;
    case kWireLength: {
      const uint8_t* length = p;
      if (!ReadVarint(&p, end_, &r->length)) return Fail(VarintFault(length, end_), r->start);
      r->value = p;
      if (r->length > static_cast<uint64_t>(end_ - p)) {
        return Fail(WireFault::kTruncated, r->start);
      }
      p += r->length;
      break;
    }
    case kWireStartGroup: {
      if (!WithinNesting(depth_ + 1)) return Fail(WireFault::kTooDeep, r->start);
      r->value = p;
      const uint8_t* body_end;
      if (!SkipGroup(&p, r->number, depth_ + 1, &body_end)) return false;
      r->length = static_cast<uint64_t>(body_end - r->value);
      break;
    }
    case kWireEndGroup:
      return Fail(WireFault::kGroupMismatch, r->start);
    default:
      return Fail(WireFault::kBadWireType, r->start);
  }
  r->end = p;
  p_ = p;
  return true;
}

bool WireReader::SkipGroup(const uint8_t** p, int number, int depth, const uint8_t** body_end) {
  // p_ is still at the group's start tag, where an unclosed group's fault is.
  Record r;
  WireReader body(*p, end_, depth, base_, p_);
  while (true) {
    const uint8_t* at = body.p_;
    if (at >= end_) return Fail(WireFault::kUnclosedGroup, p_);
    uint64_t tag;
    const uint8_t* q = at;
    if (ReadVarint(&q, end_, &tag) && (tag & 7) == kWireEndGroup) {
      if (static_cast<uint64_t>(number) != tag >> 3) return Fail(WireFault::kGroupMismatch, at);
      *body_end = at;
      *p = q;
      return true;
    }
    if (!body.Next(&r)) {
      fault_ = body.fault_;
      fault_offset_ = body.fault_offset_;
      p_ = end_;
      return false;
    }
  }
}

}  // namespace graphport::proto
