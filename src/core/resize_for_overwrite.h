// Growing a string that the caller fills at once (a read from a source, a copy), without
// zeroing the new bytes first. The WebAssembly module's memset is a loop over memory (no bulk
// memory instructions in its target): zeroing the buffer a node-heavy GraphDef is read into
// was 15% of its load (`node --cpu-prof`, 200k nodes). libc++ has a member that grows without
// writing; other standard libraries zero, which natively costs little.
#ifndef GRAPHPORT_CORE_RESIZE_FOR_OVERWRITE_H_
#define GRAPHPORT_CORE_RESIZE_FOR_OVERWRITE_H_

#include <cstddef>
#include <string>

namespace graphport {

// `*s` holds `size` bytes: the first ones as before, any new ones unspecified until written.
inline void ResizeForOverwrite(std::string* s, size_t size) {
#if defined(_LIBCPP_VERSION)
  s->__resize_default_init(size);
#else
  s->resize(size);
#endif
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_RESIZE_FOR_OVERWRITE_H_
