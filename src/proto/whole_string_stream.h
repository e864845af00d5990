// A streamed input for libprotobuf's binary parser that hands over each long string or bytes
// field (a tensor_content) in one chunk of its own.
//
// Why: libprotobuf reserves a string it parses from a stream only up to 50,000,000 bytes
// (kSafeStringSize, against inputs that claim huge lengths) and grows it chunk by chunk past
// that, so a 256 MiB tensor ends up in a 400 MiB buffer and a weights-heavy model takes about
// 1.75x its size in the heap (a 1.5 GiB GraphDef reached 2.7 GiB in WebAssembly). When the rest
// of the field arrives in one chunk, the string is allocated at its size: the heap then holds
// the model plus the one chunk being parsed.
//
// To know where those fields are, the stream follows the wire structure of the bytes it reads
// with the message's schema. Only a field whose end lies inside the input (its size being
// known) gets a chunk of its own; where the bytes stop making sense the stream goes on in
// plain chunks, and the parser reports the fault as before.
#ifndef GRAPHPORT_PROTO_WHOLE_STRING_STREAM_H_
#define GRAPHPORT_PROTO_WHOLE_STRING_STREAM_H_

#include <google/protobuf/io/zero_copy_stream.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "proto/memory_budget.h"
#include "proto/schema.h"
#include "proto/wire_reader.h"

namespace graphport::proto {

// Above libprotobuf's kSafeStringSize a streamed string grows by doubling; below it the parser
// reserves its size anyway.
inline constexpr uint64_t kWholeStringBytes = 50'000'000;

// Follows protobuf wire bytes fed to it in order, field by field, with a schema, and stops at
// each string or bytes field of at least `whole_above` bytes.
class WireFollower {
 public:
  WireFollower(const MessageSchema& type, uint64_t input_size, uint64_t whole_above);
  // Follows bytes[0, n), the input's bytes from offset `at` on (each byte fed once, in order).
  // Returns how many it took: fewer than n when it stopped at the payload of a long string,
  // which then starts at input offset long_start() and has long_size() bytes; feeding resumes
  // with the payload, which it skips.
  size_t Feed(const uint8_t* bytes, size_t n, uint64_t at);
  bool found_long() const { return found_; }
  uint64_t long_start() const { return long_start_; }
  uint64_t long_size() const { return long_size_; }
  // False once the bytes did not fit the schema: nothing more is found.
  bool following() const { return state_ != State::kLost; }

 private:
  enum class State { kKey, kVarint, kLength, kSkip, kLost };
  struct Frame {
    const MessageSchema* type;
    uint64_t end;
  };
  void OnTag(uint64_t tag);
  void OnLength(uint64_t at, uint64_t length);

  std::vector<Frame> frames_;
  uint64_t input_size_;
  uint64_t whole_above_;
  State state_ = State::kKey;
  VarintBuilder varint_;
  int field_number_ = 0;
  uint64_t skip_ = 0;
  bool found_ = false;
  uint64_t long_start_ = 0;
  uint64_t long_size_ = 0;
};

class WholeStringStream : public google::protobuf::io::ZeroCopyInputStream {
 public:
  // `input_size` is the source's size (0: unknown, and then no field gets a chunk of its own);
  // `budget` may be null. Plain chunks are `chunk` bytes.
  WholeStringStream(ByteSource* source, const MessageSchema& type, uint64_t input_size,
                    const MemoryBudget* budget, size_t chunk,
                    uint64_t whole_above = kWholeStringBytes);
  bool Next(const void** data, int* size) override;
  void BackUp(int count) override;
  bool Skip(int count) override;
  int64_t ByteCount() const override { return static_cast<int64_t>(start_ + out_); }

  // First failure of the source, kept because protobuf only sees the end of the stream.
  const std::string& error() const { return error_; }
  bool over_budget() const { return over_budget_; }
  // Chunks that held one long field each: for tests.
  int whole_chunks() const { return whole_chunks_; }

 private:
  bool Refill();
  bool FollowLong();
  bool ReadInto(uint8_t* dst, size_t want, size_t* got, bool fill);

  ByteSource* source_;
  const MemoryBudget* budget_;
  size_t chunk_;
  WireFollower follower_;
  bool follow_;
  // The bytes read and not yet handed over for good: buffer_[0, filled_) is the input from
  // offset start_; [0, out_) went to the parser; [out_, limit_) is the current chunk's rest
  // (after a BackUp); [limit_, filled_) waits for the next chunk (the head of a long field).
  std::vector<uint8_t> buffer_;
  uint64_t start_ = 0;
  size_t filled_ = 0;
  size_t out_ = 0;
  size_t limit_ = 0;
  size_t last_ = 0;
  // Input offset up to which the follower has seen the bytes.
  uint64_t followed_ = 0;
  // The end (input offset) of a long field whose head is waiting, else 0.
  uint64_t long_end_ = 0;
  uint64_t consumed_ = 0;
  std::string error_;
  bool over_budget_ = false;
  int whole_chunks_ = 0;
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WHOLE_STRING_STREAM_H_
