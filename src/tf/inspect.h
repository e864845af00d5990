// The summary of a loaded TensorFlow graph that the page, the CLI and inspect() show.
#ifndef GRAPHPORT_TF_INSPECT_H_
#define GRAPHPORT_TF_INSPECT_H_

#include <nlohmann/json.hpp>

#include "tf/tf_model.h"

namespace graphport::tf {

// Plain data: family, format, producer and versions, node count, op histogram, constants,
// name scopes, collections, signatures, functions, tags and every MetaGraphDef of a SavedModel.
nlohmann::json Inspect(const TfModel& model);

// Bytes of tensor data a TensorProto holds (tensor_content or the typed value fields).
uint64_t TensorPayloadBytes(const tensorflow::TensorProto& tensor);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_INSPECT_H_
