// One manifest weight read from its shards and put into a TensorProto exactly as TensorFlow
// holds the Const it came from: dequantized as TF.js does, then cast back to the Const's
// dtype (the converter narrows int64 to int32 and float64/float16 to float32).
#ifndef GRAPHPORT_TFJS_WEIGHT_VALUES_H_
#define GRAPHPORT_TFJS_WEIGHT_VALUES_H_

#include <string>

#include "tensorflow/tensor.pb.h"
#include "tensorflow/types.pb.h"
#include "tfjs/manifest.h"
#include "tfjs/shard_reader.h"

namespace graphport::tfjs {

// Reads `spec`'s bytes from `shards` and sets tensor->dtype and its value field
// (tensor_content, or string_val for strings); the shape is left to the caller. With
// `dequantize` false a quantized weight keeps its codes, as a DT_UINT8, DT_UINT16 or DT_HALF
// tensor. Throws kParseError when `const_dtype` cannot hold the manifest's dtype, naming
// `node`.
void ReadWeightValues(ShardReader* shards, const WeightSpec& spec, tensorflow::DataType const_dtype,
                      bool dequantize, const std::string& node, const std::string& model_json,
                      tensorflow::TensorProto* tensor);

// Reads past a weight no node uses.
void SkipWeight(ShardReader* shards, const WeightSpec& spec);

// The TensorFlow dtype of a quantized weight's codes: DT_UINT8, DT_UINT16 or DT_HALF.
tensorflow::DataType StoredCodeDtype(WeightDtype stored);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_WEIGHT_VALUES_H_
