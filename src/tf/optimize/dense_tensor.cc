#include "tf/optimize/dense_tensor.h"

#include <cstring>

#include "tf/dtype.h"

namespace graphport::tf {
namespace {

using tensorflow::DataType;

constexpr int64_t kMaxElements = int64_t{1} << 31;
// A typed list is expanded to the whole shape: a few values may stand for a huge tensor (a
// zeros initializer of [2^30] is one number), which folding would make real. Past this the
// tensor is not read, and so not folded.
constexpr int64_t kMaxExpandedBytes = int64_t{16} << 20;

// Appends `count` little-endian elements of `size` bytes each, from a typed value list whose
// values are widened in the proto (int8 in int_val, half in half_val...).
template <typename Stored, typename List>
bool FromList(const List& list, int64_t count, std::string* out) {
  out->assign(static_cast<size_t>(count) * sizeof(Stored), '\0');
  if (list.empty()) return true;  // zeros
  if (list.size() > count) return false;
  for (int64_t i = 0; i < count; ++i) {
    Stored value =
        static_cast<Stored>(list[static_cast<int>(i < list.size() ? i : list.size() - 1)]);
    std::memcpy(out->data() + i * sizeof(Stored), &value, sizeof(Stored));
  }
  return true;
}

}  // namespace

int64_t DenseTensor::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

bool ReadDenseTensor(const tensorflow::TensorProto& tensor, DenseTensor* out) {
  size_t size = DtypeBytes(tensor.dtype());
  if (size == 0 || tensor.tensor_shape().unknown_rank()) return false;
  out->dtype = tensor.dtype();
  out->shape.clear();
  int64_t count = 1;
  for (const auto& dim : tensor.tensor_shape().dim()) {
    if (dim.size() < 0) return false;
    out->shape.push_back(dim.size());
    count *= dim.size();
    if (count > kMaxElements) return false;
  }
  if (!tensor.tensor_content().empty()) {
    if (tensor.tensor_content().size() != static_cast<size_t>(count) * size) return false;
    out->bytes = tensor.tensor_content();
    return true;
  }
  if (count * static_cast<int64_t>(size) > kMaxExpandedBytes) return false;
  switch (tensor.dtype()) {
    case tensorflow::DT_FLOAT:
      return FromList<float>(tensor.float_val(), count, &out->bytes);
    case tensorflow::DT_DOUBLE:
      return FromList<double>(tensor.double_val(), count, &out->bytes);
    case tensorflow::DT_INT32:
      return FromList<int32_t>(tensor.int_val(), count, &out->bytes);
    case tensorflow::DT_INT16:
      return FromList<int16_t>(tensor.int_val(), count, &out->bytes);
    case tensorflow::DT_UINT16:
      return FromList<uint16_t>(tensor.int_val(), count, &out->bytes);
    case tensorflow::DT_INT8:
      return FromList<int8_t>(tensor.int_val(), count, &out->bytes);
    case tensorflow::DT_UINT8:
      return FromList<uint8_t>(tensor.int_val(), count, &out->bytes);
    case tensorflow::DT_INT64:
      return FromList<int64_t>(tensor.int64_val(), count, &out->bytes);
    case tensorflow::DT_UINT32:
      return FromList<uint32_t>(tensor.uint32_val(), count, &out->bytes);
    case tensorflow::DT_UINT64:
      return FromList<uint64_t>(tensor.uint64_val(), count, &out->bytes);
    case tensorflow::DT_BOOL:
      return FromList<uint8_t>(tensor.bool_val(), count, &out->bytes);
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16:
      return FromList<uint16_t>(tensor.half_val(), count, &out->bytes);
    default:
      return false;  // complex values: pairs in their lists, not folded
  }
}

void WriteDenseTensor(const DenseTensor& tensor, tensorflow::TensorProto* out) {
  out->Clear();
  out->set_dtype(tensor.dtype);
  for (int64_t d : tensor.shape) out->mutable_tensor_shape()->add_dim()->set_size(d);
  out->set_tensor_content(tensor.bytes);
}

bool IntegerValues(const DenseTensor& tensor, std::vector<int64_t>* out) {
  out->clear();
  for (int64_t i = 0; i < tensor.elements(); ++i) {
    if (tensor.dtype == tensorflow::DT_INT32) {
      int32_t v;
      std::memcpy(&v, tensor.bytes.data() + i * 4, 4);
      out->push_back(v);
    } else if (tensor.dtype == tensorflow::DT_INT64) {
      int64_t v;
      std::memcpy(&v, tensor.bytes.data() + i * 8, 8);
      out->push_back(v);
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace graphport::tf
