// A Const's TensorProto as a TF.js manifest weight: its values in the manifest dtype
// (tfjs-converter's auto-conversion: float64/float16/bfloat16 -> float32, int64 and the small
// integers -> int32, complex128 -> complex64), from tensor_content or the typed value fields
// (a shorter list repeats its last value, as TensorFlow's MakeNdarray does).
#ifndef GRAPHPORT_TFJS_TENSOR_WEIGHT_H_
#define GRAPHPORT_TFJS_TENSOR_WEIGHT_H_

#include <optional>
#include <string>
#include <string_view>
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
  // Fixed-width dtypes, little-endian: `converted` when the values needed a conversion, else
  // a view of the tensor's own tensor_content (a weight is not copied to be written).
  std::string converted;
  std::string_view content;
  std::vector<std::string> strings;  // string
  std::string_view bytes() const { return converted.empty() ? content : converted; }
};

// The result may view `tensor`'s bytes: it must not outlive it.
// Throws graphport::Error naming `node`: kUnsupported for a dtype TF.js cannot hold,
// kParseError for contents that do not fit the shape, kTooLarge past 2 GiB of values.
WeightData TensorToWeight(const tensorflow::TensorProto& tensor, const std::string& node);

// The weight of a tensor whose tensor_content holds its values as TF.js stores them (float32,
// int32, bool, complex64), as a view of that content; nothing when they need converting or
// do not fit the shape (TensorToWeight then converts them or says why).
std::optional<WeightData> ContentAsWeight(tensorflow::DataType dtype,
                                          const tensorflow::TensorShapeProto& shape,
                                          std::string_view content);

// Bytes the weight takes in the shards, as TF.js stores it.
uint64_t StoredSize(const WeightData& data);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_TENSOR_WEIGHT_H_
