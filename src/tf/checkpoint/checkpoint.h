// A TensorFlow checkpoint (TensorBundle): the index `<prefix>.index`, read whole when opened,
// and the data files `<prefix>.data-%05d-of-%05d`, read only when a value is asked for. The
// freeze reads variables' values through it; inspect() lists them from the index alone.
#ifndef GRAPHPORT_TF_CHECKPOINT_CHECKPOINT_H_
#define GRAPHPORT_TF_CHECKPOINT_CHECKPOINT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_stream.h"
#include "core/input_set.h"
#include "tensorflow/tensor.pb.h"
#include "tensorflow/trackable_object_graph.pb.h"
#include "tensorflow/types.pb.h"

namespace graphport::tf::checkpoint {

struct SliceExtent {
  int64_t start = 0;
  int64_t length = -1;  // -1: the whole dimension
};

struct VariableEntry {
  std::string key;  // checkpoint key, e.g. "a/.ATTRIBUTES/VARIABLE_VALUE"
  tensorflow::DataType dtype = tensorflow::DT_INVALID;
  std::vector<int64_t> shape;  // full shape
  // Where the bytes sit. For a partitioned variable these are not stored: shard_id, offset and
  // masked_crc32c are 0, and size is the whole tensor's bytes (fixed-width dtypes) or 0.
  int32_t shard_id = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t masked_crc32c = 0;
  std::vector<std::vector<SliceExtent>> slices;  // non-empty: a partitioned variable
};

// The name of the tensor that holds a TF2 checkpoint's TrackableObjectGraph.
inline constexpr char kObjectGraphKey[] = "_CHECKPOINTABLE_OBJECT_GRAPH";

class Checkpoint {
 public:
  // Reads `<prefix>.index` from `inputs` (prefix like "variables/variables" or
  // "some/folder/variables/variables"); data shards `<prefix>.data-%05d-of-%05d` are opened
  // only when a value is read. Throws Error (kNotFound: index or shard missing; kParseError:
  // malformed, with the file's display name and byte offset; kUnsupported: a big-endian or
  // newer checkpoint). `inputs` must outlive it. `max_memory_bytes` bounds what the index and
  // each value read may allocate (kTooLarge past it).
  static std::unique_ptr<Checkpoint> Open(InputSet* inputs, const std::string& prefix);
  static std::unique_ptr<Checkpoint> Open(InputSet* inputs, const std::string& prefix,
                                          uint64_t max_memory_bytes);
  ~Checkpoint();

  // Key order; the header and the slices of partitioned variables are left out.
  const std::vector<VariableEntry>& entries() const { return entries_; }
  const VariableEntry* Find(std::string_view key) const;  // null when absent
  int32_t num_shards() const { return num_shards_; }
  // How errors name the index file.
  const std::string& index_display_name() const { return index_display_; }

  // A fixed-width tensor's bytes as TensorFlow's TensorProto.tensor_content holds them
  // (little-endian, row-major), crc32c verified (mismatch: kParseError naming the key, shard
  // file and offset), a partitioned variable reassembled from its slices.
  std::string ReadContent(const VariableEntry& entry);
  // A DT_STRING tensor's elements, crc verified.
  std::vector<std::string> ReadStrings(const VariableEntry& entry);
  // Fills dtype, tensor_shape and tensor_content (string_val for DT_STRING).
  void ReadTensor(const VariableEntry& entry, tensorflow::TensorProto* out);
  // Streams the same bytes as ReadContent to `sink` in chunks without holding them whole
  // (unpartitioned fixed-width entries; the crc is checked as the bytes pass and a mismatch
  // throws after the last chunk, before the caller closes the output). A partitioned
  // variable is reassembled first, then written in chunks.
  void StreamContent(const VariableEntry& entry, ByteSink* sink);
  // The TrackableObjectGraph under "_CHECKPOINTABLE_OBJECT_GRAPH" (TF2), or false when absent.
  bool ReadObjectGraph(tensorflow::TrackableObjectGraph* out);

 private:
  class Impl;
  explicit Checkpoint(uint64_t max_memory_bytes);
  std::string ReadStoredBytes(const VariableEntry& entry);
  void CheckReadable(const VariableEntry& entry, bool strings) const;

  std::unique_ptr<Impl> impl_;
  std::vector<VariableEntry> entries_;
  int32_t num_shards_ = 0;
  std::string index_display_;
  uint64_t max_memory_bytes_ = 0;
};

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_CHECKPOINT_H_
