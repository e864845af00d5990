// Prints protobuf text format straight from a message's wire bytes, without parsing them into a
// message first: a node-heavy graph's text export then costs a walk over its bytes instead of
// a NodeDef and a reflective printer per node (issue 10, "text output prints node by node").
// For bytes proto::CheckWire calls valid and canonical the text is exactly what libprotobuf's
// TextFormat::Printer writes for the parsed message with unknown fields hidden, byte for
// byte; other bytes are the caller's to parse and print from their deterministic
// serialisation (proto::WriteText), which is canonical.
#ifndef GRAPHPORT_PROTO_WIRE_TEXT_H_
#define GRAPHPORT_PROTO_WIRE_TEXT_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/byte_stream.h"
#include "proto/schema.h"
#include "proto/text_output.h"

namespace graphport::proto {

// Prints many messages of one type (a graph's nodes): what each field's schema says
// (name, kind, enum names, nested type) is looked up once, not once per field printed.
class WireTextPrinter {
 public:
  explicit WireTextPrinter(const MessageSchema& type);
  ~WireTextPrinter();
  WireTextPrinter(const WireTextPrinter&) = delete;
  WireTextPrinter& operator=(const WireTextPrinter&) = delete;

  // Appends the fields of `bytes` (one message of the type, without braces), each line
  // indented by `indent_level` levels of two spaces, as Printer::SetInitialIndentLevel does.
  // Field `left_out` of the outer message (0: none) is not printed, as if it were cleared.
  // False when the bytes do not parse; `out` then holds part of the text.
  bool Print(std::string_view bytes, int indent_level, TextOutput* out, int left_out = 0);

  struct Tables;

 private:
  const MessageSchema* type_;
  std::unique_ptr<Tables> tables_;
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_TEXT_H_
