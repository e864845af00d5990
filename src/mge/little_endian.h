// Appending an unsigned integer's low `bytes` bytes, least significant first: the byte order
// of MegEngine's file headers and of a pickle's integer operands.
#ifndef GRAPHPORT_MGE_LITTLE_ENDIAN_H_
#define GRAPHPORT_MGE_LITTLE_ENDIAN_H_

#include <cstdint>
#include <string>

namespace graphport::mge {

inline void AppendLe(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_LITTLE_ENDIAN_H_
