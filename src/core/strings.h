// String tests that several layers need (file names by extension, format names by suffix,
// the searches and filters of a viewer, which ignore ASCII case).
#ifndef GRAPHPORT_CORE_STRINGS_H_
#define GRAPHPORT_CORE_STRINGS_H_

#include <string>
#include <string_view>

namespace graphport {

inline bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

inline char LowerAscii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string LowerAscii(std::string text) {
  for (char& c : text) c = LowerAscii(c);
  return text;
}

// Whether `text` holds `lower` (already lower case) ignoring ASCII case; no copy of `text`,
// which a search over 200k names would make 200k times.
inline bool ContainsLowerAscii(std::string_view text, std::string_view lower) {
  if (lower.size() > text.size()) return false;
  for (size_t at = 0; at + lower.size() <= text.size(); ++at) {
    size_t k = 0;
    while (k < lower.size() && LowerAscii(text[at + k]) == lower[k]) ++k;
    if (k == lower.size()) return true;
  }
  return false;
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_STRINGS_H_
