// A message's bytes as deterministic serialisation writes them (map entries sorted by key):
// what graphport's writers produce, so two equal messages give equal bytes.
#ifndef GRAPHPORT_PROTO_DETERMINISTIC_BYTES_H_
#define GRAPHPORT_PROTO_DETERMINISTIC_BYTES_H_

#include <google/protobuf/message_lite.h>

#include <string>

namespace graphport::proto {

// For messages in memory, under 2 GiB (it makes no size check).
std::string DeterministicBytes(const google::protobuf::MessageLite& message);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_DETERMINISTIC_BYTES_H_
