// A Const's values as the constant folder moves them: the elements of a fixed-width dtype as
// little-endian bytes, and the shape. Folding ExpandDims, Reshape, Transpose, ConcatV2... only
// moves elements, so it needs no arithmetic and stays bit for bit what TensorFlow computes.
#ifndef GRAPHPORT_TF_OPTIMIZE_DENSE_TENSOR_H_
#define GRAPHPORT_TF_OPTIMIZE_DENSE_TENSOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/tensor.pb.h"

namespace graphport::tf {

struct DenseTensor {
  tensorflow::DataType dtype = tensorflow::DT_INVALID;
  std::vector<int64_t> shape;
  std::string bytes;  // elements() * DtypeBytes(dtype), little-endian
  int64_t elements() const;
};

// False for a dtype that is not fixed-width, an unknown dimension, more than 2^31 elements, a
// typed list that would expand past 16 MiB, or contents that do not fill the shape (a shorter
// typed list repeats its last value, as TensorFlow's MakeNdarray does; none at all is zeros).
bool ReadDenseTensor(const tensorflow::TensorProto& tensor, DenseTensor* out);

// The tensor as a TensorProto with its values in tensor_content.
void WriteDenseTensor(const DenseTensor& tensor, tensorflow::TensorProto* out);

// The integer elements of an int32 or int64 tensor; false for another dtype.
bool IntegerValues(const DenseTensor& tensor, std::vector<int64_t>* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_DENSE_TENSOR_H_
