// Reflection walks over a whole message tree: what a writer leaves out.
#ifndef GRAPHPORT_PROTO_MESSAGE_WALK_H_
#define GRAPHPORT_PROTO_MESSAGE_WALK_H_

#include <google/protobuf/message.h>

#include <string>
#include <vector>

#include "proto/field_path.h"

namespace graphport::proto {

// Fields the schema does not know, as text format would have to print them (by number).
struct UnknownFieldReport {
  size_t count = 0;                 // unknown fields in the whole tree
  std::vector<std::string> listed;  // the first kMaxListed: "node[2].attr[\"x\"] field 9"
  static constexpr size_t kMaxListed = 100;
};
UnknownFieldReport ListUnknownFields(const google::protobuf::Message& message);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_MESSAGE_WALK_H_
