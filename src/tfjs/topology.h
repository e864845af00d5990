// modelTopology: a GraphDef in protobuf JSON, as tfjs-converter writes it (MessageToDict) and
// in the older spellings found in the wild (pb2json's char-code byte strings, numeric enums,
// no "library").
#ifndef GRAPHPORT_TFJS_TOPOLOGY_H_
#define GRAPHPORT_TFJS_TOPOLOGY_H_

#include <nlohmann/json.hpp>
#include <string>

#include "tensorflow/graph.pb.h"

namespace graphport::tfjs {

// Rewrites, in place, every bytes value spelled as an array of byte values (pb2json's
// spelling of a Uint8Array: "s": [78, 72, 87, 67]) into the base64 the JSON mapping uses:
// attr strings and string lists, tensor contents and string values, in nodes and functions.
void NormalizeCharCodeBytes(nlohmann::json* topology);

// Reads modelTopology (or another GraphDef of model.json, named by `key`: modelInitializer)
// into *graph, one node at a time so an error names its node. Throws graphport::Error
// (kParseError) naming `model_json`, `key` and the node or field.
void ReadTopology(const nlohmann::json& topology, const std::string& model_json,
                  tensorflow::GraphDef* graph, const std::string& key = "modelTopology");

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_TOPOLOGY_H_
