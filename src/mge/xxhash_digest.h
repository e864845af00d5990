// MegEngine's XXHash digest (XXH64 with a seed, a zero digest replaced by 1), which both its
// operator type ids and the FBS v1 content hash are. One translation unit compiles xxhash
// inline (XXH_INLINE_ALL), so its static definitions exist once per library.
#ifndef GRAPHPORT_MGE_XXHASH_DIGEST_H_
#define GRAPHPORT_MGE_XXHASH_DIGEST_H_

#include <cstddef>
#include <cstdint>

namespace graphport::mge {

uint64_t XxHashDigest(const void* data, size_t size, uint64_t seed);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_XXHASH_DIGEST_H_
