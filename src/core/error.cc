#include "core/error.h"

#include "core/error_codes.h"

namespace graphport {

const std::vector<ErrorCodeInfo>& ErrorCodes() {
  static const std::vector<ErrorCodeInfo> codes = {
      {ErrorCode::kEmptyInput, "EMPTY_INPUT", "zero bytes were given"},
      {ErrorCode::kUnknownFormat, "UNKNOWN_FORMAT",
       "the input is no family's. The message says why each family ruled it out"},
      {ErrorCode::kParseError, "PARSE_ERROR",
       "the format is known, but the bytes are malformed, truncated or nested too deep"},
      {ErrorCode::kTooLarge, "TOO_LARGE",
       "a message of 2 GiB or more, or a model over the memory budget (2 GiB by default, the "
       "same natively and in WebAssembly; checked as the parse grows)"},
      {ErrorCode::kInvalidOption, "INVALID_OPTION",
       "an unknown, malformed or contradictory option"},
      {ErrorCode::kNotFound, "NOT_FOUND",
       "a requested tag set, export scope or collection is not in the model"},
      {ErrorCode::kUnsupported, "UNSUPPORTED", "valid input that this version cannot handle"},
      {ErrorCode::kIo, "IO_ERROR", "the byte source or sink failed"},
      {ErrorCode::kInternal, "INTERNAL", "a bug in graphport: please report it"},
  };
  return codes;
}

const char* ErrorCodeName(ErrorCode code) {
  for (const ErrorCodeInfo& info : ErrorCodes()) {
    if (info.code == code) return info.name;
  }
  return "INTERNAL";
}

}  // namespace graphport
