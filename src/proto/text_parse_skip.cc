// The parser's skipping (text_parser.h): the value of a reserved field name is read and
// dropped, nothing of it reaches the output. It nests under the same recursion limit as the
// messages that are kept.
#include "core/message_text.h"
#include "proto/text_parser.h"

namespace graphport::proto::text_parse_internal {

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

}  // namespace graphport::proto::text_parse_internal
