// Protobuf JSON (the mapping protobuf's MessageToJson writes) to a message, through reflection,
// from an nlohmann::json value. It replaces libprotobuf's util/json_util, which costs the
// WebAssembly module about 105 KB (46 KB gzip) and first prints the value back to text.
#ifndef GRAPHPORT_PROTO_PROTO_JSON_H_
#define GRAPHPORT_PROTO_PROTO_JSON_H_

#include <google/protobuf/message.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"

namespace graphport::proto {

// Replaces the contents of *message with `value`, a protobuf-JSON object of its type.
//
// Fields are found by their JSON name (lowerCamelCase) or their .proto name; naming one field
// both ways, setting two fields of one oneof, or naming an unknown field is an error. null
// leaves a field unset; a null element of a list or value of a map is an error. Integers are
// range-checked, never truncated. google.protobuf.Any is resolved in the message's descriptor
// pool and the wrapper types take their bare value; the other well-known types with a JSON
// form of their own are not used by graphport's schemas and are refused as kUnsupported.
//
// Errors throw graphport::Error with `code` and a message that starts with `what` and names the
// field path in .proto names: "<what>: field 'meta_info_def.tags[2]': expected a string, got 3".
// Messages nest at most kMaxProtoNesting deep. On error *message is left partly filled.
void JsonToMessage(const nlohmann::json& value, google::protobuf::Message* message,
                   const std::string& what, ErrorCode code = ErrorCode::kParseError);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_PROTO_JSON_H_
