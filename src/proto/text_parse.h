// Protobuf text format read without libprotobuf's descriptors: the text of one message is
// turned into that message's wire bytes, guided by graphport's schema tables (schema.h), and
// a lite message parses those. It stands in for TextFormat::Parser with its default settings
// and a recursion limit: the same input is taken and gives the same message, and the same
// input is refused, at the same line and column, with libprotobuf's wording.
//
// One refusal more, on purpose: a proto3 `string` that is not UTF-8 (libprotobuf 3.21's text
// parser takes it; its binary parser, TensorFlow and JSON do not). It is reported at the
// string, naming the field, unless the input has another error, which is reported instead.
//
// The wire bytes are meant for a parser, not for storage. A nested message or a string is
// written after room for the longest length; once its payload is written, a payload under
// 16 KiB is moved back over the room it did not need, and a longer one keeps its length in
// 5 bytes (a padded varint, which every protobuf parser reads), so a large payload is never
// moved, however deep (wire_append.h). Fields keep the text's order, and a run of values of
// one repeated number field is packed. The value of an Any written in its expanded form
// ([type.googleapis.com/T] { ... }) is the bytes libprotobuf serializes for it.
//
// No state outside the call; nothing is logged; errors are return values.
#ifndef GRAPHPORT_PROTO_TEXT_PARSE_H_
#define GRAPHPORT_PROTO_TEXT_PARSE_H_

#include <google/protobuf/io/zero_copy_stream.h>
#include <google/protobuf/message_lite.h>

#include <string>
#include <string_view>

#include "core/limits.h"
#include "proto/schema.h"

namespace graphport::proto {

struct TextParseError {
  int line = 0;  // 1-based, as editors count (libprotobuf's ErrorCollector gets them 0-based)
  int column = 0;
  std::string message;     // libprotobuf's wording; a quoted token is cut to kMaxQuotedBytes
  bool too_large = false;  // the wire bytes would reach 2 GiB: no protobuf parser takes them
};

// Reads the text of one message of `type` from `input` (to its end, chunk by chunk; a token
// may span chunks) and writes the message's wire bytes to `*wire` (replacing what it held).
// Stops at the first error: returns false with `*error` filled and `*wire` unspecified.
// Messages nest at most `recursion_limit` deep, counted as libprotobuf counts them. The call
// recurses about as deep, and allocates nothing per token beyond the growth of `*wire`.
bool TextToWire(google::protobuf::io::ZeroCopyInputStream* input, const MessageSchema& type,
                std::string* wire, TextParseError* error, int recursion_limit = kMaxProtoNesting);

// The same from text in memory, parsed into `message` (of `type`) with the lite parser.
// False with `*error` filled when the text is refused (the message is then cleared).
bool ParseTextMessage(std::string_view text, const MessageSchema& type,
                      google::protobuf::MessageLite* message, TextParseError* error);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_TEXT_PARSE_H_
