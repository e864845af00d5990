// The FBS v1 content hash: MegEngine's XXHash class (XXH64, seed 0x4b4e74b36b5d11, a zero
// digest replaced by 1) over the builder's bytes just before the root table is built.
#ifndef GRAPHPORT_MGE_DUMP_CONTENT_HASH_H_
#define GRAPHPORT_MGE_DUMP_CONTENT_HASH_H_

#include <cstddef>
#include <cstdint>

namespace graphport::mge {

uint64_t ContentHash(const uint8_t* data, size_t size);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_CONTENT_HASH_H_
