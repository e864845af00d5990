// A TensorFlow.js graph model (model.json + weight shards) read into a TensorFlow
// MetaGraphDef: the GraphDef from modelTopology with every Const's value put back from the
// weights, the initializer graph merged in (model_initializer.h), and a SignatureDef from the
// model's signature.
#ifndef GRAPHPORT_TFJS_READ_GRAPH_MODEL_H_
#define GRAPHPORT_TFJS_READ_GRAPH_MODEL_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/byte_stream.h"
#include "core/input_set.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/op_def.pb.h"

namespace graphport::tfjs {

// The attr a Const keeps when its weight stays quantized (dequantize: false): the manifest's
// quantization object as JSON text, so a TF.js export writes the same codes back.
inline constexpr char kQuantizationAttr[] = "_tfjs_quantization";

// The SignatureDef key the model's signature is stored under.
inline constexpr char kSignatureKey[] = "serving_default";

struct ReadOptions {
  // False keeps quantized weights as their codes (see kQuantizationAttr).
  bool dequantize = true;
  // Ops a graph may use besides the ones TF.js runs and graphport's built-in table: a
  // TensorFlow op registry the caller has. May be null.
  const tensorflow::OpList* op_registry = nullptr;
};

struct ReadResult {
  // For inspect: format, generatedBy, convertedBy, signatureSource, userDefinedMetadata,
  // modelInitializer (null, or {nodes, shared, renamed, initOps, mainOp, linkedInputs}: see
  // model_initializer.h), initializerSignature, weights [{name, dtype, shape, quantization,
  // group, offset, bytes, shards}], shards [{path, input, group, bytes}], unusedWeights.
  nlohmann::json manifest;
  uint64_t input_bytes = 0;  // model.json and every shard
};

// Reads the model.json `model_json` (a name in `inputs`) from `source`, and its shards from
// `inputs`, each opened only when the weights reach it. *meta_graph is replaced. Throws
// graphport::Error naming the file, offset and node: a layers model, a weights-only
// manifest, missing or short shards, unknown ops, bad JSON.
ReadResult ReadGraphModel(ByteSource* source, InputSet* inputs, const std::string& model_json,
                          const ReadOptions& options, tensorflow::MetaGraphDef* meta_graph);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_READ_GRAPH_MODEL_H_
