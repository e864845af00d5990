// Writing the short byte runs an export copies node by node (a node's bytes, the two runs
// around its device record) into a CodedOutputStream, by words (core/copy_bytes.h).
#ifndef GRAPHPORT_PROTO_SHORT_COPY_H_
#define GRAPHPORT_PROTO_SHORT_COPY_H_

#include <google/protobuf/io/coded_stream.h>

#include <cstdint>

#include "core/copy_bytes.h"

namespace graphport::proto {

// Longer runs (past kShortCopyMax) go to WriteRawMaybeAliased: copied by the host's bulk
// copy, or, on a stream with aliasing enabled (proto/proto_streams.h), handed to the sink as
// they are.
inline void WriteShortRaw(google::protobuf::io::CodedOutputStream* out, const uint8_t* p,
                          size_t n) {
  uint8_t* dst;
  if (n < 8 || n > kShortCopyMax ||
      (dst = out->GetDirectBufferForNBytesAndAdvance(static_cast<int>(n))) == nullptr) {
    out->WriteRawMaybeAliased(p, static_cast<int>(n));
    return;
  }
  CopyWords(dst, p, n);
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_SHORT_COPY_H_
