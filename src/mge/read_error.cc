#include "mge/read_error.h"

namespace graphport::mge {

void ThrowAt(ErrorCode code, const std::string& file, int64_t offset, const std::string& what,
             const std::string& opr) {
  std::string message = file;
  if (offset >= 0) message += ": offset " + std::to_string(offset);
  if (!opr.empty()) message += ": operator " + opr;
  message += ": " + what;
  ErrorLocation where;
  where.file = file;
  where.offset = offset;
  where.opr = opr;
  throw Error(code, message, where);
}

std::string OprLabel(size_t index, const std::string& type) {
  return "#" + std::to_string(index) + " (" + type + ")";
}

}  // namespace graphport::mge
