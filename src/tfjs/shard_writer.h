// A weight group's bytes cut into shard files of a fixed size, as tfjs-converter cuts them:
// group1-shard1of3.bin, ... (the last one holds the rest). Each file goes to the OutputSet as
// soon as it is full, so no more than the bytes in flight are held.
#ifndef GRAPHPORT_TFJS_SHARD_WRITER_H_
#define GRAPHPORT_TFJS_SHARD_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/output_set.h"

namespace graphport::tfjs {

// "group<group>-shard<index>of<count>.bin", both 1-based.
std::string ShardName(int group, uint64_t index, uint64_t count);

class ShardWriter {
 public:
  // `total` bytes will be written in all; `shard_size` > 0.
  ShardWriter(OutputSet* out, int group, uint64_t total, uint64_t shard_size);
  void Write(std::string_view bytes);
  // Closes the last shard. Throws kInternal when fewer or more than `total` bytes came.
  void Finish();
  const std::vector<std::string>& names() const { return names_; }

 private:
  OutputSet* out_;
  int group_;
  uint64_t total_, shard_size_, count_;
  uint64_t written_ = 0;      // in all
  uint64_t in_shard_ = 0;     // in the open shard
  ByteSink* sink_ = nullptr;  // the open shard
  std::vector<std::string> names_;
};

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_SHARD_WRITER_H_
