#include "tf/wire_tensor.h"

#include "proto/wire_record.h"
#include "tensorflow/tensor_shape.pb.h"
#include "tf/dtype.h"

namespace graphport::tf {
namespace {

using proto::FindLengthDelimited;
using proto::ReadRecord;
using proto::Record;

// Field numbers: NodeDef.attr, its entries' key and value, AttrValue.tensor.
constexpr int kAttrField = 5, kKeyField = 1, kValueField = 2, kTensorField = 8;
// TensorProto.
constexpr int kDtypeField = 1, kShapeField = 2, kContentField = 4, kStringValField = 8;
constexpr int kFloat8ValField = 18;

// TensorPayloadBytes on the wire bytes of a TensorProto.
uint64_t TensorBytes(std::string_view tensor) {
  const auto* p = reinterpret_cast<const uint8_t*>(tensor.data());
  const uint8_t* end = p + tensor.size();
  uint64_t dtype = 0, content = 0, strings = 0;
  bool has_strings = false, has_values = false;
  std::string_view shape_bytes;
  Record r;
  for (; p < end && ReadRecord(p, end, &r); p = r.end) {
    switch (r.number) {
      case kDtypeField: {
        const uint8_t* q = r.start + 1;
        if (r.wire_type == 0) proto::ReadVarint(&q, r.end, &dtype);
        break;
      }
      case kShapeField:
        shape_bytes = r.view();
        break;
      case kContentField:
        content = r.length;
        break;
      case kStringValField:
        has_strings = true;
        strings += r.length;
        break;
      case 3:   // version_number
      case 14:  // resource_handle_val
      case 15:  // variant_val
        break;
      case kFloat8ValField:
        has_values = has_values || r.length > 0;
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
  tensorflow::TensorShapeProto shape;
  if (!shape.ParseFromArray(shape_bytes.data(), static_cast<int>(shape_bytes.size()))) return 0;
  int64_t count = ElementCount(shape);
  uint64_t width = DtypeBytes(static_cast<tensorflow::DataType>(dtype));
  return count > 0 ? width * static_cast<uint64_t>(count) : 0;
}

}  // namespace

uint64_t CanonicalConstPayloadBytes(std::string_view bytes) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  Record r;
  for (; p < end && ReadRecord(p, end, &r); p = r.end) {
    if (r.number != kAttrField || r.wire_type != 2) continue;
    std::string_view key, value, tensor;
    if (!FindLengthDelimited(r.view(), kKeyField, &key) || key != "value") continue;
    if (!FindLengthDelimited(r.view(), kValueField, &value)) return 0;
    return FindLengthDelimited(value, kTensorField, &tensor) ? TensorBytes(tensor) : 0;
  }
  return 0;
}

}  // namespace graphport::tf
