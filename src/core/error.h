// Errors that cross the library boundary: a stable code for programs, a message for people.
#ifndef GRAPHPORT_CORE_ERROR_H_
#define GRAPHPORT_CORE_ERROR_H_

#include <cstdint>
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

// Where the input went wrong, as fields a program can use (the page highlights them, the JS
// GraphportError carries them). The message names the same place for people.
struct ErrorLocation {
  std::string file;     // the input's name, as the caller gave it
  int64_t offset = -1;  // byte offset in `file`, or -1
  int line = 0;         // 1-based line and column in a text input, or 0
  int column = 0;
  std::string node;    // a TensorFlow node or function name
  std::string opr;     // a MegEngine operator: its name, or "#index"
  std::string option;  // the option that was wrong
  static ErrorLocation InFile(std::string file, int64_t offset = -1) {
    ErrorLocation where;
    where.file = std::move(file);
    where.offset = offset;
    return where;
  }
  static ErrorLocation OfOption(std::string option) {
    ErrorLocation where;
    where.option = std::move(option);
    return where;
  }
  bool empty() const {
    return file.empty() && offset < 0 && line == 0 && node.empty() && opr.empty() && option.empty();
  }
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  Error(ErrorCode code, const std::string& message, ErrorLocation where)
      : std::runtime_error(message), code_(code), where_(std::move(where)) {}
  ErrorCode code() const { return code_; }
  const ErrorLocation& where() const { return where_; }

 private:
  ErrorCode code_;
  ErrorLocation where_;
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_ERROR_H_
