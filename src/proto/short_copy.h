// Writing the short byte runs an export copies node by node (a node's bytes, the two runs
// around its device record) into a CodedOutputStream.
//
// Emscripten's memcpy copies byte by byte when source and destination are not equally
// aligned, as a node's bytes in the input and its place in the output rarely are; WebAssembly's
// unaligned 8-byte loads and stores copy the same runs several times faster. (Its bulk
// memory.copy, measured, is no faster for runs this short.)
#ifndef GRAPHPORT_PROTO_SHORT_COPY_H_
#define GRAPHPORT_PROTO_SHORT_COPY_H_

#include <google/protobuf/io/coded_stream.h>

#include <cstdint>
#include <cstring>

namespace graphport::proto {

// Longer runs go to WriteRawMaybeAliased: copied by the host's bulk copy, or, on a stream
// with aliasing enabled (proto/proto_streams.h), handed to the sink as they are.
constexpr size_t kShortCopyMax = 512;

inline void WriteShortRaw(google::protobuf::io::CodedOutputStream* out, const uint8_t* p,
                          size_t n) {
  uint8_t* dst;
  if (n < 8 || n > kShortCopyMax ||
      (dst = out->GetDirectBufferForNBytesAndAdvance(static_cast<int>(n))) == nullptr) {
    out->WriteRawMaybeAliased(p, static_cast<int>(n));
    return;
  }
  uint64_t word;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&word, p + i, 8);
    std::memcpy(dst + i, &word, 8);
  }
  std::memcpy(&word, p + n - 8, 8);  // the last word overlaps what is written: no byte loop
  std::memcpy(dst + n - 8, &word, 8);
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_SHORT_COPY_H_
