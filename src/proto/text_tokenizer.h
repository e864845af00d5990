// The tokens of protobuf text format, read from a ZeroCopyInputStream chunk by chunk, as
// libprotobuf 3.21's io::Tokenizer reads them for TextFormat::Parser ('#' comments, an 'f'
// after a float, no string across lines): the same tokens, lines and columns (a tab moves to
// the next multiple of 8), and the same errors at the same places.
//
// Unlike libprotobuf's, it copies no string token: a string's body is left in the input until
// the parser either unescapes it straight into its output (ReadString), skips it, or quotes it
// in an error. A tensor's content of hundreds of megabytes is then never held as text.
#ifndef GRAPHPORT_PROTO_TEXT_TOKENIZER_H_
#define GRAPHPORT_PROTO_TEXT_TOKENIZER_H_

#include <google/protobuf/io/zero_copy_stream.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace graphport::proto {

// The first error of a parse, where it was (0-based, as libprotobuf's ErrorCollector gets
// it). Later errors are dropped: parsing stops at the first one.
struct TextErrorSink {
  bool failed = false;
  int line = 0;
  int64_t column = 0;
  std::string message;

  // Records the error if it is the first; returns false for `return Report(...)`.
  bool Report(int at_line, int64_t at_column, std::string text) {
    if (!failed) {
      failed = true;
      line = at_line;
      column = at_column;
      message = std::move(text);
    }
    return false;
  }
};

class TextTokenizer {
 public:
  enum class Type : uint8_t { kStart, kEnd, kIdentifier, kInteger, kFloat, kString, kSymbol };

  // Neither is owned. Errors go to `errors`; after the first, the tokenizer only gives kEnd.
  TextTokenizer(google::protobuf::io::ZeroCopyInputStream* input, TextErrorSink* errors);
  // Hands the unread rest of the last chunk back to the stream.
  ~TextTokenizer();
  TextTokenizer(const TextTokenizer&) = delete;
  TextTokenizer& operator=(const TextTokenizer&) = delete;

  // Moves to the next token, skipping whitespace and comments (and the body of a string token
  // that was not read).
  void Next();

  Type type() const { return type_; }
  int line() const { return line_of_token_; }
  int64_t column() const { return column_of_token_; }
  // An identifier's, a number's or a symbol's text; empty at kEnd. Not a string's.
  const std::string& text() const { return text_; }
  bool LookingAt(char symbol) const {
    return type_ == Type::kSymbol && text_.size() == 1 && text_[0] == symbol;
  }

  // Unescapes the current string token's body onto `out`. False when the literal is
  // malformed (the error is reported). The token stays current: call Next() after it.
  bool ReadString(std::string* out);
  // The current token as written, for an error message ("\"a\\tb\"" for a string), cut to
  // kMaxQuotedBytes. Reading an unread string's body to quote it may report its own error,
  // which then comes first.
  std::string Quote();
  // Reads the body of the current string token if it is still unread, so that an error in
  // it is reported before the parser reports one about the token.
  void FinishToken();

 private:
  template <typename Sink>
  bool ReadStringBody(Sink* sink);
  template <typename Sink>
  bool ReadEscape(Sink* sink, uint32_t* head_surrogate);
  bool Refill();
  // The current byte (0-255), or -1 at the end of the input.
  int Peek() {
    if (p_ < end_) return static_cast<unsigned char>(*p_);
    return Refill() ? static_cast<unsigned char>(*p_) : -1;
  }
  // Moves past a byte that is neither a newline nor a tab, keeping it in the token's text.
  void Keep() {
    text_.push_back(*p_++);
    ++column_;
  }
  void SkipSpaceAndComments();
  void ReadNumber(bool started_with_zero, bool started_with_dot);
  bool Fail(const char* message) { return errors_->Report(line_, column_, message); }
  void EndOfInput();

  google::protobuf::io::ZeroCopyInputStream* input_;
  TextErrorSink* errors_;
  const char* p_ = nullptr;  // the next byte, in the chunk [p_, end_)
  const char* end_ = nullptr;
  bool at_end_ = false;  // the stream has no more chunks
  int line_ = 0;         // of the byte at p_
  int64_t column_ = 0;

  Type type_ = Type::kStart;
  int line_of_token_ = 0;
  int64_t column_of_token_ = 0;
  int64_t end_column_ = 0;
  std::string text_;
  char delimiter_ = '"';      // of the current string token
  bool body_unread_ = false;  // the current string token's body is still in the input
  Type previous_type_ = Type::kStart;
  int previous_line_ = 0;
  int64_t previous_end_column_ = 0;
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_TEXT_TOKENIZER_H_
