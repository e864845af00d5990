#include "core/error.h"

namespace graphport {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kEmptyInput:
      return "EMPTY_INPUT";
    case ErrorCode::kUnknownFormat:
      return "UNKNOWN_FORMAT";
    case ErrorCode::kParseError:
      return "PARSE_ERROR";
    case ErrorCode::kTooLarge:
      return "TOO_LARGE";
    case ErrorCode::kInvalidOption:
      return "INVALID_OPTION";
    case ErrorCode::kNotFound:
      return "NOT_FOUND";
    case ErrorCode::kUnsupported:
      return "UNSUPPORTED";
    case ErrorCode::kIo:
      return "IO_ERROR";
    case ErrorCode::kInternal:
      return "INTERNAL";
  }
  return "INTERNAL";
}

}  // namespace graphport
