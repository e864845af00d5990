// The bytes libprotobuf serializes for a message parsed from given wire bytes: what an Any's
// `value` holds when text format gives it expanded ([type.googleapis.com/T] { ... }), which
// libprotobuf's text parser fills by parsing T and serializing it.
#ifndef GRAPHPORT_PROTO_WIRE_CANONICAL_H_
#define GRAPHPORT_PROTO_WIRE_CANONICAL_H_

#include <string>
#include <string_view>

#include "proto/schema.h"

namespace graphport::proto {

// Appends to `out` the serialization of the message of `type` that `wire` parses to: fields
// in number order; a singular field once (its last value; messages merged); a proto3 scalar
// without presence left out at its default; packed fields packed; a map's entries in the
// order given (a key given twice kept twice), each with its key and value even at their
// defaults; every length in its shortest form. `wire` must hold only fields `type` knows
// (what TextToWire writes): false otherwise. Recurses once per nesting level of `wire`.
bool AppendCanonicalWire(std::string_view wire, const MessageSchema& type, std::string* out);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_CANONICAL_H_
