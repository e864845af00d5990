// model.json itself: its bytes parsed as JSON, and what kind of TF.js file it is.
#ifndef GRAPHPORT_TFJS_MODEL_JSON_H_
#define GRAPHPORT_TFJS_MODEL_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/byte_stream.h"

namespace graphport::tfjs {

enum class ModelJsonKind {
  kGraphModel,   // modelTopology is a GraphDef (has "node")
  kLayersModel,  // modelTopology is Keras JSON (model_config / class_name)
  kWeightsOnly,  // a bare weights manifest, or weightsManifest without a topology
  kNotTfjs,      // JSON, but none of the above
};

// Reads the whole source (at most kMaxProtoBytes) and parses it. Throws kParseError with the
// byte offset for malformed JSON or text that is not UTF-8, kTooLarge past the limit.
nlohmann::json ParseModelJson(ByteSource* source, const std::string& name, uint64_t* bytes);

ModelJsonKind ClassifyModelJson(const nlohmann::json& model);

// Throws the error a reader gives for a kind that is not a graph model (no-op for one).
void RequireGraphModel(const nlohmann::json& model, const std::string& name);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_MODEL_JSON_H_
