#include "proto/text_tokenizer.h"

#include <algorithm>
#include <cstdio>

#include "core/message_text.h"

namespace graphport::proto {
namespace {

bool IsLetter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsDigit(int c) { return c >= '0' && c <= '9'; }
bool IsAlphanumeric(int c) { return IsLetter(c) || IsDigit(c); }
bool IsOctal(int c) { return c >= '0' && c <= '7'; }
bool IsHex(int c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int HexValue(int c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

// Bytes that end a run of plain bytes in a string literal: either quote, an escape, and what
// a literal may not hold or counts differently (a tab moves the column to a tab stop).
struct StringStops {
  bool stop[256] = {};
  constexpr StringStops() {
    for (unsigned char c : {'"', '\'', '\\', '\n', '\0', '\t'}) stop[c] = true;
  }
};
constexpr StringStops kStringStops;

constexpr int kTabWidth = 8;

bool IsHeadSurrogate(uint32_t c) { return c >= 0xD800 && c < 0xDC00; }
bool IsTrailSurrogate(uint32_t c) { return c >= 0xDC00 && c < 0xE000; }

// What a string literal's body goes to: the unescaped bytes (Run, Byte) and, for quoting, the
// bytes of escapes as written (Raw). Run gives bytes that are both.
struct SkipSink {
  void Run(const char*, size_t) {}
  void Byte(char) {}
  void Raw(char) {}
};

// Unescaped bytes are gathered and appended a batch at a time: a tensor's content is mostly
// escapes, one byte each.
class UnescapeSink {
 public:
  explicit UnescapeSink(std::string* out) : out_(out) {}
  ~UnescapeSink() { Flush(); }
  void Run(const char* p, size_t n) {
    Flush();
    out_->append(p, n);
  }
  void Byte(char c) {
    batch_[used_++] = c;
    if (used_ == sizeof batch_) Flush();
  }
  void Raw(char) {}

 private:
  void Flush() {
    out_->append(batch_, used_);
    used_ = 0;
  }
  std::string* out_;
  char batch_[256];
  size_t used_ = 0;
};

// Keeps the first bytes of the literal as written, enough for CapForMessage, and counts all.
struct QuoteSink {
  static constexpr size_t kKept = kMaxQuotedBytes + 1;
  std::string kept;
  uint64_t total = 0;
  void Keep(const char* p, size_t n) {
    total += n;
    if (kept.size() < kKept) kept.append(p, std::min(n, kKept - kept.size()));
  }
  void Run(const char* p, size_t n) { Keep(p, n); }
  void Byte(char) {}
  void Raw(char c) { Keep(&c, 1); }
};

// A code point as UTF-8, as libprotobuf's tokenizer writes it: surrogates included, and one
// past U+10FFFF (a \U escape reaches U+1FFFFF) as the escape's own text.
template <typename Sink>
void AppendCodePoint(uint32_t c, Sink* sink) {
  if (c <= 0x7F) {
    sink->Byte(static_cast<char>(c));
  } else if (c <= 0x7FF) {
    sink->Byte(static_cast<char>(0xC0 | (c >> 6)));
    sink->Byte(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c <= 0xFFFF) {
    sink->Byte(static_cast<char>(0xE0 | (c >> 12)));
    sink->Byte(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    sink->Byte(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c <= 0x10FFFF) {
    sink->Byte(static_cast<char>(0xF0 | (c >> 18)));
    sink->Byte(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    sink->Byte(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    sink->Byte(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    char text[16];
    const int n = std::snprintf(text, sizeof text, "\\U%08x", static_cast<unsigned>(c));
    for (int i = 0; i < n; ++i) sink->Byte(text[i]);
  }
}

char Unescape(int c) {
  switch (c) {
    case 'a':
      return '\a';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    default:  // \\ \? \' \"
      return static_cast<char>(c);
  }
}

bool IsSimpleEscape(int c) {
  switch (c) {
    case 'a':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'v':
    case '\\':
    case '?':
    case '\'':
    case '"':
      return true;
    default:
      return false;
  }
}

}  // namespace

TextTokenizer::TextTokenizer(google::protobuf::io::ZeroCopyInputStream* input,
                             TextErrorSink* errors)
    : input_(input), errors_(errors) {}

TextTokenizer::~TextTokenizer() {
  if (p_ < end_) input_->BackUp(static_cast<int>(end_ - p_));
}

bool TextTokenizer::Refill() {
  if (at_end_) return false;
  const void* data = nullptr;
  int size = 0;
  do {
    if (!input_->Next(&data, &size)) {
      at_end_ = true;
      p_ = end_ = nullptr;
      return false;
    }
  } while (size <= 0);
  p_ = static_cast<const char*>(data);
  end_ = p_ + size;
  return true;
}

void TextTokenizer::EndOfInput() {
  type_ = Type::kEnd;
  text_.clear();
  body_unread_ = false;
  line_of_token_ = line_;
  column_of_token_ = column_;
  end_column_ = column_;
}

void TextTokenizer::SkipSpaceAndComments() {
  bool in_comment = false;
  for (;;) {
    while (p_ < end_) {
      const char c = *p_;
      if (c == '\n') {
        ++line_;
        column_ = 0;
        in_comment = false;
      } else if (c == '\t') {
        column_ += kTabWidth - column_ % kTabWidth;
      } else if (in_comment) {
        // A NUL ends a comment as the end of the input does (and is then an error).
        if (c == '\0') return;
        ++column_;
      } else if (c == ' ' || c == '\r' || c == '\v' || c == '\f') {
        ++column_;
      } else if (c == '#') {
        in_comment = true;
        ++column_;
      } else {
        return;
      }
      ++p_;
    }
    if (!Refill()) return;
  }
}

void TextTokenizer::Next() {
  FinishToken();
  previous_type_ = type_;
  previous_line_ = line_of_token_;
  previous_end_column_ = end_column_;
  text_.clear();
  if (errors_->failed) return EndOfInput();
  SkipSpaceAndComments();
  if (p_ == end_) return EndOfInput();
  line_of_token_ = line_;
  column_of_token_ = column_;
  const int c = static_cast<unsigned char>(*p_);
  if (IsLetter(c)) {
    type_ = Type::kIdentifier;
    do {
      const char* run = p_;
      while (p_ < end_ && IsAlphanumeric(static_cast<unsigned char>(*p_))) ++p_;
      text_.append(run, p_ - run);
      column_ += p_ - run;
    } while (p_ == end_ && Refill());
  } else if (c == '0') {
    Keep();
    ReadNumber(/*started_with_zero=*/true, /*started_with_dot=*/false);
  } else if (IsDigit(c)) {
    Keep();
    ReadNumber(false, false);
  } else if (c == '.') {
    Keep();
    if (IsDigit(Peek())) {
      Keep();
      if (previous_type_ == Type::kIdentifier && line_of_token_ == previous_line_ &&
          column_of_token_ == previous_end_column_) {
        errors_->Report(line_, column_ - 2, "Need space between identifier and decimal point.");
      }
      ReadNumber(false, /*started_with_dot=*/true);
    } else {
      type_ = Type::kSymbol;
    }
  } else if (c == '"' || c == '\'') {
    type_ = Type::kString;
    delimiter_ = static_cast<char>(c);
    body_unread_ = true;
    ++p_;
    ++column_;
  } else if (c < ' ') {
    // Whitespace is skipped already: what is left below a space is a control character.
    Fail("Invalid control characters encountered in text.");
  } else {
    if (c >= 0x80) {
      errors_->Report(line_, column_,
                      "Interpreting non ascii codepoint " + std::to_string(c) + ".");
    }
    type_ = Type::kSymbol;
    Keep();
  }
  end_column_ = column_;
  if (errors_->failed) EndOfInput();
}

void TextTokenizer::ReadNumber(bool started_with_zero, bool started_with_dot) {
  bool is_float = false;
  int c = Peek();
  if (started_with_zero && (c == 'x' || c == 'X')) {
    Keep();
    if (!IsHex(Peek())) {
      Fail("\"0x\" must be followed by hex digits.");
      return;
    }
    while (IsHex(Peek())) Keep();
  } else if (started_with_zero && IsDigit(c)) {
    while (IsOctal(Peek())) Keep();
    if (IsDigit(Peek())) {
      Fail("Numbers starting with leading zero must be in octal.");
      return;
    }
  } else {
    if (started_with_dot) {
      is_float = true;
      while (IsDigit(Peek())) Keep();
    } else {
      while (IsDigit(Peek())) Keep();
      if (Peek() == '.') {
        Keep();
        is_float = true;
        while (IsDigit(Peek())) Keep();
      }
    }
    c = Peek();
    if (c == 'e' || c == 'E') {
      Keep();
      is_float = true;
      c = Peek();
      if (c == '-' || c == '+') Keep();
      if (!IsDigit(Peek())) {
        Fail("\"e\" must be followed by exponent.");
        return;
      }
      while (IsDigit(Peek())) Keep();
    }
    c = Peek();
    if (c == 'f' || c == 'F') {
      Keep();
      is_float = true;
    }
  }
  c = Peek();
  if (IsLetter(c)) {
    Fail("Need space between number and identifier.");
  } else if (c == '.') {
    Fail(is_float ? "Already saw decimal point or exponent; can't have another one."
                  : "Hex and octal numbers must be integers.");
  }
  type_ = is_float ? Type::kFloat : Type::kInteger;
}

template <typename Sink>
bool TextTokenizer::ReadStringBody(Sink* sink) {
  body_unread_ = false;
  uint32_t head = 0;  // a \u head surrogate, joined with a \u trail surrogate right after it
  auto flush_head = [&] {
    if (head != 0) AppendCodePoint(head, sink);
    head = 0;
  };
  for (;;) {
    if (p_ == end_ && !Refill()) return Fail("Unexpected end of string.");
    const char* run = p_;
    const char* q = p_;  // a local, so that the loop keeps it in a register
    while (q < end_ && !kStringStops.stop[static_cast<unsigned char>(*q)]) ++q;
    p_ = q;
    if (p_ != run) {
      flush_head();
      sink->Run(run, p_ - run);
      column_ += p_ - run;
      if (p_ == end_) continue;
    }
    const char c = *p_;
    if (c == delimiter_) {
      flush_head();
      sink->Raw(c);
      ++p_;
      ++column_;
      return true;
    }
    if (c == '\n') return Fail("String literals cannot cross line boundaries.");
    if (c == '\0') return Fail("Unexpected end of string.");
    if (c != '\\') {  // a tab, or the other quote
      flush_head();
      sink->Run(p_, 1);
      column_ = c == '\t' ? column_ + kTabWidth - column_ % kTabWidth : column_ + 1;
      ++p_;
      continue;
    }
    if (head == 0 && end_ - p_ >= 4) {
      // The common escapes (a tensor's bytes are mostly octal ones) read in place.
      const int e = static_cast<unsigned char>(p_[1]);
      int used = 0;
      int code = 0;
      if (IsOctal(e)) {
        code = e - '0';
        for (used = 2; used < 4 && IsOctal(p_[used]); ++used) code = code * 8 + (p_[used] - '0');
      } else if (IsSimpleEscape(e)) {
        code = static_cast<unsigned char>(Unescape(e));
        used = 2;
      } else if (e == 'x' && IsHex(p_[2])) {
        code = HexValue(p_[2]);
        used = 3;
        if (IsHex(p_[3])) {
          code = code * 16 + HexValue(p_[3]);
          used = 4;
        }
      }
      if (used > 0) {
        for (int i = 0; i < used; ++i) sink->Raw(p_[i]);
        sink->Byte(static_cast<char>(code));
        p_ += used;
        column_ += used;
        continue;
      }
    }
    sink->Raw(c);
    ++p_;
    ++column_;
    const int e = Peek();
    if (e != 'u') flush_head();
    if (!ReadEscape(sink, &head)) return false;
  }
}

template <typename Sink>
bool TextTokenizer::ReadEscape(Sink* sink, uint32_t* head) {
  auto take = [&] {
    sink->Raw(*p_++);
    ++column_;
  };
  const int e = Peek();
  if (IsSimpleEscape(e)) {
    take();
    sink->Byte(Unescape(e));
    return true;
  }
  if (IsOctal(e)) {
    int code = e - '0';
    take();
    for (int i = 0; i < 2 && IsOctal(Peek()); ++i) {
      code = code * 8 + (*p_ - '0');
      take();
    }
    sink->Byte(static_cast<char>(code));
    return true;
  }
  if (e == 'x') {
    take();
    if (!IsHex(Peek())) return Fail("Expected hex digits for escape sequence.");
    int code = HexValue(*p_);
    take();
    if (IsHex(Peek())) {
      code = code * 16 + HexValue(*p_);
      take();
    }
    sink->Byte(static_cast<char>(code));
    return true;
  }
  if (e == 'u' || e == 'U') {
    take();
    uint32_t code = 0;
    const int digits = e == 'u' ? 4 : 8;
    for (int i = 0; i < digits; ++i) {
      const int d = Peek();
      // \U takes eight digits: "00", then "0" or "1" (so up to U+1FFFFF).
      const bool ok = e == 'u' ? IsHex(d)
                      : i < 2  ? d == '0'
                      : i == 2 ? (d == '0' || d == '1')
                               : IsHex(d);
      if (!ok) {
        return Fail(e == 'u' ? "Expected four hex digits for \\u escape sequence."
                             : "Expected eight hex digits up to 10ffff for \\U escape sequence");
      }
      code = code * 16 + HexValue(d);
      take();
    }
    if (*head != 0) {
      if (e == 'u' && IsTrailSurrogate(code)) {
        AppendCodePoint(0x10000 + ((*head - 0xD800) << 10 | (code - 0xDC00)), sink);
        *head = 0;
        return true;
      }
      AppendCodePoint(*head, sink);
      *head = 0;
    }
    if (IsHeadSurrogate(code)) {
      *head = code;
    } else {
      AppendCodePoint(code, sink);
    }
    return true;
  }
  return Fail("Invalid escape sequence in string literal.");
}

bool TextTokenizer::ReadString(std::string* out) {
  UnescapeSink sink(out);
  return ReadStringBody(&sink);
}

void TextTokenizer::FinishToken() {
  if (!body_unread_) return;
  SkipSink sink;
  ReadStringBody(&sink);
}

std::string TextTokenizer::Quote() {
  if (type_ != Type::kString) return CapForMessage(text_);
  if (!body_unread_) return std::string(1, delimiter_) + "..." + delimiter_;
  QuoteSink sink;
  sink.Keep(&delimiter_, 1);
  if (!ReadStringBody(&sink)) return "";
  if (sink.total <= kMaxQuotedBytes) return sink.kept;
  // As CapForMessage cuts, from the bytes kept.
  size_t cut = kMaxQuotedBytes;
  while (cut > 0 && (static_cast<unsigned char>(sink.kept[cut]) & 0xC0) == 0x80) --cut;
  return sink.kept.substr(0, cut) + "... (" + std::to_string(sink.total - cut) + " more bytes)";
}

}  // namespace graphport::proto
