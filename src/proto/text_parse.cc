// TextToWire and ParseTextMessage, and the parser's reading of fields and messages
// (text_parser.h). The other parts of the parser read scalar values (text_parse_values.cc)
// and skip reserved fields (text_parse_skip.cc).
#include "proto/text_parse.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "core/message_text.h"
#include "proto/text_parser.h"
#include "proto/wire_append.h"
#include "proto/wire_canonical.h"
#include "proto/wire_path.h"

namespace graphport::proto {
namespace text_parse_internal {
namespace {

constexpr const char kGoogleApisPrefix[] = "type.googleapis.com/";
constexpr const char kGoogleProdPrefix[] = "type.googleprod.com/";

}  // namespace

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

}  // namespace text_parse_internal

bool TextToWire(google::protobuf::io::ZeroCopyInputStream* input, const MessageSchema& type,
                std::string* wire, TextParseError* error, int recursion_limit) {
  text_parse_internal::Parser parser(input, wire, recursion_limit);
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
