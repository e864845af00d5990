#include "mge/json_text.h"

#include <cstdio>

namespace graphport::mge {
namespace {

std::string Dump(const nlohmann::json& v) {
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Printable ASCII without a quote or a backslash is written as it is; anything else (escapes,
// UTF-8, invalid bytes that dump replaces) goes through nlohmann's own serializer.
bool NeedsEscaping(std::string_view s) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') return true;
  }
  return false;
}

void AppendString(std::string_view s, std::string* out) {
  if (NeedsEscaping(s)) {
    *out += Dump(nlohmann::json(std::string(s)));
    return;
  }
  out->push_back('"');
  out->append(s);
  out->push_back('"');
}

}  // namespace

void JsonText::Open(char c) {
  BeforeValue();
  out_->push_back(c);
  first_ = true;
}

void JsonText::Close(char c) {
  out_->push_back(c);
  first_ = false;
}

void JsonText::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_) out_->push_back(',');
  first_ = false;
}

void JsonText::Key(std::string_view key) {
  BeforeValue();
  AppendString(key, out_);
  out_->push_back(':');
  after_key_ = true;
}

void JsonText::Null() {
  BeforeValue();
  out_->append("null");
}

void JsonText::Bool(bool v) {
  BeforeValue();
  out_->append(v ? "true" : "false");
}

void JsonText::Uint(uint64_t v) {
  BeforeValue();
  char buf[24];
  int n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  out_->append(buf, static_cast<size_t>(n));
}

void JsonText::Int(int64_t v) {
  BeforeValue();
  char buf[24];
  int n = std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  out_->append(buf, static_cast<size_t>(n));
}

void JsonText::String(std::string_view s) {
  BeforeValue();
  AppendString(s, out_);
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
  out_->append(text);
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
