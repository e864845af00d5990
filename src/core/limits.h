// Size limits every reader enforces before it allocates.
#ifndef GRAPHPORT_CORE_LIMITS_H_
#define GRAPHPORT_CORE_LIMITS_H_

#include <cstddef>
#include <cstdint>

namespace graphport {

// protobuf cannot parse or serialize one message of 2 GiB or more (sizes are int32 on the wire
// path); TensorFlow raises "GraphDef cannot be larger than 2GB" at the same bound.
inline constexpr uint64_t kMaxProtoBytes = (uint64_t{1} << 31) - 1;

// Default memory budget of one loaded model, the same natively and in WebAssembly: what one
// protobuf message can carry on the wire. With the input beside it, that still fits wasm32's
// 4 GiB heap; natively it stops a small file that expands (packed int64: 1 byte on disk, 8 in
// memory) from taking the machine's RAM. A load option raises or lowers it.
inline constexpr uint64_t kDefaultMaxMemoryBytes = uint64_t{2} << 30;

// Nesting depth for protobuf binary and text parsing: real graphs nest below 20 (function
// attrs inside lists inside attrs); the limit stops stack exhaustion on hostile input.
inline constexpr int kMaxProtoNesting = 100;

// How much of the input format detection looks at. Big enough to see past a large first
// field of a real file, small enough to cost nothing next to a parse.
inline constexpr size_t kDetectionPrefixBytes = 1 << 20;

// How much of that prefix binary TensorFlow detection walks against each of its three
// schemas: a few thousand nodes' fields, far more than it takes to tell them apart, for a
// quarter of the walk over the whole prefix (~1 ms per MiB in WebAssembly, 4% of loading a
// 38 MiB graph of 200k nodes).
inline constexpr size_t kBinaryDetectionScanBytes = 256 << 10;

// Chunk size for streaming between a ByteSource/ByteSink and the parsers/serializers.
inline constexpr size_t kStreamChunkBytes = 1 << 20;

}  // namespace graphport

#endif  // GRAPHPORT_CORE_LIMITS_H_
