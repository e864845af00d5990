// The parser behind text_parse.h (internal to src/proto/text_parse*.cc; not part of the API).
// Its member functions are spread over files by job: text_parse.cc reads a message's fields
// and nested messages, text_parse_values.cc a field's scalar value (bool, enum, string,
// integer, float), text_parse_skip.cc a reserved field's value, skipped. The class is shared
// through this header so that each file sees the frames, the tokens and the output.
#ifndef GRAPHPORT_PROTO_TEXT_PARSER_H_
#define GRAPHPORT_PROTO_TEXT_PARSER_H_

#include <google/protobuf/io/zero_copy_stream.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "proto/schema.h"
#include "proto/text_parse.h"
#include "proto/text_tokenizer.h"
#include "proto/wire_append.h"

namespace graphport::proto::text_parse_internal {

using Token = TextTokenizer::Type;

// ASCII only, whatever the locale: "Inf" and "NAN" are read as "inf" and "nan".
inline std::string Lowered(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

// One message being read: where its bytes start in the output, which of its fields are set
// (as reflection's HasField would say), and the packed run it may have open.
struct Frame {
  Frame(const Frame* parent_frame, const MessageSchema* message_type, const FieldSchema* in,
        size_t record, size_t content)
      : parent(parent_frame),
        type(message_type),
        field(in),
        record_start(record),
        content_start(content) {
    if (type->field_count > kSmallFields) large_has.assign(type->field_count, false);
  }

  bool Has(const FieldSchema& f) const {
    const size_t i = static_cast<size_t>(&f - type->fields);
    return large_has.empty() ? (small_has[i / 64] >> (i % 64) & 1) != 0 : large_has[i];
  }
  void SetHas(const FieldSchema& f, bool has) {
    const size_t i = static_cast<size_t>(&f - type->fields);
    if (!large_has.empty()) {
      large_has[i] = has;
    } else if (has) {
      small_has[i / 64] |= uint64_t{1} << (i % 64);
    } else {
      small_has[i / 64] &= ~(uint64_t{1} << (i % 64));
    }
  }
  // The member of oneof `index` that is set, or null.
  const FieldSchema* OneofMember(int index) const {
    for (const FieldSchema& f : *type) {
      if (f.oneof == index && Has(f)) return &f;
    }
    return nullptr;
  }

  static constexpr int kSmallFields = 128;
  const Frame* parent;
  const MessageSchema* type;
  const FieldSchema* field;  // the field of `parent` whose value this message is; null at the root
  size_t record_start;       // where that field's record starts in the output
  size_t content_start;      // where this message's first field starts
  int packed_number = 0;     // a packed run open at the end of the output, of this field
  size_t packed_slot = 0;
  uint64_t small_has[kSmallFields / 64] = {};
  std::vector<bool> large_has;
};

class Parser {
 public:
  Parser(google::protobuf::io::ZeroCopyInputStream* input, std::string* out, int recursion_limit)
      : tokens_(input, &errors_),
        out_(out),
        recursion_limit_(recursion_limit),
        recursion_budget_(recursion_limit) {}

  // The members marked always_inline are called only in the file that defines them and are
  // compiled into their callers, as they were when the parser was one file and its functions
  // were local to it. A member that other files can see is otherwise kept out of line: a call
  // per value on the text input's path, 1-2% more instructions for a graph's text.
  [[gnu::always_inline]] inline bool Parse(const MessageSchema& type, TextParseError* error);

 private:
  // text_parse.cc: fields and messages.
  bool ConsumeField(Frame* frame);
  [[gnu::always_inline]] inline bool ConsumeExpandedAny(Frame* frame);
  bool ConsumeFieldMessage(Frame* frame, const FieldSchema& field);
  bool ConsumeMessageBody(Frame* frame, char close);
  // text_parse_values.cc: one scalar value.
  bool ConsumeFieldValue(Frame* frame, const FieldSchema& field);
  [[gnu::always_inline]] inline bool ConsumeString(Frame* frame, const FieldSchema& field);
  [[gnu::always_inline]] inline bool ConsumeBool(uint64_t* value, const FieldSchema& field);
  [[gnu::always_inline]] inline bool ConsumeEnum(const Frame& frame, const FieldSchema& field,
                                                 uint64_t* value);
  [[gnu::always_inline]] inline bool ConsumeSignedInteger(int64_t* value, uint64_t max);
  bool ConsumeUnsignedInteger(uint64_t* value, uint64_t max);
  bool ConsumeDouble(double* value);
  // text_parse_skip.cc: a reserved field's value.
  [[gnu::always_inline]] inline bool SkipField();
  bool SkipFieldMessage();
  bool SkipFieldValue();
  bool SkipValueOrMessage() {
    return tokens_.LookingAt('{') || tokens_.LookingAt('<') ? SkipFieldMessage() : SkipFieldValue();
  }

  // text_parse.cc: tokens, errors and limits.
  bool TryConsume(char symbol) {
    if (!tokens_.LookingAt(symbol)) return false;
    tokens_.Next();
    return true;
  }
  bool Consume(char symbol);
  // Here, not in text_parse.cc, as text_parse_skip.cc opens messages too.
  bool ConsumeMessageOpen(char* close) {
    if (TryConsume('<')) {
      *close = '>';
      return true;
    }
    *close = '}';
    return Consume('{');
  }
  bool ConsumeIdentifier(std::string* identifier);
  bool ConsumeFullTypeName(std::string* name, bool url);
  // Reports `message` at the current token (after any error in the token itself).
  bool Error(const std::string& message);
  bool TooDeep();
  bool CheckSize();

  // text_parse_values.cc
  [[gnu::always_inline]] inline void WriteNumber(Frame* frame, const FieldSchema& field,
                                                 uint64_t bits);
  void ClosePackedRun(Frame* frame) {
    if (frame->packed_number == 0) return;
    CloseLength(frame->packed_slot, out_);
    frame->packed_number = 0;
  }
  // text_parse.cc
  void NoteBadUtf8(const Frame& frame, const FieldSchema& field, size_t record_start, int line,
                   int64_t column, size_t bad_offset);
  // The bytes written for `frame`'s message before `record_start`.
  std::string_view Before(const Frame& frame, size_t record_start) const {
    return std::string_view(*out_).substr(frame.content_start, record_start - frame.content_start);
  }

  TextErrorSink errors_;
  TextTokenizer tokens_;
  std::string* out_;
  const int recursion_limit_;
  int recursion_budget_;
  std::string word_;  // an identifier kept past the token it was
  // The first proto3 string that is not UTF-8, reported when the input has no other error.
  TextErrorSink bad_utf8_;
  bool too_large_ = false;
};

}  // namespace graphport::proto::text_parse_internal

#endif  // GRAPHPORT_PROTO_TEXT_PARSER_H_
