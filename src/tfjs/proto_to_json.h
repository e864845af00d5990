// A message in protobuf JSON as tfjs-converter writes it (Python's MessageToDict): fields in
// field-number order under their lowerCamelCase JSON names, proto3 defaults omitted but a set
// oneof member always written, int64 as strings, enums by name, bytes in base64, float fields
// as the shortest decimal that reads back as the same float32.
//
// It prints the message's deterministic serialisation (proto/deterministic_bytes.h) with its
// schema tables (proto/schema.h) straight to text: a field is written when its bytes are
// there, which is when libprotobuf's reflection would list it, so no descriptor or reflection
// is needed, and no tree is built (a node-heavy graph's model.json has millions of values).
#ifndef GRAPHPORT_TFJS_PROTO_TO_JSON_H_
#define GRAPHPORT_TFJS_PROTO_TO_JSON_H_

#include <google/protobuf/message_lite.h>

#include <string>
#include <string_view>

#include "core/ordered_json.h"
#include "proto/schema.h"

namespace graphport::tfjs {

// Appends the compact JSON text (as OrderedJson::Dump writes it) of the message whose
// deterministic serialisation is `deterministic_bytes` (a wire graph's canonical node is one
// already), of the type `schema` describes. Map entries are written sorted by the text of
// their key, so the output does not depend on hash order. Fields the schema does not know are
// left out, and so are Anys' contents (an Any is its type URL and its value in base64). False,
// with *out incomplete, when a string is not UTF-8, which JSON cannot hold. Throws
// Error(kTooLarge) for messages nested more than kMaxProtoNesting deep.
[[nodiscard]] bool AppendMessageJson(std::string_view deterministic_bytes,
                                     const proto::MessageSchema& schema, std::string* out);

// The same as a tree, for the parts of model.json that are edited before they are written
// (a signature, a library). Throws Error(kUnsupported) when a string is not UTF-8.
OrderedJson MessageToJson(const google::protobuf::MessageLite& message,
                          const proto::MessageSchema& schema);

// The same for a generated message class whose schema the generated set declares
// (e.g. tensorflow/schemas.h, which must be included where this is used).
template <typename Message>
OrderedJson MessageToJson(const Message& message) {
  return MessageToJson(message, proto::SchemaOf<Message>());
}

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_PROTO_TO_JSON_H_
