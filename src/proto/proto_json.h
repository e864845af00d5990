// Protobuf JSON (the mapping protobuf's MessageToJson writes) to a message, from an
// nlohmann::json value. The JSON is turned into the message's wire bytes with its schema
// tables (proto/schema.h), which libprotobuf-lite then parses: no descriptors, no reflection,
// and none of libprotobuf's util/json_util, which cost the WebAssembly module about 105 KB
// (46 KB gzip) and first print the value back to text.
#ifndef GRAPHPORT_PROTO_PROTO_JSON_H_
#define GRAPHPORT_PROTO_PROTO_JSON_H_

#include <google/protobuf/message_lite.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "proto/schema.h"

namespace graphport::proto {

// Replaces the contents of *message, of the type `schema` describes, with `value`, a
// protobuf-JSON object of that type.
//
// Fields are found by their JSON name (lowerCamelCase) or their .proto name; naming one field
// both ways, setting two fields of one oneof, or naming an unknown field is an error. null
// leaves a field unset; a null element of a list or value of a map is an error. Integers are
// range-checked, never truncated; a proto3 string must be UTF-8. google.protobuf.Any is
// resolved in the schema set its type belongs to (MessageSchema::set) and the wrapper types
// take their bare value; the other well-known types with a JSON form of their own are not used
// by graphport's schemas and are refused as kUnsupported.
//
// Errors throw graphport::Error with `code` and a message that starts with `what` and names the
// field path in .proto names: "<what>: field 'meta_info_def.tags[2]': expected a string, got 3".
// Messages nest at most kMaxProtoNesting deep, counted as JSON nests them (an Any and the
// message in it are two levels) and as the wire bytes do (a map entry is a level of its own;
// libprotobuf parses no deeper). On error *message is left empty.
void JsonToMessage(const nlohmann::json& value, google::protobuf::MessageLite* message,
                   const MessageSchema& schema, const std::string& what,
                   ErrorCode code = ErrorCode::kParseError);

// The same for a generated message class whose schema the generated set declares
// (e.g. tensorflow/schemas.h, which must be included where this is used).
template <typename Message>
void JsonToMessage(const nlohmann::json& value, Message* message, const std::string& what,
                   ErrorCode code = ErrorCode::kParseError) {
  JsonToMessage(value, message, SchemaOf<Message>(), what, code);
}

// The wire bytes JsonToMessage parses, with the same checks and errors: what libprotobuf's
// deterministic serialisation writes for the message (fields in number order, map entries by
// key, proto3 defaults left out, packed fields packed), Any values included.
std::string JsonToWire(const nlohmann::json& value, const MessageSchema& schema,
                       const std::string& what, ErrorCode code = ErrorCode::kParseError);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_PROTO_JSON_H_
