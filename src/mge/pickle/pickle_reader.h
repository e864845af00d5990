// A restricted pickle reader for Metadata.user_info: it understands the opcodes CPython's
// protocols 2-5 use for plain values (None, bool, int, float, str, bytes, list, tuple, dict)
// and refuses everything else, so it never imports or calls anything. MegEngine itself falls
// back to the raw bytes when unpickling fails; inspect does the same.
#ifndef GRAPHPORT_MGE_PICKLE_PICKLE_READER_H_
#define GRAPHPORT_MGE_PICKLE_PICKLE_READER_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace graphport::mge {

// JSON for the value: str -> string, bytes -> {"$bytes": base64}, int -> number (or a
// decimal string beyond 64 bits), float -> number (non-finite: "nan", "inf", "-inf"),
// list and tuple -> array, dict -> object when every key is a str, else
// {"$dict": [[key, value], ...]}. False, with `why` ("opcode 0x63 (GLOBAL) at offset 2 is
// not a plain value"), when the pickle holds anything else or is malformed.
bool ReadPlainPickle(std::string_view bytes, nlohmann::json* value, std::string* why);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_PICKLE_PICKLE_READER_H_
