// Byte ranges of a checkpoint's data files (`<prefix>.data-00000-of-00002`, ...), each file
// opened only when a range of it is first read. A file held in memory is read in place; a
// streamed one is read forward, and opened again when a range lies behind what was read.
#ifndef GRAPHPORT_TF_CHECKPOINT_SHARD_READER_H_
#define GRAPHPORT_TF_CHECKPOINT_SHARD_READER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/input_set.h"

namespace graphport::tf::checkpoint {

// "<prefix>.data-00001-of-00004".
std::string ShardFileName(const std::string& prefix, int32_t shard, int32_t num_shards);

class ShardReader {
 public:
  ShardReader(InputSet* inputs, std::string prefix, int32_t num_shards);

  // Calls `take` with consecutive pieces of bytes [offset, offset + size) of shard `shard`,
  // which together are the whole range (none when size is 0). `key` names the tensor in
  // errors: kNotFound when the file is missing, kParseError naming the key, the file and the
  // offset when the range runs past its end.
  void ReadRange(int32_t shard, uint64_t offset, uint64_t size, const std::string& key,
                 const std::function<void(std::string_view piece)>& take);

  // The same range read by the source straight into memory that `allocate` returns (called
  // once the range is known to lie inside the file, not for size 0), `written` called with
  // each piece as it lands there. For a streamed file of known size, where ReadRange would
  // copy every byte once more from its chunk buffer; false (nothing read) for a file held in
  // memory or of unknown size, which ReadRange serves.
  bool ReadRangeInto(int32_t shard, uint64_t offset, uint64_t size, const std::string& key,
                     const std::function<char*()>& allocate,
                     const std::function<void(std::string_view piece)>& written);

  // How errors name a shard file.
  std::string DisplayName(int32_t shard) const;

 private:
  struct Shard {
    ByteSource* source = nullptr;
    bool contiguous = false;
    std::string_view bytes;  // the whole file, when contiguous
    uint64_t position = 0;   // bytes read from `source` so far, when not
  };
  void OpenShard(int32_t shard, const std::string& key);

  InputSet* inputs_;
  std::string prefix_;
  int32_t num_shards_;
  std::vector<Shard> shards_;
  std::vector<uint8_t> buffer_;
};

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_SHARD_READER_H_
