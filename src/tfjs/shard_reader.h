// The bytes of one weight group: its shards read one after the other as one stream, each
// shard opened only when the stream reaches it. Weights may straddle shards.
#ifndef GRAPHPORT_TFJS_SHARD_READER_H_
#define GRAPHPORT_TFJS_SHARD_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/input_set.h"
#include "tfjs/manifest.h"

namespace graphport::tfjs {

class ShardReader {
 public:
  ShardReader(InputSet* inputs, const WeightGroup& group, std::string model_json);

  // Appends exactly `size` bytes of `weight` to *out. Memory grows only with the bytes that
  // really arrive, so a manifest that declares a huge weight cannot make us allocate it.
  // Throws kParseError naming the weight and the shard when the shards end first.
  void Read(uint64_t size, const WeightSpec& weight, std::string* out);

  // Reads to the end of the group's shards and returns how many bytes were left over.
  // Shards whose size the storage knows are not read.
  uint64_t Finish();

  // Bytes of each shard: known after the stream passed it, or from the storage up front;
  // -1 when neither.
  const std::vector<int64_t>& shard_bytes() const { return shard_bytes_; }
  uint64_t offset() const { return offset_; }

 private:
  bool OpenNext();
  uint64_t Drain();  // reads the open shard to its end
  // Bytes still to come from the shards whose size the storage told, up to the first unknown.
  uint64_t KnownBytesLeft() const;
  InputSet* inputs_;
  const WeightGroup& group_;
  std::string model_json_;
  size_t next_ = 0;                   // index of the next shard to open
  ByteSource* current_ = nullptr;     // the open shard, or null
  uint64_t current_read_ = 0;         // bytes read from it
  uint64_t offset_ = 0;               // bytes read from the whole group
  std::vector<int64_t> shard_bytes_;  // per shard
};

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_SHARD_READER_H_
