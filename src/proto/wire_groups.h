// Groups (wire types 3 and 4) in a message's wire bytes. TensorFlow's schemas are proto3 and
// have none, yet libprotobuf parses a group of any field number and keeps it as an unknown
// field; text format cannot print one, so a graph holding one could be loaded and written
// as binary but not as text, and graphport must read back all it writes. Readers refuse a
// group where they meet one (proto_io's binary parse, with what FindGroup says).
#ifndef GRAPHPORT_PROTO_WIRE_GROUPS_H_
#define GRAPHPORT_PROTO_WIRE_GROUPS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "proto/schema.h"

namespace graphport::proto {

struct WireGroup {
  size_t offset = 0;  // of the group's tag in the bytes walked
  int number = 0;     // its field number
  bool end = false;   // an end-group tag (with no start before it)
  // Where it is: "meta_graphs[0].graph_def.node[3]" ("" at the top level), and the name of
  // the innermost message on that path that has one (a NodeDef's, a function's signature),
  // "" when none has.
  std::string path;
  std::string owner_name;
  std::string owner_type;  // that message's type ("NodeDef")
};

// The first group a walk of `bytes` as `type` meets (every known message field, to
// libprotobuf's nesting limit), or nothing. A walk stops quietly at bytes that do not parse:
// the parse that follows or came before reports those.
std::optional<WireGroup> FindGroup(std::string_view bytes, const MessageSchema& type);

// "field 14 is a group (wire type start-group) at byte 326874, in
// meta_graphs[0].graph_def.node[3] (NodeDef 'lstm/while'); TensorFlow's schemas have none".
std::string DescribeGroup(const WireGroup& group);

// The node or function that holds the group, for ErrorLocation::node ("" when none does).
std::string GroupNode(const WireGroup& group);

// For a writer whose text printer refused its own serialization: throws Error(kParseError)
// naming the group `bytes` hold, and returns when they hold none (the caller's error is then
// a bug of graphport's, INTERNAL). A group reaches a writer only in a message no reader
// looked at for one (a stream too large to hold, or libprotobuf's own parse).
void ThrowIfGroup(std::string_view bytes, const MessageSchema& type, const std::string& what);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_GROUPS_H_
