// Parsing and writing protobuf messages, binary or text, from a ByteSource to a ByteSink,
// with graphport's limits and errors that say where the input went wrong. What libprotobuf
// logs meanwhile goes into the error, never to stderr.
#ifndef GRAPHPORT_PROTO_PROTO_IO_H_
#define GRAPHPORT_PROTO_PROTO_IO_H_

#include <google/protobuf/message_lite.h>

#include <string>

#include "core/byte_stream.h"
#include "proto/memory_budget.h"
#include "proto/schema.h"
#include "proto/unknown_fields.h"

namespace graphport::proto {

// `what` names the input in errors ("model.pb", or "input" when unnamed).
// Throws graphport::Error(kParseError) with a byte offset (binary) or line:column (text), and
// kTooLarge when `budget` (may be null) is exceeded while the message grows. Text input is
// held to what binary parsing enforces: a proto3 `string` that is not UTF-8 is refused, with
// its field and line.
// `type` is the message's schema (SchemaOf<M>() for a generated class: the overloads below).
void ParseBinary(ByteSource* source, google::protobuf::MessageLite* message,
                 const MessageSchema& type, const std::string& what,
                 const MemoryBudget* budget = nullptr);
// Text is read with graphport's schema tables (`type`, the message's: proto/text_parse.h)
// into wire bytes that the lite parser reads. The budget counts those bytes while the text is
// read, and again beside what the message holds while they are parsed.
void ParseText(ByteSource* source, google::protobuf::MessageLite* message,
               const MessageSchema& type, const std::string& what,
               const MemoryBudget* budget = nullptr);
// For a generated class, whose schema table is SchemaOf<Message>().
template <typename Message>
void ParseText(ByteSource* source, Message* message, const std::string& what,
               const MemoryBudget* budget = nullptr) {
  ParseText(source, message, SchemaOf<Message>(), what, budget);
}

// Deterministic binary (map entries sorted by key), as TensorFlow writes it.
// Throws graphport::Error(kTooLarge) for a message of 2 GiB or more, before writing a byte.
void WriteBinary(const google::protobuf::MessageLite& message, ByteSink* sink);
// protobuf text format, identical to what `protoc --decode` prints, except that fields the
// schema does not know are left out, as TensorFlow's Python exporter does: printed by number
// ("9: 1") no text parser reads them back. Returns what was left out.
// Printed from the message's deterministic serialization (proto/wire_text.h), which is held
// while it prints.
UnknownFieldReport WriteText(const google::protobuf::MessageLite& message,
                             const MessageSchema& type, ByteSink* sink);

template <typename Message>
void ParseBinary(ByteSource* source, Message* message, const std::string& what,
                 const MemoryBudget* budget = nullptr) {
  ParseBinary(source, message, SchemaOf<Message>(), what, budget);
}
template <typename Message>
UnknownFieldReport WriteText(const Message& message, ByteSink* sink) {
  return WriteText(message, SchemaOf<Message>(), sink);
}

// "GraphDef" for a tensorflow.GraphDef: the name error messages use.
std::string ShortTypeName(const google::protobuf::MessageLite& message);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_PROTO_IO_H_
