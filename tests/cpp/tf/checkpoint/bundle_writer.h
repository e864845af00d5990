// A small TensorBundle writer of the tests' own: checkpoints with what no corpus file has
// (strings, partitioned variables, several data files, snappy blocks of several entries), built
// from TensorFlow's published layout and read back by graphport's reader. Test code only.
#ifndef GRAPHPORT_TESTS_CPP_TF_CHECKPOINT_BUNDLE_WRITER_H_
#define GRAPHPORT_TESTS_CPP_TF_CHECKPOINT_BUNDLE_WRITER_H_

#include <snappy.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/tensor_bundle.pb.h"
#include "tf/checkpoint/checkpoint.h"
#include "tf/checkpoint/crc32c.h"
#include "tf/checkpoint/slice_key.h"
#include "tf/checkpoint/table.h"

namespace graphport::testing {

namespace ckpt = graphport::tf::checkpoint;

inline void PutLe32(uint32_t v, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

inline void PutVarint(uint64_t v, std::string* out) {
  do {
    uint8_t byte = v & 0x7F;
    v >>= 7;
    out->push_back(static_cast<char>(byte | (v ? 0x80 : 0)));
  } while (v);
}

// One table block: entries with shared prefixes, a restart every `interval` entries.
inline std::string MakeBlock(const std::vector<std::pair<std::string, std::string>>& entries,
                             size_t interval) {
  std::string out;
  std::vector<uint32_t> restarts;
  std::string previous;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& [key, value] = entries[i];
    size_t shared = 0;
    if (i % interval == 0) {
      restarts.push_back(static_cast<uint32_t>(out.size()));
    } else {
      while (shared < previous.size() && shared < key.size() && previous[shared] == key[shared]) {
        ++shared;
      }
    }
    PutVarint(shared, &out);
    PutVarint(key.size() - shared, &out);
    PutVarint(value.size(), &out);
    out.append(key, shared);
    out += value;
    previous = key;
  }
  if (restarts.empty()) restarts.push_back(0);
  for (uint32_t r : restarts) PutLe32(r, &out);
  PutLe32(static_cast<uint32_t>(restarts.size()), &out);
  return out;
}

// Appends a block and its trailer; returns its handle's bytes.
inline std::string AppendBlock(const std::string& block, bool snappy, std::string* file) {
  std::string stored = block;
  char type = 0;
  if (snappy) {
    snappy::Compress(block.data(), block.size(), &stored);
    type = 1;
  }
  std::string handle;
  PutVarint(file->size(), &handle);
  PutVarint(stored.size(), &handle);
  *file += stored;
  file->push_back(type);
  uint32_t crc = ckpt::Crc32cExtend(ckpt::Crc32c(stored), std::string_view(&type, 1));
  PutLe32(ckpt::MaskCrc(crc), file);
  return handle;
}

// A whole table of `entries` (sorted by key), `per_block` entries to a data block.
inline std::string MakeTable(const std::vector<std::pair<std::string, std::string>>& entries,
                             bool snappy, size_t per_block) {
  std::string file;
  std::vector<std::pair<std::string, std::string>> index;
  for (size_t at = 0; at < entries.size(); at += per_block) {
    std::vector<std::pair<std::string, std::string>> part(
        entries.begin() + at, entries.begin() + std::min(entries.size(), at + per_block));
    // The separator: the block's last key itself is a valid one.
    index.emplace_back(part.back().first, AppendBlock(MakeBlock(part, 16), snappy, &file));
  }
  std::string metaindex = AppendBlock(MakeBlock({}, 16), false, &file);
  std::string index_handle = AppendBlock(MakeBlock(index, 1), false, &file);
  std::string footer = metaindex + index_handle;
  footer.resize(40, '\0');
  PutLe32(static_cast<uint32_t>(ckpt::kTableMagic), &footer);
  PutLe32(static_cast<uint32_t>(ckpt::kTableMagic >> 32), &footer);
  return file + footer;
}

// The stored form of a string tensor and its masked crc, as TensorFlow writes it.
inline std::string EncodeStrings(const std::vector<std::string>& elements, uint32_t* masked) {
  std::string out;
  uint32_t crc = 0;
  auto extend_length = [&](uint64_t n) {
    std::string bytes;
    PutLe32(static_cast<uint32_t>(n), &bytes);
    if (n > UINT32_MAX) PutLe32(static_cast<uint32_t>(n >> 32), &bytes);
    crc = ckpt::Crc32cExtend(crc, bytes);
  };
  for (const auto& e : elements) {
    PutVarint(e.size(), &out);
    extend_length(e.size());
  }
  std::string stored;
  PutLe32(ckpt::MaskCrc(crc), &stored);
  out += stored;
  crc = ckpt::Crc32cExtend(crc, stored);
  for (const auto& e : elements) {
    out += e;
    crc = ckpt::Crc32cExtend(crc, e);
  }
  *masked = ckpt::MaskCrc(crc);
  return out;
}

class BundleWriter {
 public:
  explicit BundleWriter(int32_t num_shards = 1) : data_(num_shards) {}

  void AddTensor(const std::string& key, tensorflow::DataType dtype,
                 const std::vector<int64_t>& shape, const std::string& bytes, int32_t shard = 0) {
    entries_[key] = Stored(dtype, shape, bytes, ckpt::MaskCrc(ckpt::Crc32c(bytes)), shard);
  }
  void AddStrings(const std::string& key, const std::vector<int64_t>& shape,
                  const std::vector<std::string>& elements, int32_t shard = 0) {
    uint32_t crc = 0;
    std::string bytes = EncodeStrings(elements, &crc);
    entries_[key] = Stored(tensorflow::DT_STRING, shape, bytes, crc, shard);
  }
  // One slice of a partitioned tensor: its bytes under the slice key, and the extents listed
  // on the full name's entry.
  void AddSlice(const std::string& name, tensorflow::DataType dtype,
                const std::vector<int64_t>& full_shape,
                const std::vector<ckpt::SliceExtent>& extents,
                const std::vector<int64_t>& slice_shape, const std::string& bytes,
                int32_t shard = 0) {
    AddSliceStored(name, dtype, full_shape, extents, slice_shape, bytes,
                   ckpt::MaskCrc(ckpt::Crc32c(bytes)), shard);
  }
  void AddStringSlice(const std::string& name, const std::vector<int64_t>& full_shape,
                      const std::vector<ckpt::SliceExtent>& extents,
                      const std::vector<int64_t>& slice_shape,
                      const std::vector<std::string>& elements, int32_t shard = 0) {
    uint32_t crc = 0;
    std::string bytes = EncodeStrings(elements, &crc);
    AddSliceStored(name, tensorflow::DT_STRING, full_shape, extents, slice_shape, bytes, crc,
                   shard);
  }

 private:
  void AddSliceStored(const std::string& name, tensorflow::DataType dtype,
                      const std::vector<int64_t>& full_shape,
                      const std::vector<ckpt::SliceExtent>& extents,
                      const std::vector<int64_t>& slice_shape, const std::string& bytes,
                      uint32_t crc, int32_t shard) {
    entries_[ckpt::EncodeSliceKey(name, extents)] = Stored(dtype, slice_shape, bytes, crc, shard);
    tensorflow::BundleEntryProto& full = entries_[name];
    full.set_dtype(dtype);
    full.clear_shape();
    for (int64_t d : full_shape) full.mutable_shape()->add_dim()->set_size(d);
    auto* slice = full.add_slices();
    for (const auto& e : extents) {
      auto* extent = slice->add_extent();
      if (e.length >= 0) {
        extent->set_start(e.start);
        extent->set_length(e.length);
      }
    }
  }

 public:
  // The files of the bundle under `prefix`: the index and each data file.
  std::map<std::string, std::string> Files(const std::string& prefix, bool snappy = false,
                                           size_t per_block = 1000) const {
    tensorflow::BundleHeaderProto header;
    header.set_num_shards(static_cast<int32_t>(data_.size()));
    header.mutable_version()->set_producer(1);
    std::vector<std::pair<std::string, std::string>> table;
    table.emplace_back("", header.SerializeAsString());
    for (const auto& [key, entry] : entries_) table.emplace_back(key, entry.SerializeAsString());
    std::map<std::string, std::string> files;
    files[prefix + ".index"] = MakeTable(table, snappy, per_block);
    for (size_t i = 0; i < data_.size(); ++i) {
      char suffix[40];
      std::snprintf(suffix, sizeof(suffix), ".data-%05zu-of-%05zu", i, data_.size());
      files[prefix + suffix] = data_[i];
    }
    return files;
  }

 private:
  tensorflow::BundleEntryProto Stored(tensorflow::DataType dtype, const std::vector<int64_t>& shape,
                                      const std::string& bytes, uint32_t crc, int32_t shard) {
    tensorflow::BundleEntryProto entry;
    entry.set_dtype(dtype);
    for (int64_t d : shape) entry.mutable_shape()->add_dim()->set_size(d);
    entry.set_shard_id(shard);
    entry.set_offset(static_cast<int64_t>(data_[shard].size()));
    entry.set_size(static_cast<int64_t>(bytes.size()));
    entry.set_crc32c(crc);
    data_[shard] += bytes;
    return entry;
  }

  std::map<std::string, tensorflow::BundleEntryProto> entries_;
  std::vector<std::string> data_;
};

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_TF_CHECKPOINT_BUNDLE_WRITER_H_
