// A message in protobuf JSON as tfjs-converter writes it (Python's MessageToDict): fields in
// field-number order under their lowerCamelCase JSON names, proto3 defaults omitted but a set
// oneof member always written, int64 as strings, enums by name, bytes in base64, float fields
// as the shortest decimal that reads back as the same float32.
#ifndef GRAPHPORT_TFJS_PROTO_TO_JSON_H_
#define GRAPHPORT_TFJS_PROTO_TO_JSON_H_

#include <google/protobuf/message.h>

#include "core/ordered_json.h"

namespace graphport::tfjs {

// Map entries are written sorted by key, so the output does not depend on hash order.
OrderedJson MessageToJson(const google::protobuf::Message& message);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_PROTO_TO_JSON_H_
