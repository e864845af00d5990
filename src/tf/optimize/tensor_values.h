// The values of a floating-point Const, as the batch-norm fold reads and writes them: each
// element widened to double (exact for float32 and float64), and written back rounded to
// the tensor's dtype, as NumPy's astype does.
#ifndef GRAPHPORT_TF_OPTIMIZE_TENSOR_VALUES_H_
#define GRAPHPORT_TF_OPTIMIZE_TENSOR_VALUES_H_

#include <cstdint>
#include <vector>

#include "tensorflow/tensor.pb.h"

namespace graphport::tf {

struct FloatTensor {
  tensorflow::DataType dtype = tensorflow::DT_INVALID;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

// False for a dtype other than DT_FLOAT / DT_DOUBLE, an unknown dimension, or contents that
// do not fill the shape (a single typed value fills any shape, as TensorFlow reads it).
bool ReadFloatTensor(const tensorflow::TensorProto& tensor, FloatTensor* out);

// `value` rounded to `dtype` (DT_FLOAT: to the nearest float32), as a double. Inline: the
// batch-norm fold calls it for every filter element.
inline double RoundTo(tensorflow::DataType dtype, double value) {
  return dtype == tensorflow::DT_FLOAT ? static_cast<double>(static_cast<float>(value)) : value;
}

// Fills `out` with dtype, shape and tensor_content (little-endian) from `tensor`.
void WriteFloatTensor(const FloatTensor& tensor, tensorflow::TensorProto* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_TENSOR_VALUES_H_
