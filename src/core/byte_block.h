// Sixteen bytes moved or compared as one WebAssembly SIMD value (v128), for the byte loops run
// once per name or node (copies, ASCII checks, compares): half the loads and stores of 8-byte
// words. Only where the compiler targets SIMD (the WebAssembly build, -msimd128); elsewhere
// the callers keep their 8-byte words.
#ifndef GRAPHPORT_CORE_BYTE_BLOCK_H_
#define GRAPHPORT_CORE_BYTE_BLOCK_H_

#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#define GRAPHPORT_BYTE_BLOCKS 1

namespace graphport {

using ByteBlock = uint8_t __attribute__((vector_size(16)));

inline ByteBlock LoadBlock(const void* p) {
  ByteBlock block;
  std::memcpy(&block, p, 16);
  return block;
}

inline void StoreBlock(void* p, ByteBlock block) { std::memcpy(p, &block, 16); }

// True when any byte of `block` is nonzero.
inline bool AnyBitSet(ByteBlock block) {
  uint64_t halves[2];
  std::memcpy(halves, &block, 16);
  return (halves[0] | halves[1]) != 0;
}

}  // namespace graphport

#endif  // __wasm_simd128__
#endif  // GRAPHPORT_CORE_BYTE_BLOCK_H_
