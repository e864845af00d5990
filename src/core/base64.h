// Base64 (RFC 4648, with padding): how binary option payloads travel inside JSON options.
#ifndef GRAPHPORT_CORE_BASE64_H_
#define GRAPHPORT_CORE_BASE64_H_

#include <string>
#include <string_view>

namespace graphport {

std::string Base64Encode(std::string_view bytes);
// False on a character outside the alphabet or a bad length.
bool Base64Decode(std::string_view text, std::string* bytes);

// The protobuf JSON mapping's reading of `bytes` fields: the standard alphabet or the URL-safe
// one ("-_" for "+/"), not mixed, with the '=' padding optional (but whole when present).
// Leftover bits of the last group must be zero, as libprotobuf requires, so each byte string
// has one accepted spelling per alphabet. False on anything else, whitespace included.
bool Base64DecodeEitherAlphabet(std::string_view text, std::string* bytes);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_BASE64_H_
