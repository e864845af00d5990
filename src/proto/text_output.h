// The buffered output that the wire text printer (proto/wire_text.h) writes into.
#ifndef GRAPHPORT_PROTO_TEXT_OUTPUT_H_
#define GRAPHPORT_PROTO_TEXT_OUTPUT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/byte_stream.h"

namespace graphport::proto {

// Text gathered in a large buffer and handed to a sink in big chunks, so that printing one
// field is a few stores, not a call into the sink. The sink's first failure is kept (its
// message) and all later output is dropped: writers check failed() between messages and at
// the end, as they do with libprotobuf's copying streams.
class TextOutput {
 public:
  explicit TextOutput(ByteSink* sink, size_t chunk_bytes = size_t{1} << 20);
  TextOutput(const TextOutput&) = delete;
  TextOutput& operator=(const TextOutput&) = delete;

  // Room for `n` bytes at the returned pointer; Commit() the end of what was written there.
  char* Reserve(size_t n) {
    if (static_cast<size_t>(end_ - cursor_) < n) MakeRoom(n);
    return cursor_;
  }
  void Commit(char* written_end) { cursor_ = written_end; }
  void Append(std::string_view text);
  // Hands what is buffered to the sink.
  void Flush();

  // Where the next byte goes, and how many times the buffer was handed on so far: text
  // between two cursors of the same count is still in the buffer, whole.
  const char* cursor() const { return cursor_; }
  uint64_t flushes() const { return flushes_; }

  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }

 private:
  void MakeRoom(size_t n);

  ByteSink* sink_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_;
  char* cursor_;
  char* end_;
  uint64_t flushes_ = 0;
  bool failed_ = false;
  std::string error_;
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_TEXT_OUTPUT_H_
