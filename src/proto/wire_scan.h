// A structural check of protobuf wire bytes against a message schema, without parsing.
//
// Binary protobuf carries no type: the same bytes can be a GraphDef, a MetaGraphDef or
// something else entirely. Detection scores each candidate schema by walking the bytes with
// its schema and counting fields whose number and wire type fit. The walk is also how an
// error names the byte offset where the input stops making sense.
#ifndef GRAPHPORT_PROTO_WIRE_SCAN_H_
#define GRAPHPORT_PROTO_WIRE_SCAN_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "proto/schema.h"

namespace graphport::proto {

struct WireScan {
  int known_fields = 0;    // fields whose number and wire type fit the schema
  int unknown_fields = 0;  // field numbers the schema does not have (allowed, but suspicious)
  // Known numbers with another wire type: libprotobuf keeps them as unknown fields, so they
  // are allowed, but they speak against the schema more than an unknown number does.
  int mismatched_fields = 0;
  std::string first_mismatch;  // "field 1 (name of NodeDef) has wire type varint, ... at byte 2"
  bool conflict = false;       // the bytes cannot be this message
  // The bytes fit this message but end inside a field: a cut-off file, not another format.
  bool truncated = false;
  // The conflict is a group tag (wire type 3 or 4), at conflict_offset: no TensorFlow schema
  // has groups (proto/wire_groups.h).
  bool group = false;
  size_t conflict_offset = 0;   // where the conflict or the cut-off field starts
  std::string conflict_reason;  // e.g. "field 1 has wire type varint, expected length-delimited"
};

// Walks `bytes` as `type`. `complete` says whether `bytes` is the whole input; if not, a field
// cut off by the end of `bytes` ends the walk without a conflict. Nested messages are walked
// to the nesting limit (proto/wire_reader.h); deeper ones are left to the parse.
WireScan ScanWire(std::string_view bytes, const MessageSchema& type, bool complete);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_SCAN_H_
