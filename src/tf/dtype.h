// Facts about TensorFlow's DataType values that several passes need.
#ifndef GRAPHPORT_TF_DTYPE_H_
#define GRAPHPORT_TF_DTYPE_H_

#include <cstdint>

#include "tensorflow/tensor_shape.pb.h"
#include "tensorflow/types.pb.h"

namespace graphport::tf {

// Bytes per element of a fixed-width dtype; 0 for strings, resources, variants, 4-bit types.
uint64_t DtypeBytes(tensorflow::DataType dtype);

// Number of elements of a fully defined shape; -1 if a dimension is unknown or negative.
int64_t ElementCount(const tensorflow::TensorShapeProto& shape);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_DTYPE_H_
