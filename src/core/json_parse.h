// JSON text read into nlohmann::json, always through this one function. nlohmann's parser and
// lexer are templates on the kind of input (a std::string, a string_view's iterators, ...):
// each kind a caller passes instantiates both of its parsers (with and without a callback) and
// a lexer again in the WebAssembly module, about 3 KB gzip per kind. Here the input is always
// a range of chars.
#ifndef GRAPHPORT_CORE_JSON_PARSE_H_
#define GRAPHPORT_CORE_JSON_PARSE_H_

#include <nlohmann/json.hpp>
#include <string_view>

namespace graphport {

// Throws nlohmann::json::parse_error for text that is not JSON; with `allow_exceptions` false,
// returns a discarded value instead.
inline nlohmann::json ParseJson(std::string_view text, bool allow_exceptions = true) {
  return nlohmann::json::parse(text.data(), text.data() + text.size(), nullptr, allow_exceptions);
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_JSON_PARSE_H_
