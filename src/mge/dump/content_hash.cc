#include "mge/dump/content_hash.h"

#include "mge/xxhash_digest.h"

namespace graphport::mge {

uint64_t ContentHash(const uint8_t* data, size_t size) {
  constexpr uint64_t kSeed = 0x4b4e74b36b5d11;
  return XxHashDigest(data, size, kSeed);
}

}  // namespace graphport::mge
