// Fields a message's bytes hold that its schema does not know: what a text export leaves out
// and reports, and what keeps a node or library from being copied as it is. Read from wire
// bytes with the schema tables (lite messages keep such fields as bytes, with no reflection
// to list them).
#ifndef GRAPHPORT_PROTO_UNKNOWN_FIELDS_H_
#define GRAPHPORT_PROTO_UNKNOWN_FIELDS_H_

#include <google/protobuf/message_lite.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "proto/schema.h"

namespace graphport::proto {

// Fields the schema does not know, as text format would have to print them (by number): a
// number the type lacks, or a known number with another wire type (libprotobuf keeps both
// as unknown fields, and writes them back).
struct UnknownFieldReport {
  size_t count = 0;                 // unknown fields in the whole tree
  std::vector<std::string> listed;  // the first kMaxListed: "node[2].attr[\"x\"] field 9"
  static constexpr size_t kMaxListed = 100;
};

// `bytes` are one message of `type` that libprotobuf parses (the serialized form of a
// message, or bytes proto::CheckWire calls valid); a walk that runs into bytes that do not
// parse stops there.
UnknownFieldReport ListUnknownFields(std::string_view bytes, const MessageSchema& type);
// The same for a message in memory (serialized first).
UnknownFieldReport ListUnknownFields(const google::protobuf::MessageLite& message,
                                     const MessageSchema& type);
template <typename Message>
UnknownFieldReport ListUnknownFields(const Message& message) {
  return ListUnknownFields(message, SchemaOf<Message>());
}

// libprotobuf-lite keeps a message's unknown fields as their wire bytes in a member that
// MessageLite protects, and generates public accessors to them for proto2 files only. A
// pointer to that member, formed through a class derived from MessageLite, reaches it for any
// message: how a writer copies one level of a message (its unknown fields with the fields it
// copies) without a deep copy of the rest. Never instantiated.
struct UnknownFieldsAccess : google::protobuf::MessageLite {
  static constexpr auto kMetadata = &UnknownFieldsAccess::_internal_metadata_;
};

// Adds the unknown fields of `from` (its own level, not its submessages') to those of `to`,
// as a copy of the whole message would carry them.
template <typename Message>
void CopyUnknownFields(const Message& from, Message* to) {
  const auto& source = from.*UnknownFieldsAccess::kMetadata;
  if (!source.have_unknown_fields()) return;  // nothing to allocate a container for
  (to->*UnknownFieldsAccess::kMetadata).template MergeFrom<std::string>(source);
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_UNKNOWN_FIELDS_H_
