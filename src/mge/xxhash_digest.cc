#include "mge/xxhash_digest.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace graphport::mge {

uint64_t XxHashDigest(const void* data, size_t size, uint64_t seed) {
  const uint64_t h = XXH64(data, size, seed);
  return h == 0 ? 1 : h;
}

}  // namespace graphport::mge
