// A Const's TensorProto as a TF.js manifest weight: its values in the manifest dtype
// (tfjs-converter's auto-conversion: float64/float16/bfloat16 -> float32, int64 and the small
// integers -> int32, complex128 -> complex64), from tensor_content or the typed value fields
// (a shorter list repeats its last value, as TensorFlow's MakeNdarray does).
#ifndef GRAPHPORT_TFJS_TENSOR_WEIGHT_H_
#define GRAPHPORT_TFJS_TENSOR_WEIGHT_H_

#include <string>
#include <vector>

#include "tensorflow/tensor.pb.h"
#include "tfjs/manifest.h"

namespace graphport::tfjs {

// The manifest dtype for a TensorFlow dtype; false when TF.js has none (resource, variant,
// quantized types, uint32/uint64 wider than int32 can hold is still allowed: it wraps).
bool ManifestDtypeFor(tensorflow::DataType dtype, WeightDtype* out);

struct WeightData {
  WeightDtype dtype = WeightDtype::kFloat32;
  uint64_t elements = 0;
  std::string bytes;                 // fixed-width dtypes, little-endian
  std::vector<std::string> strings;  // string
};

// Throws graphport::Error naming `node`: kUnsupported for a dtype TF.js cannot hold,
// kParseError for contents that do not fit the shape, kTooLarge past 2 GiB of values.
WeightData TensorToWeight(const tensorflow::TensorProto& tensor, const std::string& node);

// Bytes the weight takes in the shards, as TF.js stores it.
uint64_t StoredSize(const WeightData& data);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_TENSOR_WEIGHT_H_
