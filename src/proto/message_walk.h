// Reflection walks over a whole message tree: the checks a parser does not make for us, and
// what a writer leaves out.
#ifndef GRAPHPORT_PROTO_MESSAGE_WALK_H_
#define GRAPHPORT_PROTO_MESSAGE_WALK_H_

#include <google/protobuf/message.h>

#include <cstddef>
#include <string>
#include <vector>

#include "proto/field_path.h"

namespace graphport::proto {

// The first proto3 `string` field (depth first, in field order) whose bytes are not UTF-8.
// libprotobuf's binary parser refuses such strings, its text parser in 3.21 does not; the
// JSON that inspect() and export info are made of cannot hold them. Returns false when
// every string is valid; else fills `path` and `*bad_offset` (within the string).
bool FindNonUtf8String(const google::protobuf::Message& message, FieldPath* path,
                       size_t* bad_offset);

// Fields the schema does not know, as text format would have to print them (by number).
struct UnknownFieldReport {
  size_t count = 0;                 // unknown fields in the whole tree
  std::vector<std::string> listed;  // the first kMaxListed: "node[2].attr[\"x\"] field 9"
  static constexpr size_t kMaxListed = 100;
};
UnknownFieldReport ListUnknownFields(const google::protobuf::Message& message);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_MESSAGE_WALK_H_
