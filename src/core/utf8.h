// UTF-8 validity as protobuf defines it for proto3 `string` fields (and as JSON needs it).
#ifndef GRAPHPORT_CORE_UTF8_H_
#define GRAPHPORT_CORE_UTF8_H_

#include <cstddef>
#include <string_view>

namespace graphport {

// True when `text` is well-formed UTF-8: no overlong forms, no surrogates, nothing past
// U+10FFFF. Otherwise false, with `*bad_offset` (when given) at the first byte that is wrong.
bool IsValidUtf8(std::string_view text, size_t* bad_offset = nullptr);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_UTF8_H_
