// How the MegEngine readers and writers report bad input: a graphport::Error whose message
// and location name the file, the byte offset and the operator.
#ifndef GRAPHPORT_MGE_READ_ERROR_H_
#define GRAPHPORT_MGE_READ_ERROR_H_

#include <cstdint>
#include <string>

#include "core/error.h"

namespace graphport::mge {

// "<file>: offset <offset>: <what>" (the offset part only when offset >= 0), with the
// operator, when given, in the location and the message ("operator #3 (ReshapeV1): ...").
[[noreturn]] void ThrowAt(ErrorCode code, const std::string& file, int64_t offset,
                          const std::string& what, const std::string& opr = "");

// "#3 (ReshapeV1)": how messages name an operator.
std::string OprLabel(size_t index, const std::string& type);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_READ_ERROR_H_
