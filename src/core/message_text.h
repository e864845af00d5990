// Quoting input in error messages without echoing megabytes: a message names what went wrong
// and where, so a long name or a long list is cut and the message says how much was left out.
#ifndef GRAPHPORT_CORE_MESSAGE_TEXT_H_
#define GRAPHPORT_CORE_MESSAGE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace graphport {

// Longest piece of input a message quotes, and most items of a list it names. Real names
// (scopes, tags, collections) are far below; a hostile 100 KB option is not echoed whole.
inline constexpr size_t kMaxQuotedBytes = 200;
inline constexpr size_t kMaxListedItems = 10;

// `text` itself when it is at most `max_bytes` long; otherwise its first bytes (cut at a
// UTF-8 character boundary) followed by "... (N more bytes)".
std::string CapForMessage(std::string_view text, size_t max_bytes = kMaxQuotedBytes);

// The items joined by `separator`, each capped as above; past `max_items`, "... and N more".
std::string JoinForMessage(const std::vector<std::string>& items, std::string_view separator,
                           size_t max_items = kMaxListedItems);

// The steps of a path through nested fields ("node[3]", "attr[\"T\"]", "s") joined with '.'.
// A path of more than 2 * `ends` steps keeps its first and last `ends` with the count of those
// left out between them: "a.b.(40 more).y.z".
std::string JoinPathSteps(const std::vector<std::string>& steps, size_t ends = 6);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_MESSAGE_TEXT_H_
