// The parser's scalar values (text_parser.h): a bool, an enum, a string, an integer or a
// float read from its tokens and written to the output as the field's wire record. A run of
// one repeated number field goes into one packed record.
#include <cstring>
#include <limits>

#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/text_numbers.h"
#include "proto/text_parser.h"
#include "proto/wire_append.h"

namespace graphport::proto::text_parse_internal {
namespace {

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

}  // namespace

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

}  // namespace graphport::proto::text_parse_internal
