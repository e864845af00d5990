// JSON text appended straight to a string, for inspect's operator list: a model of 100k
// operators as an nlohmann DOM costs seconds and dozens of times the model in heap, the text
// costs its own size. Every value is written exactly as nlohmann::json::dump(-1, ' ', false,
// replace) writes it, so the text equals the dump of the DOM the same values would make; the
// caller writes an object's keys in sorted (byte) order, as nlohmann's std::map keeps them.
#ifndef GRAPHPORT_MGE_JSON_TEXT_H_
#define GRAPHPORT_MGE_JSON_TEXT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text_appender.h"

namespace graphport::mge {

// Appends to `*out`, which holds the text once this is gone (not before: see TextAppender).
class JsonText {
 public:
  explicit JsonText(std::string* out) : out_(out) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  // An object member's key; its value follows.
  void Key(std::string_view key);

  void Null();
  void Bool(bool v);
  void Uint(uint64_t v);
  void Int(int64_t v);
  void String(std::string_view s);
  void OptString(const std::optional<std::string>& s);
  void Uints(const std::vector<uint32_t>& values);
  // Any value as nlohmann dumps it (a float, a small sub-object).
  void Dom(const nlohmann::json& value);
  // Text that is already one JSON value.
  void Raw(std::string_view text);

  // Bytes written so far, and room for `more` bytes after them (see std::string::reserve).
  size_t size() const { return out_.size(); }
  void Reserve(size_t more) { out_.Reserve(more); }

 private:
  void Open(char c);
  void Close(char c);
  void BeforeValue();
  TextAppender out_;
  bool first_ = true;       // no value yet in the innermost object or array
  bool after_key_ = false;  // the next value is a member's value
};

// Writes one member's value into the text.
using MemberWriter = std::function<void(JsonText*)>;

// Writes `object`'s members as nlohmann would dump them, with the members of `more` put at
// their sorted places (each writer writes its member's value straight into `out`, so a large
// part is never built twice); `object` must hold none of `more`'s keys.
void WriteObjectWithMembers(const nlohmann::json& object,
                            const std::map<std::string, MemberWriter>& more, JsonText* out);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_JSON_TEXT_H_
