// Adapters between graphport's ByteSource/ByteSink and protobuf's zero-copy streams, so
// libprotobuf parses and serializes in chunks without the whole file held twice. The input
// adapters check a memory budget at each chunk: a stream that refuses its next chunk is the
// only way to stop libprotobuf's parser without an exception crossing its frames.
#ifndef GRAPHPORT_PROTO_PROTO_STREAMS_H_
#define GRAPHPORT_PROTO_PROTO_STREAMS_H_

#include <google/protobuf/io/zero_copy_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <memory>
#include <string>
#include <string_view>

#include "core/byte_stream.h"
#include "proto/memory_budget.h"

namespace graphport::proto {

class SourceCopyingStream : public google::protobuf::io::CopyingInputStream {
 public:
  // `budget` may be null (no limit).
  explicit SourceCopyingStream(ByteSource* source, const MemoryBudget* budget = nullptr)
      : source_(source), budget_(budget) {}
  int Read(void* buffer, int size) override;
  // First failure of the source, kept because protobuf only sees "-1". Exceptions must not
  // cross libprotobuf's frames: in WebAssembly it is built without exception support.
  const std::string& error() const { return error_; }
  bool over_budget() const { return over_budget_; }
  uint64_t consumed() const { return consumed_; }

 private:
  ByteSource* source_;
  const MemoryBudget* budget_;
  std::string error_;
  bool over_budget_ = false;
  uint64_t consumed_ = 0;
};

// Bytes already in memory, lent to the parser in chunks (no copy) so the budget is checked
// between them.
class BudgetedArrayStream : public google::protobuf::io::ZeroCopyInputStream {
 public:
  BudgetedArrayStream(std::string_view bytes, size_t chunk, const MemoryBudget* budget)
      : bytes_(bytes), chunk_(chunk), budget_(budget) {}
  bool Next(const void** data, int* size) override;
  void BackUp(int count) override;
  bool Skip(int count) override;
  int64_t ByteCount() const override { return static_cast<int64_t>(position_); }
  bool over_budget() const { return over_budget_; }

 private:
  std::string_view bytes_;
  size_t chunk_;
  const MemoryBudget* budget_;
  size_t position_ = 0;
  size_t last_chunk_ = 0;
  bool over_budget_ = false;
};

// Serialised bytes handed to a ByteSink in chunks of at most `chunk_bytes` (a JavaScript sink
// copies each chunk out of the heap, so none may be larger). With
// CodedOutputStream::EnableAliasing, a long run the writer already holds (a node's bytes, a
// tensor's content) is handed over from where it is, a chunk at a time, after what the buffer
// holds, instead of being copied through the buffer first: for a weights-heavy graph that copy
// was most of the export.
class SinkOutputStream : public google::protobuf::io::ZeroCopyOutputStream {
 public:
  // Shorter runs are copied into the buffer: each run handed over costs a call of the sink,
  // which for a JavaScript sink crosses into JavaScript.
  static constexpr size_t kMinAliasedBytes = 64 << 10;

  SinkOutputStream(ByteSink* sink, size_t chunk_bytes);
  bool Next(void** data, int* size) override;
  void BackUp(int count) override;
  int64_t ByteCount() const override { return static_cast<int64_t>(flushed_ + used_); }
  bool AllowsAliasing() const override { return true; }
  bool WriteAliasedRaw(const void* data, int size) override;
  // Hands the buffered bytes to the sink; false once the sink has failed.
  bool Flush();
  // The sink's first failure, kept because protobuf only sees "false". Exceptions must not
  // cross libprotobuf's frames: in WebAssembly it is built without exception support.
  const std::string& error() const { return error_; }

 private:
  bool Hand(const void* data, size_t size);

  ByteSink* sink_;
  std::unique_ptr<char[]> buffer_;  // not zero-filled: only written bytes are handed over
  size_t capacity_;
  size_t used_ = 0;     // bytes of buffer_ written (or handed out by Next)
  size_t flushed_ = 0;  // bytes handed to the sink
  bool failed_ = false;
  std::string error_;
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_PROTO_STREAMS_H_
