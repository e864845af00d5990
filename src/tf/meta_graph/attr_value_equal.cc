#include "tf/meta_graph/attr_value_equal.h"

#include <cstring>
#include <string>

#include "proto/deterministic_bytes.h"
#include "tf/dtype.h"

namespace graphport::tf {
namespace {

template <typename T>
void AppendLittleEndian(T value, size_t width, std::string* out) {
  // Values are stored in the narrowest width of the dtype; wasm32 and x86 are little-endian,
  // and TensorFlow's tensor_content is little-endian on disk.
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out->append(bytes, width < sizeof(T) ? width : sizeof(T));
}

// Expands a typed value field to `n` elements as TensorFlow's FromProtoField does: a shorter
// list repeats its last value, an empty one means zeros, a longer one is cut to the first n.
template <typename Field, typename Convert>
bool Expand(const Field& values, int64_t n, size_t per_value, std::string* out, Convert convert) {
  for (int64_t i = 0; i < n; ++i) {
    if (values.empty()) {
      out->append(per_value, '\0');
    } else {
      convert(values.Get(i < values.size() ? static_cast<int>(i) : values.size() - 1), out);
    }
  }
  return true;
}

// The tensor's elements as TensorFlow would re-encode them into tensor_content. False when
// the tensor cannot be materialised that way (unknown shape, inconsistent sizes, a dtype
// without a fixed encoding); such tensors are compared by their serialized bytes instead.
bool Materialize(const tensorflow::TensorProto& t, std::string* out) {
  int64_t n = ElementCount(t.tensor_shape());
  if (n < 0) return false;
  uint64_t width = DtypeBytes(t.dtype());
  if (!t.tensor_content().empty()) {
    if (width == 0 || t.tensor_content().size() != static_cast<uint64_t>(n) * width) return false;
    *out = t.tensor_content();
    return true;
  }
  switch (t.dtype()) {
    case tensorflow::DT_FLOAT:
      return Expand(t.float_val(), n, 4, out,
                    [](float v, std::string* o) { AppendLittleEndian(v, 4, o); });
    case tensorflow::DT_DOUBLE:
      return Expand(t.double_val(), n, 8, out,
                    [](double v, std::string* o) { AppendLittleEndian(v, 8, o); });
    case tensorflow::DT_INT32:
    case tensorflow::DT_INT16:
    case tensorflow::DT_INT8:
    case tensorflow::DT_UINT8:
    case tensorflow::DT_UINT16:
    case tensorflow::DT_QINT8:
    case tensorflow::DT_QUINT8:
    case tensorflow::DT_QINT16:
    case tensorflow::DT_QUINT16:
    case tensorflow::DT_QINT32:
      return Expand(t.int_val(), n, width, out,
                    [width](int32_t v, std::string* o) { AppendLittleEndian(v, width, o); });
    case tensorflow::DT_INT64:
      return Expand(t.int64_val(), n, 8, out,
                    [](int64_t v, std::string* o) { AppendLittleEndian(v, 8, o); });
    case tensorflow::DT_UINT32:
      return Expand(t.uint32_val(), n, 4, out,
                    [](uint32_t v, std::string* o) { AppendLittleEndian(v, 4, o); });
    case tensorflow::DT_UINT64:
      return Expand(t.uint64_val(), n, 8, out,
                    [](uint64_t v, std::string* o) { AppendLittleEndian(v, 8, o); });
    case tensorflow::DT_BOOL:
      return Expand(t.bool_val(), n, 1, out,
                    [](bool v, std::string* o) { o->push_back(v ? 1 : 0); });
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16:
      return Expand(t.half_val(), n, 2, out,
                    [](int32_t v, std::string* o) { AppendLittleEndian(v, 2, o); });
    case tensorflow::DT_STRING:
      // Length-prefixed so that ["ab", "c"] and ["a", "bc"] differ.
      return Expand(t.string_val(), n, 8, out, [](const std::string& v, std::string* o) {
        AppendLittleEndian(static_cast<uint64_t>(v.size()), 8, o);
        o->append(v);
      });
    default:
      return false;  // complex values come in pairs; resources and variants have no bytes
  }
}

bool SameShape(const tensorflow::TensorShapeProto& a, const tensorflow::TensorShapeProto& b) {
  if (a.unknown_rank() != b.unknown_rank() || a.dim_size() != b.dim_size()) return false;
  for (int i = 0; i < a.dim_size(); ++i) {
    if (a.dim(i).size() != b.dim(i).size()) return false;
  }
  return true;
}

bool AreAttrMapsEqual(const google::protobuf::Map<std::string, tensorflow::AttrValue>& a,
                      const google::protobuf::Map<std::string, tensorflow::AttrValue>& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [key, value] : a) {
    auto it = b.find(key);
    if (it == b.end() || !AreAttrValuesEqual(value, it->second)) return false;
  }
  return true;
}

}  // namespace

bool AreTensorsEqual(const tensorflow::TensorProto& a, const tensorflow::TensorProto& b) {
  if (a.dtype() != b.dtype() || !SameShape(a.tensor_shape(), b.tensor_shape())) return false;
  std::string bytes_a, bytes_b;
  if (Materialize(a, &bytes_a) && Materialize(b, &bytes_b)) return bytes_a == bytes_b;
  return proto::DeterministicBytes(a) == proto::DeterministicBytes(b);
}

bool AreAttrValuesEqual(const tensorflow::AttrValue& a, const tensorflow::AttrValue& b) {
  if (a.type() != b.type()) return false;
  if (a.type() != tensorflow::DT_INVALID && b.type() != tensorflow::DT_INVALID) return true;
  if (a.has_tensor() != b.has_tensor()) return false;
  if (a.has_tensor()) return AreTensorsEqual(a.tensor(), b.tensor());
  if (a.has_func() != b.has_func()) return false;
  if (a.has_func()) {
    return a.func().name() == b.func().name() && AreAttrMapsEqual(a.func().attr(), b.func().attr());
  }
  return proto::DeterministicBytes(a) == proto::DeterministicBytes(b);
}

}  // namespace graphport::tf
