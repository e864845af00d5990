// Finding the string that makes libprotobuf refuse a message's bytes: a proto3 `string` field
// whose value is not UTF-8. libprotobuf-lite's parser refuses it without naming the field
// (the full runtime's log named it); graphport's error names the field, where it is in the
// message, and the byte offset, read from the bytes with the schema tables.
#ifndef GRAPHPORT_PROTO_WIRE_UTF8_H_
#define GRAPHPORT_PROTO_WIRE_UTF8_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "proto/schema.h"

namespace graphport::proto {

struct BadUtf8String {
  std::string field;  // the field's full name: "tensorflow.NodeDef.name"
  std::string path;   // where it is: "node[0].name"
  size_t offset;      // of the first byte that is not UTF-8, in `bytes`
};

// The first such string of `bytes`, one message of `type`, depth first in the bytes' order;
// none when every string is UTF-8 (a walk that runs into bytes that do not parse stops there).
std::optional<BadUtf8String> FindBadUtf8String(std::string_view bytes, const MessageSchema& type);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_UTF8_H_
