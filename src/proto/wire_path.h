// Naming where in a message a field value is, from the message's wire bytes: a step of the
// paths that errors give ("node[3]", "attr[\"T\"]", "s"; joined by JoinPathSteps), for
// readers that have the bytes and the schema tables but no parsed message.
#ifndef GRAPHPORT_PROTO_WIRE_PATH_H_
#define GRAPHPORT_PROTO_WIRE_PATH_H_

#include <string>
#include <string_view>
#include <vector>

#include "proto/schema.h"

namespace graphport::proto {

// `field`'s name; for a repeated field also which value: its index, counted among the
// records of `field` in `before` (the message's bytes that come before the value's record),
// or for a map entry its key, when `entry` (the entry's bytes so far) holds it: "[\"T\"]",
// "[7]", "[true]" (a string key that is not UTF-8, or none yet, gives "[#index]").
std::string WirePathStep(std::string_view before, const FieldSchema& field, std::string_view entry);

// One step of the path down to the message a walk is in, kept as bytes: made into text
// (WirePath) only when the walk has something to report, which most walks do not.
struct WireStep {
  const FieldSchema* field;
  std::string_view before;  // its message's bytes before the value's record
  std::string_view value;   // the value's bytes (a map entry's key names it)
};

// The steps as text: "node[3].attr[\"T\"]".
std::string WirePath(const std::vector<WireStep>& steps);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_PATH_H_
