#include "mge/dump/content_hash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace graphport::mge {

uint64_t ContentHash(const uint8_t* data, size_t size) {
  constexpr uint64_t kSeed = 0x4b4e74b36b5d11;
  uint64_t h = XXH64(data, size, kSeed);
  return h == 0 ? 1 : h;
}

}  // namespace graphport::mge
