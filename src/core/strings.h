// String tests that several layers need (file names by extension, format names by suffix).
#ifndef GRAPHPORT_CORE_STRINGS_H_
#define GRAPHPORT_CORE_STRINGS_H_

#include <string_view>

namespace graphport {

inline bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_STRINGS_H_
