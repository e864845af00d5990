// The summary of a loaded TensorFlow graph that the page, the CLI and inspect() show.
#ifndef GRAPHPORT_TF_INSPECT_H_
#define GRAPHPORT_TF_INSPECT_H_

#include <nlohmann/json.hpp>

#include "tf/tf_model.h"

namespace graphport::tf {

// The graph's fields of a summary (tf/results.h describes them): producer and versions, node
// count, op histogram, constants, name scopes, collections, signatures, functions, tags and
// every MetaGraphDef of a SavedModel. A family that reads TensorFlow graphs adds its header.
nlohmann::json InspectGraph(const TfModel& model);
// TensorFlow's part of the header: family, format, encoding, detection, inputBytes.
nlohmann::json InspectHeader(const TfModel& model);
// Both.
nlohmann::json Inspect(const TfModel& model);

// Bytes of tensor data a TensorProto holds (tensor_content or the typed value fields).
uint64_t TensorPayloadBytes(const tensorflow::TensorProto& tensor);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_INSPECT_H_
