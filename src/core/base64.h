// Base64 (RFC 4648, with padding): how binary option payloads travel inside JSON options.
#ifndef GRAPHPORT_CORE_BASE64_H_
#define GRAPHPORT_CORE_BASE64_H_

#include <string>
#include <string_view>

namespace graphport {

std::string Base64Encode(std::string_view bytes);
// False on a character outside the alphabet or a bad length.
bool Base64Decode(std::string_view text, std::string* bytes);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_BASE64_H_
