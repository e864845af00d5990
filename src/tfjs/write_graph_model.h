// A TensorFlow graph written as a TensorFlow.js graph model, laid out as tfjs-converter lays
// it out: model.json (format, generatedBy, convertedBy, signature, modelTopology,
// userDefinedMetadata, modelInitializer, initializerSignature, weightsManifest, in that order) and
// the weights of every Const, in node order, cut into group1-shard<i>of<n>.bin files.
#ifndef GRAPHPORT_TFJS_WRITE_GRAPH_MODEL_H_
#define GRAPHPORT_TFJS_WRITE_GRAPH_MODEL_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/output_set.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tf/meta_graph/graph_nodes.h"
#include "tfjs/model_initializer.h"

namespace graphport::tfjs {

// tfjs-converter's --weight_shard_size_bytes default: 4 MiB.
inline constexpr uint64_t kDefaultShardSize = 4194304;

struct WriteOptions {
  std::string quantize;  // "", "float16", "uint8" or "uint16"
  // fnmatch patterns of the weights to quantize; empty: every float32 weight.
  std::vector<std::string> quantize_weights;
  uint64_t shard_size = kDefaultShardSize;
  // The model JSON's name: a bare name ending in ".json" (what a reader looks for).
  std::string model_json = "model.json";
  nlohmann::json generated_by;  // a string, or null (the converter writes the TF version)
  std::string converted_by = "graphport";
  nlohmann::json user_metadata;  // an object, or null for none
  // The initializer graph (modelInitializer, see model_initializer.h), or null; its Consts'
  // weights follow the model's in the manifest, as tfjs-converter orders them.
  const tensorflow::GraphDef* initializer = nullptr;
  nlohmann::json initializer_signature;  // an object, or null for none
  // The model's resource inputs fed from the initializer's outputs: each gets its resourceId
  // in the signature's inputs and initializerSignature's outputs, as TF.js pairs them.
  std::vector<ResourceLink> resource_links;
};

// Writes model.json and the shards to `out` (shards first: the manifest needs the
// quantization ranges; model.json is streamed a node at a time) and returns the info record:
// {files, weights, shards, weightBytes, quantized, renamedFunctionConsts}. Never changes `graph`.
// Consts inside library functions become weights named "<function>/<const>" (the converter's rule)
// and are renamed so in the function body too. A Const that keeps its quantized codes (the reader's
// "_tfjs_quantization") is written back as the same codes. Throws graphport::Error:
// kInvalidOption for bad options, kUnsupported for a dtype TF.js cannot hold, naming the node.
nlohmann::json WriteGraphModel(tf::GraphNodes* graph, const tensorflow::SignatureDef* signature,
                               const WriteOptions& options, OutputSet* out);
// The same for a parsed graph.
nlohmann::json WriteGraphModel(const tensorflow::GraphDef& graph,
                               const tensorflow::SignatureDef* signature,
                               const WriteOptions& options, OutputSet* out);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_WRITE_GRAPH_MODEL_H_
