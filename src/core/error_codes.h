// Every error code with its name and meaning: the one list. ErrorCodeName() reads it; the JS
// type GraphportErrorCode (bindings/js/error_codes.d.ts), the API docs' table and the page's
// titles are made or checked from it through gp.errorCodes().
#ifndef GRAPHPORT_CORE_ERROR_CODES_H_
#define GRAPHPORT_CORE_ERROR_CODES_H_

#include <vector>

#include "core/error.h"

namespace graphport {

struct ErrorCodeInfo {
  ErrorCode code;
  const char* name;     // "EMPTY_INPUT": GraphportError.code, what the CLIs print
  const char* meaning;  // when it is raised, for people
};

// In the enum's order; a new code gets its entry here.
const std::vector<ErrorCodeInfo>& ErrorCodes();

}  // namespace graphport

#endif  // GRAPHPORT_CORE_ERROR_CODES_H_
