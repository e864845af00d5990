#include "tf/optimize/tensor_values.h"

#include <cstring>

namespace graphport::tf {
namespace {

template <typename T>
bool ReadContent(const std::string& content, size_t count, std::vector<double>* values) {
  if (content.size() != count * sizeof(T)) return false;
  values->resize(count);
  for (size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, content.data() + i * sizeof(T), sizeof(T));
    (*values)[i] = value;
  }
  return true;
}

template <typename Field>
bool ReadField(const Field& field, size_t count, std::vector<double>* values) {
  if (field.size() != static_cast<int>(count) && !(field.size() == 1 && count > 0)) {
    return count == 0 && field.empty();
  }
  values->resize(count);
  for (size_t i = 0; i < count; ++i) {
    (*values)[i] = field.Get(field.size() == 1 ? 0 : static_cast<int>(i));
  }
  return true;
}

}  // namespace

bool ReadFloatTensor(const tensorflow::TensorProto& tensor, FloatTensor* out) {
  if (tensor.dtype() != tensorflow::DT_FLOAT && tensor.dtype() != tensorflow::DT_DOUBLE) {
    return false;
  }
  out->dtype = tensor.dtype();
  out->shape.clear();
  size_t count = 1;
  for (const auto& dim : tensor.tensor_shape().dim()) {
    if (dim.size() < 0) return false;
    out->shape.push_back(dim.size());
    count *= static_cast<size_t>(dim.size());
  }
  if (!tensor.tensor_content().empty()) {
    return tensor.dtype() == tensorflow::DT_FLOAT
               ? ReadContent<float>(tensor.tensor_content(), count, &out->values)
               : ReadContent<double>(tensor.tensor_content(), count, &out->values);
  }
  return tensor.dtype() == tensorflow::DT_FLOAT
             ? ReadField(tensor.float_val(), count, &out->values)
             : ReadField(tensor.double_val(), count, &out->values);
}

void WriteFloatTensor(const FloatTensor& tensor, tensorflow::TensorProto* out) {
  out->Clear();
  out->set_dtype(tensor.dtype);
  for (int64_t size : tensor.shape) out->mutable_tensor_shape()->add_dim()->set_size(size);
  std::string content;
  if (tensor.dtype == tensorflow::DT_FLOAT) {
    content.resize(tensor.values.size() * sizeof(float));
    for (size_t i = 0; i < tensor.values.size(); ++i) {
      float value = static_cast<float>(tensor.values[i]);
      std::memcpy(&content[i * sizeof(float)], &value, sizeof(float));
    }
  } else {
    content.resize(tensor.values.size() * sizeof(double));
    std::memcpy(content.data(), tensor.values.data(), content.size());
  }
  out->set_tensor_content(std::move(content));
}

}  // namespace graphport::tf
