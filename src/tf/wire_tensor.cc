#include "tf/wire_tensor.h"

#include <cstdint>

#include "proto/wire_record.h"
#include "tensorflow/tensor_shape.pb.h"
#include "tf/dtype.h"

namespace graphport::tf {
namespace {

// Field numbers: NodeDef.attr, its entries' key and value, AttrValue.tensor.
constexpr int kAttrField = 5, kKeyField = 1, kValueField = 2, kTensorField = 8;
// TensorProto.
constexpr int kDtypeField = 1, kShapeField = 2, kContentField = 4, kStringValField = 8;
constexpr int kFloat8ValField = 18;
// TensorShapeProto, and its Dim.
constexpr int kDimField = 2, kUnknownRankField = 3, kDimSizeField = 1;

// proto::ReadRecord's walk, inlined with a fast path for one-byte varints: a graph's
// constants are tens of thousands of small nodes, and a call per record cost more than
// reading them. Stops (false) where ReadRecord does: bytes cut off, a group.
struct Field {
  uint64_t number = 0;
  int wire_type = 0;
  uint64_t varint = 0;             // a varint field's value
  const uint8_t* value = nullptr;  // a length-delimited field's payload
  uint64_t length = 0;
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(value), length);
  }
};

// Forced inline, so that the cursor and record stay locals in Emscripten's build too. What
// is left of the walk's time is mostly reading the scattered nodes' bytes from memory (a
// loop that only touches their cache lines costs nearly as much).
[[gnu::always_inline]] inline bool Varint(const uint8_t** p, const uint8_t* end, uint64_t* v) {
  if (*p < end && **p < 0x80) {
    *v = *(*p)++;
    return true;
  }
  return proto::ReadVarint(p, end, v);
}

[[gnu::always_inline]] inline bool NextField(const uint8_t** p, const uint8_t* end, Field* f) {
  uint64_t tag;
  if (!Varint(p, end, &tag)) return false;
  f->number = tag >> 3;
  f->wire_type = static_cast<int>(tag & 7);
  switch (f->wire_type) {
    case 0:
      return Varint(p, end, &f->varint);
    case 1:
      if (end - *p < 8) return false;
      *p += 8;
      return true;
    case 5:
      if (end - *p < 4) return false;
      *p += 4;
      return true;
    case 2:
      if (!Varint(p, end, &f->length) || f->length > static_cast<uint64_t>(end - *p)) {
        return false;
      }
      f->value = *p;
      *p += f->length;
      return true;
    default:
      return false;
  }
}

// proto::FindLengthDelimited, on the inlined walk. Canonical bytes hold the field wanted
// first (a map entry's key, then its value) with a one-byte tag and length, which is checked
// before walking.
inline bool FindBytes(std::string_view message, uint64_t number, std::string_view* value) {
  const auto* p = reinterpret_cast<const uint8_t*>(message.data());
  const uint8_t* end = p + message.size();
  if (number < 16 && end - p >= 2 && p[0] == ((number << 3) | 2) && p[1] < 0x80 &&
      p[1] <= end - p - 2) {
    *value = std::string_view(reinterpret_cast<const char*>(p + 2), p[1]);
    return true;
  }
  Field f;
  while (p < end && NextField(&p, end, &f)) {
    if (f.number == number && f.wire_type == 2) {
      *value = f.view();
      return true;
    }
  }
  return false;
}

// ElementCount (tf/dtype.h) of the TensorShapeProto in `bytes`, read from them when they hold
// only dims with sizes that fit 9 varint bytes (no dim name, no negative size) and
// unknown_rank; false for anything else, which is parsed instead, for libprotobuf's verdict
// on it (a name's UTF-8, a negative size's ten bytes).
bool SimpleShapeElements(std::string_view bytes, int64_t* count) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  int64_t n = 1;
  bool overflow = false, unknown_rank = false;
  Field f;
  while (p < end) {
    const uint8_t* start = p;
    if (!NextField(&p, end, &f)) return false;
    if (f.number == kUnknownRankField && f.wire_type == 0 && p - start == 2) {
      unknown_rank = f.varint != 0;
      continue;
    }
    if (f.number != kDimField || f.wire_type != 2) return false;
    const uint8_t* q = f.value;
    const uint8_t* dim_end = q + f.length;
    uint64_t size = 0;
    while (q < dim_end) {
      const uint8_t* dim_start = q;
      Field d;
      if (!NextField(&q, dim_end, &d)) return false;
      if (d.number != kDimSizeField || d.wire_type != 0 || q - dim_start > 10) return false;
      size = d.varint;  // at most 9 bytes of varint: 0 <= size < 2^63
    }
    const auto s = static_cast<int64_t>(size);
    if (s != 0 && n > INT64_MAX / s) overflow = true;
    if (!overflow) n *= s;
  }
  *count = unknown_rank || overflow ? -1 : n;
  return true;
}

int64_t ShapeElements(std::string_view bytes) {
  int64_t count;
  if (SimpleShapeElements(bytes, &count)) return count;
  tensorflow::TensorShapeProto shape;
  if (!shape.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return 0;
  return ElementCount(shape);
}

// TensorPayloadBytes on the wire bytes of a TensorProto.
uint64_t TensorBytes(std::string_view tensor) {
  const auto* p = reinterpret_cast<const uint8_t*>(tensor.data());
  const uint8_t* end = p + tensor.size();
  uint64_t dtype = 0, content = 0, strings = 0;
  bool has_strings = false, has_values = false;
  std::string_view shape_bytes;
  Field f;
  while (p < end) {
    const uint8_t* start = p;
    if (!NextField(&p, end, &f)) break;
    switch (f.number) {
      case kDtypeField:
        // Read after a one-byte tag, as ReadRecord's callers here always did.
        if (f.wire_type == 0) {
          const uint8_t* q = start + 1;
          proto::ReadVarint(&q, p, &dtype);
        }
        break;
      case kShapeField:
        shape_bytes = f.view();
        break;
      case kContentField:
        content = f.length;
        break;
      case kStringValField:
        has_strings = true;
        strings += f.length;
        break;
      case 3:   // version_number
      case 14:  // resource_handle_val
      case 15:  // variant_val
        break;
      case kFloat8ValField:
        has_values = has_values || f.length > 0;
        break;
      default:
        // half, float, double, int, scomplex, int64, bool, dcomplex, uint32, uint64 values:
        // canonical bytes hold a record only for a list that is not empty.
        has_values = true;
        break;
    }
  }
  if (content > 0) return content;
  if (has_strings) return strings;
  if (!has_values) return 0;
  int64_t count = ShapeElements(shape_bytes);
  uint64_t width = DtypeBytes(static_cast<tensorflow::DataType>(dtype));
  return count > 0 ? width * static_cast<uint64_t>(count) : 0;
}

}  // namespace

uint64_t CanonicalConstPayloadBytes(std::string_view bytes) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  Field f;
  while (p < end && NextField(&p, end, &f)) {
    if (f.number != kAttrField || f.wire_type != 2) continue;
    const std::string_view entry = f.view();
    std::string_view key, value, tensor;
    if (!FindBytes(entry, kKeyField, &key) || key != "value") continue;
    // When the key is the entry's first record (as canonical bytes have it), the first value
    // record is the first one after it.
    const size_t after_key = key.data() + key.size() - entry.data();
    const std::string_view search =
        key.data() == entry.data() + 2 ? entry.substr(after_key) : entry;
    if (!FindBytes(search, kValueField, &value)) return 0;
    return FindBytes(value, kTensorField, &tensor) ? TensorBytes(tensor) : 0;
  }
  return 0;
}

}  // namespace graphport::tf
