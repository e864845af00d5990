#include "proto/text_parse.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <vector>

#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/text_numbers.h"
#include "proto/text_tokenizer.h"
#include "proto/wire_append.h"
#include "proto/wire_canonical.h"
#include "proto/wire_path.h"

namespace graphport::proto {
namespace {

using Token = TextTokenizer::Type;

std::string Lowered(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

uint64_t Zigzag32(int32_t v) {
  return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
}
uint64_t Zigzag64(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

template <typename To, typename From>
To BitCast(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

constexpr const char kGoogleApisPrefix[] = "type.googleapis.com/";
constexpr const char kGoogleProdPrefix[] = "type.googleprod.com/";

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

  bool Parse(const MessageSchema& type, TextParseError* error);

 private:
  bool ConsumeField(Frame* frame);
  bool ConsumeExpandedAny(Frame* frame);
  bool ConsumeFieldMessage(Frame* frame, const FieldSchema& field);
  bool ConsumeMessageBody(Frame* frame, char close);
  bool ConsumeFieldValue(Frame* frame, const FieldSchema& field);
  bool ConsumeString(Frame* frame, const FieldSchema& field);
  bool ConsumeBool(uint64_t* value, const FieldSchema& field);
  bool ConsumeEnum(const Frame& frame, const FieldSchema& field, uint64_t* value);
  bool ConsumeSignedInteger(int64_t* value, uint64_t max);
  bool ConsumeUnsignedInteger(uint64_t* value, uint64_t max);
  bool ConsumeDouble(double* value);
  bool SkipField();
  bool SkipFieldMessage();
  bool SkipFieldValue();
  bool SkipValueOrMessage() {
    return tokens_.LookingAt('{') || tokens_.LookingAt('<') ? SkipFieldMessage() : SkipFieldValue();
  }

  bool TryConsume(char symbol) {
    if (!tokens_.LookingAt(symbol)) return false;
    tokens_.Next();
    return true;
  }
  bool Consume(char symbol);
  bool ConsumeMessageOpen(char* close);
  bool ConsumeIdentifier(std::string* identifier);
  bool ConsumeFullTypeName(std::string* name, bool url);
  // Reports `message` at the current token (after any error in the token itself).
  bool Error(const std::string& message);
  bool TooDeep();
  bool CheckSize();

  void WriteNumber(Frame* frame, const FieldSchema& field, uint64_t bits);
  void ClosePackedRun(Frame* frame) {
    if (frame->packed_number == 0) return;
    CloseLength(frame->packed_slot, out_);
    frame->packed_number = 0;
  }
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

bool Parser::Parse(const MessageSchema& type, TextParseError* error) {
  out_->clear();
  tokens_.Next();
  Frame root(nullptr, &type, nullptr, 0, 0);
  while (tokens_.type() != Token::kEnd) {
    if (!ConsumeField(&root)) break;
  }
  ClosePackedRun(&root);
  if (!errors_.failed && bad_utf8_.failed) errors_ = std::move(bad_utf8_);
  if (!errors_.failed) return true;
  error->line = errors_.line + 1;
  error->column = static_cast<int>(std::min<int64_t>(errors_.column + 1, INT_MAX));
  error->message = std::move(errors_.message);
  error->too_large = too_large_;
  return false;
}

bool Parser::Error(const std::string& message) {
  tokens_.FinishToken();
  return errors_.Report(tokens_.line(), tokens_.column(), message);
}

bool Parser::TooDeep() {
  return Error("Message is too deep, the parser exceeded the configured recursion limit of " +
               std::to_string(recursion_limit_) + ".");
}

bool Parser::CheckSize() {
  if (out_->size() <= kMaxProtoBytes) return true;
  too_large_ = true;
  return Error("the message is 2 GiB or more on the wire, more than protobuf can parse");
}

bool Parser::Consume(char symbol) {
  if (TryConsume(symbol)) return true;
  return Error(std::string("Expected \"") + symbol + "\", found \"" + tokens_.Quote() + "\".");
}

bool Parser::ConsumeMessageOpen(char* close) {
  if (TryConsume('<')) {
    *close = '>';
    return true;
  }
  *close = '}';
  return Consume('{');
}

bool Parser::ConsumeIdentifier(std::string* identifier) {
  if (tokens_.type() != Token::kIdentifier) {
    return Error("Expected identifier, got: " + tokens_.Quote());
  }
  *identifier = tokens_.text();
  tokens_.Next();
  return true;
}

// "a.b.c", or with `url` also '/' between the names (a skipped field's "[type.url/a.B]").
bool Parser::ConsumeFullTypeName(std::string* name, bool url) {
  if (!ConsumeIdentifier(name)) return false;
  for (;;) {
    char connector = '.';
    if (!TryConsume('.')) {
      if (!url || !TryConsume('/')) return true;
      connector = '/';
    }
    if (!ConsumeIdentifier(&word_)) return false;
    *name += connector;
    *name += word_;
  }
}

bool Parser::ConsumeField(Frame* frame) {
  const MessageSchema& type = *frame->type;
  if (type.well_known == WellKnown::kAny && TryConsume('[')) return ConsumeExpandedAny(frame);
  if (TryConsume('[')) {
    std::string name;
    if (!ConsumeFullTypeName(&name, /*url=*/false) || !Consume(']')) return false;
    return Error("Extension \"" + CapForMessage(name) +
                 "\" is not defined or is not an extension of \"" + std::string(type.full_name) +
                 "\".");
  }
  if (tokens_.type() != Token::kIdentifier) {
    return Error("Expected identifier, got: " + tokens_.Quote());
  }
  const FieldSchema* field = type.FindFieldByName(tokens_.text());
  if (field == nullptr) word_ = tokens_.text();
  tokens_.Next();
  if (field == nullptr) {
    if (!type.IsReservedName(word_)) {
      return Error("Message type \"" + std::string(type.full_name) + "\" has no field named \"" +
                   CapForMessage(word_) + "\".");
    }
    // A reserved name: its value is skipped, whatever it looks like.
    if (TryConsume(':') && !tokens_.LookingAt('{') && !tokens_.LookingAt('<')) {
      return SkipFieldValue();
    }
    return SkipFieldMessage();
  }
  if (!field->repeated && frame->Has(*field)) {
    return Error("Non-repeated field \"" + std::string(field->name) +
                 "\" is specified multiple times.");
  }
  if (field->oneof >= 0) {
    if (const FieldSchema* other = frame->OneofMember(field->oneof)) {
      return Error("Field \"" + std::string(field->name) + "\" is specified along with field \"" +
                   std::string(other->name) + "\", another member of oneof \"" +
                   std::string(type.oneofs[field->oneof]) + "\".");
    }
  }
  const bool message = field->type == FieldType::kMessage;
  if (message) {
    TryConsume(':');  // optional before a message
  } else if (!Consume(':')) {
    return false;
  }
  if (field->repeated && TryConsume('[')) {
    // "name: [a, b]": a list of values or messages; "name: []" is no value.
    if (!TryConsume(']')) {
      for (;;) {
        if (!(message ? ConsumeFieldMessage(frame, *field) : ConsumeFieldValue(frame, *field))) {
          return false;
        }
        if (!CheckSize()) return false;
        if (TryConsume(']')) break;
        if (!Consume(',')) return false;
      }
    }
  } else if (!(message ? ConsumeFieldMessage(frame, *field) : ConsumeFieldValue(frame, *field))) {
    return false;
  }
  if (!TryConsume(';')) TryConsume(',');
  return CheckSize();
}

// "[type.googleapis.com/tensorflow.GraphDef] { ... }" in an Any: the type URL and the
// message's bytes, as libprotobuf serializes the message (so not followed by ';' or ',').
bool Parser::ConsumeExpandedAny(Frame* frame) {
  const MessageSchema& any = *frame->type;
  std::string prefix;
  if (!ConsumeIdentifier(&prefix)) return false;
  while (TryConsume('.')) {
    if (!ConsumeIdentifier(&word_)) return false;
    prefix += '.';
    prefix += word_;
  }
  if (!Consume('/')) return false;
  prefix += '/';
  std::string type_name;
  if (!ConsumeFullTypeName(&type_name, /*url=*/false) || !Consume(']')) return false;
  TryConsume(':');
  const MessageSchema* value_type = nullptr;
  if ((prefix == kGoogleApisPrefix || prefix == kGoogleProdPrefix) && any.set != nullptr) {
    value_type = any.set->Find(type_name);
  }
  if (value_type == nullptr) {
    return Error("Could not find type \"" + CapForMessage(prefix + type_name) +
                 "\" stored in google.protobuf.Any.");
  }
  char close;
  if (!ConsumeMessageOpen(&close)) return false;
  const FieldSchema* url_field = any.FindFieldByName("type_url");
  const FieldSchema* value_field = any.FindFieldByName("value");
  ClosePackedRun(frame);
  AppendTag(out_, url_field->number, kWireLength);
  AppendVarint(out_, prefix.size() + type_name.size());
  *out_ += prefix;
  *out_ += type_name;
  const size_t record_start = out_->size();
  AppendTag(out_, value_field->number, kWireLength);
  const size_t slot = OpenLength(out_);
  const size_t start = out_->size();
  {
    // The value is read as a message of its own, not one level deeper.
    Frame value(frame, value_type, value_field, record_start, start);
    if (!ConsumeMessageBody(&value, close)) return false;
  }
  std::string canonical;
  if (!AppendCanonicalWire(std::string_view(*out_).substr(start), *value_type, &canonical)) {
    return Error("internal error: the value of an Any did not re-serialize");
  }
  out_->resize(start);
  *out_ += canonical;
  CloseLength(slot, out_);
  if (frame->Has(*url_field) || frame->Has(*value_field)) {
    return Error("Non-repeated Any specified multiple times.");
  }
  frame->SetHas(*url_field, true);
  frame->SetHas(*value_field, !canonical.empty());
  return true;
}

bool Parser::ConsumeFieldMessage(Frame* frame, const FieldSchema& field) {
  if (--recursion_budget_ < 0) return TooDeep();
  char close;
  if (!ConsumeMessageOpen(&close)) return false;
  frame->SetHas(field, true);
  ClosePackedRun(frame);
  const size_t record_start = out_->size();
  AppendTag(out_, field.number, kWireLength);
  const size_t slot = OpenLength(out_);
  {
    Frame child(frame, field.message, &field, record_start, out_->size());
    if (!ConsumeMessageBody(&child, close)) return false;
  }
  CloseLength(slot, out_);
  ++recursion_budget_;
  return true;
}

bool Parser::ConsumeMessageBody(Frame* frame, char close) {
  while (!tokens_.LookingAt('>') && !tokens_.LookingAt('}')) {
    if (!ConsumeField(frame)) return false;
  }
  ClosePackedRun(frame);
  return Consume(close);
}

void Parser::WriteNumber(Frame* frame, const FieldSchema& field, uint64_t bits) {
  const int wire_type = field.wire_type();
  if (field.repeated) {
    // Consecutive values of one field go in one packed record (a parser takes a repeated
    // number packed or not, whatever the schema says).
    if (frame->packed_number != field.number) {
      ClosePackedRun(frame);
      AppendTag(out_, field.number, kWireLength);
      frame->packed_slot = OpenLength(out_);
      frame->packed_number = field.number;
    }
  } else {
    ClosePackedRun(frame);
    AppendTag(out_, field.number, wire_type);
  }
  if (wire_type == kWireVarint) {
    AppendVarint(out_, bits);
  } else if (wire_type == kWireFixed32) {
    AppendFixed32(out_, static_cast<uint32_t>(bits));
  } else {
    AppendFixed64(out_, bits);
  }
}

bool Parser::ConsumeFieldValue(Frame* frame, const FieldSchema& field) {
  uint64_t bits = 0;  // the value as written on the wire (zero exactly when it is the default)
  switch (field.type) {
    case FieldType::kInt32:
    case FieldType::kSint32:
    case FieldType::kSfixed32: {
      int64_t value;
      if (!ConsumeSignedInteger(&value, std::numeric_limits<int32_t>::max())) return false;
      const auto v = static_cast<int32_t>(value);
      bits = field.type == FieldType::kSint32     ? Zigzag32(v)
             : field.type == FieldType::kSfixed32 ? static_cast<uint32_t>(v)
                                                  : static_cast<uint64_t>(value);
      break;
    }
    case FieldType::kUint32:
    case FieldType::kFixed32:
      if (!ConsumeUnsignedInteger(&bits, std::numeric_limits<uint32_t>::max())) return false;
      break;
    case FieldType::kInt64:
    case FieldType::kSint64:
    case FieldType::kSfixed64: {
      int64_t value;
      if (!ConsumeSignedInteger(&value, std::numeric_limits<int64_t>::max())) return false;
      bits = field.type == FieldType::kSint64 ? Zigzag64(value) : static_cast<uint64_t>(value);
      break;
    }
    case FieldType::kUint64:
    case FieldType::kFixed64:
      if (!ConsumeUnsignedInteger(&bits, std::numeric_limits<uint64_t>::max())) return false;
      break;
    case FieldType::kFloat: {
      double value;
      if (!ConsumeDouble(&value)) return false;
      bits = BitCast<uint32_t>(TextDoubleToFloat(value));
      break;
    }
    case FieldType::kDouble: {
      double value;
      if (!ConsumeDouble(&value)) return false;
      bits = BitCast<uint64_t>(value);
      break;
    }
    case FieldType::kBool:
      if (!ConsumeBool(&bits, field)) return false;
      break;
    case FieldType::kEnum:
      if (!ConsumeEnum(*frame, field, &bits)) return false;
      break;
    case FieldType::kString:
    case FieldType::kBytes:
      return ConsumeString(frame, field);
    default:
      return Error("internal error: field \"" + std::string(field.name) + "\" has no value type");
  }
  WriteNumber(frame, field, bits);
  if (!field.repeated) frame->SetHas(field, field.presence || bits != 0);
  return true;
}

bool Parser::ConsumeBool(uint64_t* value, const FieldSchema& field) {
  if (tokens_.type() == Token::kInteger) return ConsumeUnsignedInteger(value, 1);
  if (!ConsumeIdentifier(&word_)) return false;
  if (word_ == "true" || word_ == "True" || word_ == "t") {
    *value = 1;
  } else if (word_ == "false" || word_ == "False" || word_ == "f") {
    *value = 0;
  } else {
    return Error("Invalid value for boolean field \"" + std::string(field.name) + "\". Value: \"" +
                 CapForMessage(word_) + "\".");
  }
  return true;
}

bool Parser::ConsumeEnum(const Frame& frame, const FieldSchema& field, uint64_t* value) {
  const EnumSchema& values = *field.enumeration;
  if (tokens_.type() == Token::kIdentifier) {
    const EnumValueSchema* named = values.FindByName(tokens_.text());
    if (named == nullptr) word_ = tokens_.text();
    tokens_.Next();
    if (named == nullptr) {
      return Error("Unknown enumeration value of \"" + CapForMessage(word_) + "\" for field \"" +
                   std::string(field.name) + "\".");
    }
    *value = static_cast<uint64_t>(static_cast<int64_t>(named->number));
    return true;
  }
  if (!tokens_.LookingAt('-') && tokens_.type() != Token::kInteger) {
    return Error("Expected integer or identifier, got: " + tokens_.Quote());
  }
  int64_t number;
  if (!ConsumeSignedInteger(&number, std::numeric_limits<int32_t>::max())) return false;
  // A proto3 message's enums are open: a number with no name is kept as it is.
  if (!frame.type->proto3 && values.FindByNumber(static_cast<int32_t>(number)) == nullptr) {
    return Error("Unknown enumeration value of \"" + std::to_string(number) + "\" for field \"" +
                 std::string(field.name) + "\".");
  }
  *value = static_cast<uint64_t>(number);
  return true;
}

bool Parser::ConsumeString(Frame* frame, const FieldSchema& field) {
  if (tokens_.type() != Token::kString) return Error("Expected string, got: " + tokens_.Quote());
  const int line = tokens_.line();
  const int64_t column = tokens_.column();
  ClosePackedRun(frame);
  const size_t record_start = out_->size();
  AppendTag(out_, field.number, kWireLength);
  const size_t slot = OpenLength(out_);
  const size_t start = out_->size();
  // Adjacent literals are one value: "a" 'b' is "ab".
  while (tokens_.type() == Token::kString) {
    if (!tokens_.ReadString(out_)) return false;
    tokens_.Next();
  }
  const size_t length = out_->size() - start;
  if (field.type == FieldType::kString && frame->type->proto3 && !bad_utf8_.failed) {
    size_t bad_offset = 0;
    if (!IsValidUtf8(std::string_view(*out_).substr(start), &bad_offset)) {
      NoteBadUtf8(*frame, field, record_start, line, column, bad_offset);
    }
  }
  CloseLength(slot, out_);
  if (!field.repeated) frame->SetHas(field, field.presence || length > 0);
  return true;
}

bool Parser::ConsumeUnsignedInteger(uint64_t* value, uint64_t max) {
  if (tokens_.type() != Token::kInteger) return Error("Expected integer, got: " + tokens_.Quote());
  if (!ParseTextInteger(tokens_.text(), max, value)) {
    return Error("Integer out of range (" + CapForMessage(tokens_.text()) + ")");
  }
  tokens_.Next();
  return true;
}

bool Parser::ConsumeSignedInteger(int64_t* value, uint64_t max) {
  const bool negative = TryConsume('-');
  if (negative) ++max;  // two's complement has one more negative number
  uint64_t magnitude;
  if (!ConsumeUnsignedInteger(&magnitude, max)) return false;
  *value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

bool Parser::ConsumeDouble(double* value) {
  const bool negative = TryConsume('-');
  if (tokens_.type() == Token::kInteger) {
    // An integer for a float field: decimal only, exact up to 2^64, else as strtod reads it.
    const std::string& text = tokens_.text();
    if (IsHexOrOctalText(text)) {
      return Error("Expect a decimal number, got: " + CapForMessage(text));
    }
    uint64_t integer;
    *value = ParseTextInteger(text, std::numeric_limits<uint64_t>::max(), &integer)
                 ? static_cast<double>(integer)
                 : ParseTextFloat(text);
  } else if (tokens_.type() == Token::kFloat) {
    *value = ParseTextFloat(tokens_.text());
  } else if (tokens_.type() == Token::kIdentifier) {
    const std::string lowered = Lowered(tokens_.text());
    if (lowered == "inf" || lowered == "infinity") {
      *value = std::numeric_limits<double>::infinity();
    } else if (lowered == "nan") {
      *value = std::numeric_limits<double>::quiet_NaN();
    } else {
      return Error("Expected double, got: " + CapForMessage(lowered));
    }
  } else {
    return Error("Expected double, got: " + tokens_.Quote());
  }
  tokens_.Next();
  if (negative) *value = -*value;
  return true;
}

// A reserved field's value is skipped as libprotobuf skips an unknown field's: by its shape.
bool Parser::SkipField() {
  if (TryConsume('[')) {
    std::string name;
    if (!ConsumeFullTypeName(&name, /*url=*/true) || !Consume(']')) return false;
  } else if (!ConsumeIdentifier(&word_)) {
    return false;
  }
  if (TryConsume(':')) {
    if (!SkipValueOrMessage()) return false;
  } else if (!SkipFieldMessage()) {
    return false;
  }
  if (!TryConsume(';')) TryConsume(',');
  return true;
}

bool Parser::SkipFieldMessage() {
  if (--recursion_budget_ < 0) return TooDeep();
  char close;
  if (!ConsumeMessageOpen(&close)) return false;
  while (!tokens_.LookingAt('>') && !tokens_.LookingAt('}')) {
    if (!SkipField()) return false;
  }
  if (!Consume(close)) return false;
  ++recursion_budget_;
  return true;
}

bool Parser::SkipFieldValue() {
  if (--recursion_budget_ < 0) return TooDeep();
  if (tokens_.type() == Token::kString) {
    while (tokens_.type() == Token::kString) tokens_.Next();
    ++recursion_budget_;
    return true;
  }
  if (TryConsume('[')) {
    for (;;) {
      if (!SkipValueOrMessage()) return false;
      if (TryConsume(']')) break;
      if (!Consume(',')) return false;
    }
    ++recursion_budget_;
    return true;
  }
  // A number, or an identifier (an enum name, inf, nan), maybe after a minus.
  const bool minus = TryConsume('-');
  const Token type = tokens_.type();
  if (type != Token::kInteger && type != Token::kFloat && type != Token::kIdentifier) {
    return Error("Cannot skip field value, unexpected token: " + tokens_.Quote());
  }
  if (minus && type == Token::kIdentifier) {
    const std::string lowered = Lowered(tokens_.text());
    if (lowered != "inf" && lowered != "infinity" && lowered != "nan") {
      return Error("Invalid float number: " + CapForMessage(lowered));
    }
  }
  tokens_.Next();
  ++recursion_budget_;
  return true;
}

void Parser::NoteBadUtf8(const Frame& frame, const FieldSchema& field, size_t record_start,
                         int line, int64_t column, size_t bad_offset) {
  // The path from the root: each step is a field of the frame around it, found in the
  // bytes written so far (an index counts the records of that field before it; a map entry
  // is named by its key when the key came first).
  std::vector<std::string> steps;
  steps.push_back(WirePathStep(Before(frame, record_start), field, {}));
  size_t bound = record_start;
  for (const Frame* f = &frame; f->parent != nullptr; f = f->parent) {
    const std::string_view entry =
        std::string_view(*out_).substr(f->content_start, bound - f->content_start);
    steps.push_back(WirePathStep(Before(*f->parent, f->record_start), *f->field, entry));
    bound = f->record_start;
  }
  std::reverse(steps.begin(), steps.end());
  bad_utf8_.Report(line, column,
                   "string field '" + std::string(frame.type->full_name) + "." +
                       std::string(field.name) + "' (" + JoinPathSteps(steps) +
                       ") is not valid UTF-8 (at byte " + std::to_string(bad_offset) +
                       " of the string); a proto3 string must be UTF-8");
}

}  // namespace

bool TextToWire(google::protobuf::io::ZeroCopyInputStream* input, const MessageSchema& type,
                std::string* wire, TextParseError* error, int recursion_limit) {
  Parser parser(input, wire, recursion_limit);
  *error = TextParseError();
  return parser.Parse(type, error);
}

bool ParseTextMessage(std::string_view text, const MessageSchema& type,
                      google::protobuf::MessageLite* message, TextParseError* error) {
  message->Clear();
  *error = TextParseError();
  if (text.size() > kMaxProtoBytes) {
    error->too_large = true;
    error->message = "the text is 2 GiB or more";
    return false;
  }
  google::protobuf::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  std::string wire;
  if (!TextToWire(&input, type, &wire, error)) return false;
  if (!message->ParseFromString(wire)) {
    message->Clear();
    error->message = "internal error: the wire bytes of the text did not parse";
    return false;
  }
  return true;
}

}  // namespace graphport::proto
