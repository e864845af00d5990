#include "mge/json_text.h"

#include <charconv>

#include "core/utf8.h"

namespace graphport::mge {
namespace {

std::string Dump(const nlohmann::json& v) {
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Printable ASCII without a quote or a backslash is written as it is; anything else (escapes,
// UTF-8, invalid bytes that dump replaces) goes through nlohmann's own serializer.
void AppendString(std::string_view s, TextAppender* out) {
  if (!IsPlainJsonText(s)) {
    out->Put(Dump(nlohmann::json(std::string(s))));
    return;
  }
  out->Put('"');
  out->Put(s);
  out->Put('"');
}

template <typename Integer>
void AppendDecimal(Integer v, TextAppender* out) {
  char text[24];  // any 64-bit integer
  const std::to_chars_result end = std::to_chars(text, text + sizeof text, v);
  out->Put(std::string_view(text, end.ptr - text));
}

}  // namespace

void JsonText::Open(char c) {
  BeforeValue();
  out_.Put(c);
  first_ = true;
}

void JsonText::Close(char c) {
  out_.Put(c);
  first_ = false;
}

void JsonText::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_) out_.Put(',');
  first_ = false;
}

void JsonText::Key(std::string_view key) {
  BeforeValue();
  AppendString(key, &out_);
  out_.Put(':');
  after_key_ = true;
}

void JsonText::Null() {
  BeforeValue();
  out_.Put("null");
}

void JsonText::Bool(bool v) {
  BeforeValue();
  out_.Put(v ? "true" : "false");
}

void JsonText::Uint(uint64_t v) {
  BeforeValue();
  AppendDecimal(v, &out_);
}

void JsonText::Int(int64_t v) {
  BeforeValue();
  AppendDecimal(v, &out_);
}

void JsonText::String(std::string_view s) {
  BeforeValue();
  AppendString(s, &out_);
}

void JsonText::OptString(const std::optional<std::string>& s) {
  if (s) {
    String(*s);
  } else {
    Null();
  }
}

void JsonText::Uints(const std::vector<uint32_t>& values) {
  BeginArray();
  for (uint32_t v : values) Uint(v);
  EndArray();
}

void JsonText::Dom(const nlohmann::json& value) { Raw(Dump(value)); }

void JsonText::Raw(std::string_view text) {
  BeforeValue();
  out_.Put(text);
}

void WriteObjectWithMembers(const nlohmann::json& object,
                            const std::map<std::string, MemberWriter>& more, JsonText* out) {
  out->BeginObject();
  auto next = more.begin();
  for (const auto& [k, v] : object.items()) {
    for (; next != more.end() && next->first < k; ++next) {
      out->Key(next->first);
      next->second(out);
    }
    out->Key(k);
    out->Dom(v);
  }
  for (; next != more.end(); ++next) {
    out->Key(next->first);
    next->second(out);
  }
  out->EndObject();
}

}  // namespace graphport::mge
