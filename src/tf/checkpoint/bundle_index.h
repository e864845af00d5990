// The entries of a checkpoint index: the header's checks (version, byte order, shard count),
// each entry's dtype, shape and byte range against each other, and the slices of partitioned
// variables against the slice entries that hold them.
#ifndef GRAPHPORT_TF_CHECKPOINT_BUNDLE_INDEX_H_
#define GRAPHPORT_TF_CHECKPOINT_BUNDLE_INDEX_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tf/checkpoint/checkpoint.h"

namespace graphport::tf::checkpoint {

// The version of the format this reader is (TensorFlow's kTensorBundleVersion).
inline constexpr int32_t kBundleVersion = 1;
// More data files than TensorFlow's "%05d" names can count is a damaged header.
inline constexpr int32_t kMaxShards = 99999;
// Slices of one partitioned variable: TensorFlow partitions a variable over devices or a few
// hundred shards at most. The cover check compares slices pairwise, so a hostile index with
// tens of thousands would cost seconds; past this a variable is refused as unsupported.
inline constexpr int kMaxSlicesPerVariable = 4096;

struct BundleIndex {
  int32_t num_shards = 0;
  std::vector<VariableEntry> entries;           // key order, ordinary keys only
  std::map<std::string, VariableEntry> slices;  // by slice key (slice_key.h)
};

// Reads the index file's bytes; `display` names it in errors. Throws what ReadTable throws,
// and kParseError (naming the key and the block's byte offset) for a missing or malformed
// header or entry, kUnsupported for a big-endian checkpoint or one a version-1 reader may not
// read.
BundleIndex ReadBundleIndex(std::string_view file, const std::string& display, uint64_t max_bytes);

// Bytes per element of a dtype whose values are stored as they sit in memory; 0 for strings,
// variants and the others that are not.
uint64_t FixedWidthBytes(tensorflow::DataType dtype);

// The element count of `shape`, or -1 when it overflows int64.
int64_t ShapeElements(const std::vector<int64_t>& shape);

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_BUNDLE_INDEX_H_
