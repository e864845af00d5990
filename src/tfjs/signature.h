// The signature of a TF.js graph model (top-level "signature", or under
// "userDefinedMetadata" in files of converters 1.3.2 to 2.7) as a TensorFlow SignatureDef.
#ifndef GRAPHPORT_TFJS_SIGNATURE_H_
#define GRAPHPORT_TFJS_SIGNATURE_H_

#include <nlohmann/json.hpp>
#include <string>

#include "tensorflow/meta_graph.pb.h"

namespace graphport::tfjs {

// The signature TF.js itself would use: userDefinedMetadata.signature when present (current
// TF.js prefers it), else the top-level one; null when neither. *source is set to
// "userDefinedMetadata.signature" or "signature".
const nlohmann::json* FindSignature(const nlohmann::json& model, std::string* source);

// `value` into *signature. TF.js-only members (a TensorInfo's "resourceId") are dropped; a
// tensor named without its output ("Identity", the frozen-graph form) gets ":0", which is how
// TensorFlow names a tensor; the method is TensorFlow Serving's predict. Throws kParseError.
void ReadSignature(const nlohmann::json& value, const std::string& what,
                   tensorflow::SignatureDef* signature);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_SIGNATURE_H_
