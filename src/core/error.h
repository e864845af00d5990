// Errors that cross the library boundary: a stable code for programs, a message for people.
#ifndef GRAPHPORT_CORE_ERROR_H_
#define GRAPHPORT_CORE_ERROR_H_

#include <stdexcept>
#include <string>

namespace graphport {

// Stable codes: the JS layer exposes them as GraphportError.code, the CLI prints them.
// Never renumber or rename one; add new ones at the end.
enum class ErrorCode {
  kEmptyInput,     // zero bytes were given
  kUnknownFormat,  // detection found no family/format that fits the bytes
  kParseError,     // the format was known but the bytes are malformed or truncated
  kTooLarge,       // a size limit (protobuf's 2 GiB, the heap budget) would be exceeded
  kInvalidOption,  // an export or load option is unknown, malformed or contradictory
  kNotFound,       // a requested thing (tag set, scope, collection) is not in the model
  kUnsupported,    // valid input that this version cannot handle
  kIo,             // the byte source or sink failed
  kInternal,       // a bug: an invariant of graphport itself did not hold
};

// "EMPTY_INPUT", "UNKNOWN_FORMAT", ...
const char* ErrorCodeName(ErrorCode code);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_ERROR_H_
