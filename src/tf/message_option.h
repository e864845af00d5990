// Export options that carry a protobuf message (metaInfoDef, saverDef, graphDef, opRegistry).
// From JS they come as a protobuf-JSON object, or as bytes (binary or text format), which the
// binding and the CLI give as a binary value (core/option_schema.h, BytesOption).
#ifndef GRAPHPORT_TF_MESSAGE_OPTION_H_
#define GRAPHPORT_TF_MESSAGE_OPTION_H_

#include <google/protobuf/message_lite.h>

#include <nlohmann/json.hpp>
#include <string>

#include "proto/schema.h"

namespace graphport::tf {

// Fills `message`, of the type `schema` describes, from `value`; throws
// Error(kInvalidOption) naming `option` and, for JSON, the offending field.
void ParseProtoOption(const std::string& option, const nlohmann::json& value,
                      google::protobuf::MessageLite* message, const proto::MessageSchema& schema);

// The same for a generated message class (tensorflow/schemas.h must be included where this
// is used).
template <typename Message>
void ParseProtoOption(const std::string& option, const nlohmann::json& value, Message* message) {
  ParseProtoOption(option, value, message, proto::SchemaOf<Message>());
}

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_MESSAGE_OPTION_H_
