// A reflection walk over a whole message tree: the check libprotobuf's text parser does not
// make for us.
#ifndef GRAPHPORT_PROTO_MESSAGE_WALK_H_
#define GRAPHPORT_PROTO_MESSAGE_WALK_H_

#include <google/protobuf/message.h>

#include <cstddef>

#include "proto/field_path.h"

namespace graphport::proto {

// The first proto3 `string` field (depth first, in field order) whose bytes are not UTF-8.
// libprotobuf's binary parser refuses such strings, its text parser in 3.21 does not; the
// JSON that inspect() and export info are made of cannot hold them. Returns false when
// every string is valid; else fills `path` and `*bad_offset` (within the string).
bool FindNonUtf8String(const google::protobuf::Message& message, FieldPath* path,
                       size_t* bad_offset);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_MESSAGE_WALK_H_
