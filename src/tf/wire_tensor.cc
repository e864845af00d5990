#include "tf/wire_tensor.h"

#include <cstdint>

#include "proto/wire_reader.h"
#include "tensorflow/tensor_shape.pb.h"
#include "tf/dtype.h"
#include "tf/field_numbers.h"

namespace graphport::tf {
namespace {

using proto::FindLengthDelimited;
using proto::ReadRecord;
using proto::Record;

// ElementCount (tf/dtype.h) of the TensorShapeProto in `bytes`, read from them when they hold
// only dims with sizes that fit 9 varint bytes (no dim name, no negative size) and
// unknown_rank; false for anything else, which is parsed instead, for libprotobuf's verdict
// on it (a name's UTF-8, a negative size's ten bytes).
bool SimpleShapeElements(std::string_view bytes, int64_t* count) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  int64_t n = 1;
  bool overflow = false, unknown_rank = false;
  Record f;
  for (; p < end; p = f.end) {
    if (!ReadRecord(p, end, &f)) return false;
    if (f.number == fields::kShapeUnknownRank && f.wire_type == 0 && f.end - f.start == 2) {
      unknown_rank = f.varint != 0;
      continue;
    }
    if (f.number != fields::kShapeDim || f.wire_type != 2) return false;
    const uint8_t* q = f.value;
    const uint8_t* dim_end = q + f.length;
    uint64_t size = 0;
    Record d;
    for (; q < dim_end; q = d.end) {
      if (!ReadRecord(q, dim_end, &d)) return false;
      if (d.number != fields::kDimSize || d.wire_type != 0 || d.end - d.start > 10) return false;
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
  Record f;
  for (; p < end && ReadRecord(p, end, &f); p = f.end) {
    switch (f.number) {
      case fields::kTensorDtype:
        if (f.wire_type == 0) dtype = f.varint;
        break;
      case fields::kTensorShape:
        shape_bytes = f.view();
        break;
      case fields::kTensorContent:
        content = f.length;
        break;
      case fields::kTensorStringVal:
        has_strings = true;
        strings += f.length;
        break;
      case 3:   // version_number
      case 14:  // resource_handle_val
      case 15:  // variant_val
        break;
      case fields::kTensorFloat8Val:
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

bool FindCanonicalAttr(std::string_view bytes, std::string_view key, std::string_view* value) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  Record f;
  for (; p < end && ReadRecord(p, end, &f); p = f.end) {
    if (f.number != fields::kNodeAttr || f.wire_type != 2) continue;
    const std::string_view entry = f.view();
    std::string_view found;
    if (!FindLengthDelimited(entry, fields::kMapKey, &found) || found != key) continue;
    // When the key is the entry's first record (as canonical bytes have it), the first value
    // record is the first one after it.
    const size_t after_key = found.data() + found.size() - entry.data();
    const std::string_view search =
        found.data() == entry.data() + 2 ? entry.substr(after_key) : entry;
    if (!FindLengthDelimited(search, fields::kMapValue, value)) *value = std::string_view();
    return true;
  }
  return false;
}

uint64_t CanonicalConstPayloadBytes(std::string_view bytes) {
  std::string_view value, tensor;
  if (!FindCanonicalAttr(bytes, "value", &value)) return 0;
  return FindLengthDelimited(value, fields::kAttrTensor, &tensor) ? TensorBytes(tensor) : 0;
}

}  // namespace graphport::tf
