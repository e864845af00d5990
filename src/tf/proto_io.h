// Parsing and writing protobuf messages, binary or text, from a ByteSource to a ByteSink,
// with graphport's limits and errors that say where the input went wrong.
#ifndef GRAPHPORT_TF_PROTO_IO_H_
#define GRAPHPORT_TF_PROTO_IO_H_

#include <google/protobuf/message.h>

#include <string>

#include "core/byte_stream.h"

namespace graphport::tf {

// `what` names the input in errors ("model.pb", or "input" when unnamed).
// Throws graphport::Error(kParseError) with a byte offset (binary) or line:column (text).
void ParseBinary(ByteSource* source, google::protobuf::Message* message, const std::string& what);
void ParseText(ByteSource* source, google::protobuf::Message* message, const std::string& what);

// Deterministic binary (map entries sorted by key), as TensorFlow writes it.
// Throws graphport::Error(kTooLarge) for a message of 2 GiB or more, before writing a byte.
void WriteBinary(const google::protobuf::Message& message, ByteSink* sink);
// protobuf text format, identical to what `protoc --decode` prints.
void WriteText(const google::protobuf::Message& message, ByteSink* sink);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_PROTO_IO_H_
