#include "tf/dtype.h"

namespace graphport::tf {

uint64_t DtypeBytes(tensorflow::DataType dtype) {
  switch (dtype) {
    case tensorflow::DT_BOOL:
    case tensorflow::DT_INT8:
    case tensorflow::DT_UINT8:
    case tensorflow::DT_QINT8:
    case tensorflow::DT_QUINT8:
    case tensorflow::DT_FLOAT8_E5M2:
    case tensorflow::DT_FLOAT8_E4M3FN:
    case tensorflow::DT_FLOAT8_E4M3FNUZ:
    case tensorflow::DT_FLOAT8_E4M3B11FNUZ:
    case tensorflow::DT_FLOAT8_E5M2FNUZ:
      return 1;
    case tensorflow::DT_INT16:
    case tensorflow::DT_UINT16:
    case tensorflow::DT_QINT16:
    case tensorflow::DT_QUINT16:
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16:
      return 2;
    case tensorflow::DT_FLOAT:
    case tensorflow::DT_INT32:
    case tensorflow::DT_UINT32:
    case tensorflow::DT_QINT32:
      return 4;
    case tensorflow::DT_DOUBLE:
    case tensorflow::DT_INT64:
    case tensorflow::DT_UINT64:
    case tensorflow::DT_COMPLEX64:
      return 8;
    case tensorflow::DT_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

int64_t ElementCount(const tensorflow::TensorShapeProto& shape) {
  if (shape.unknown_rank()) return -1;
  int64_t n = 1;
  for (const auto& d : shape.dim()) {
    if (d.size() < 0) return -1;
    if (d.size() != 0 && n > INT64_MAX / d.size()) return -1;
    n *= d.size();
  }
  return n;
}

}  // namespace graphport::tf
