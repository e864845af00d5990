// A TensorBundle (TensorFlow checkpoint) writer for the benchmark generators: the data file is
// streamed tensor by tensor (a 200 MB checkpoint is never held whole), the index is written
// at the end as TensorFlow writes it: a table of uncompressed 256 KiB blocks, restart points
// every 16 entries, the header under the empty key, crc32c masked everywhere
// (../shared/research/savedmodel_freeze.md §1). One data file; alignment 1.
#ifndef GRAPHPORT_BENCH_TENSOR_BUNDLE_WRITER_H_
#define GRAPHPORT_BENCH_TENSOR_BUNDLE_WRITER_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tensorflow/tensor_bundle.pb.h"
#include "tf/checkpoint/crc32c.h"

namespace graphport::bench {

class TensorBundleWriter {
 public:
  // Writes `<prefix>.data-00000-of-00001` now and `<prefix>.index` in Finish().
  explicit TensorBundleWriter(std::string prefix) : prefix_(std::move(prefix)) {
    data_ = std::fopen((prefix_ + ".data-00000-of-00001").c_str(), "wb");
    ok_ = data_ != nullptr;
  }
  ~TensorBundleWriter() {
    if (data_ != nullptr) std::fclose(data_);
  }

  // A fixed-width tensor whose bytes `fill` appends to its argument in pieces (each call adds
  // some bytes; returns false when the tensor is complete).
  template <typename Fill>
  void AddTensor(const std::string& key, tensorflow::DataType dtype,
                 const std::vector<int64_t>& shape, Fill fill) {
    tensorflow::BundleEntryProto& entry = Begin(key, dtype, shape);
    uint32_t crc = 0;
    uint64_t size = 0;
    std::string piece;
    for (bool more = true; more;) {
      piece.clear();
      more = fill(&piece);
      crc = tf::checkpoint::Crc32cExtend(crc, piece);
      size += piece.size();
      Put(piece);
    }
    entry.set_size(static_cast<int64_t>(size));
    entry.set_crc32c(tf::checkpoint::MaskCrc(crc));
  }

  // A scalar DT_STRING tensor (the object graph): varint length, the masked crc of the length
  // as 4 LE bytes, the bytes; the entry's crc runs on over the stored 4 bytes and the bytes.
  void AddScalarString(const std::string& key, std::string_view value) {
    tensorflow::BundleEntryProto& entry = Begin(key, tensorflow::DT_STRING, {});
    std::string stored;
    PutVarint(value.size(), &stored);
    std::string length;
    PutLe32(static_cast<uint32_t>(value.size()), &length);
    uint32_t crc = tf::checkpoint::Crc32c(length);
    std::string masked;
    PutLe32(tf::checkpoint::MaskCrc(crc), &masked);
    stored += masked;
    crc = tf::checkpoint::Crc32cExtend(crc, masked);
    crc = tf::checkpoint::Crc32cExtend(crc, value);
    Put(stored);
    Put(value);
    entry.set_size(static_cast<int64_t>(stored.size() + value.size()));
    entry.set_crc32c(tf::checkpoint::MaskCrc(crc));
  }

  uint64_t data_bytes() const { return offset_; }

  // Closes the data file and writes the index; false on any write error.
  bool Finish() {
    ok_ = std::fclose(data_) == 0 && ok_;
    data_ = nullptr;
    tensorflow::BundleHeaderProto header;
    header.set_num_shards(1);
    header.mutable_version()->set_producer(1);
    std::vector<std::pair<std::string, std::string>> table;
    table.emplace_back("", header.SerializeAsString());
    for (const auto& [key, entry] : entries_) table.emplace_back(key, entry.SerializeAsString());
    std::string index = Table(table);
    std::FILE* f = std::fopen((prefix_ + ".index").c_str(), "wb");
    if (f == nullptr) return false;
    bool wrote = std::fwrite(index.data(), 1, index.size(), f) == index.size();
    return std::fclose(f) == 0 && wrote && ok_;
  }

 private:
  static constexpr size_t kBlockBytes = 256 << 10;
  static constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;

  static void PutLe32(uint32_t v, std::string* out) {
    for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
  }
  static void PutVarint(uint64_t v, std::string* out) {
    do {
      uint8_t byte = v & 0x7F;
      v >>= 7;
      out->push_back(static_cast<char>(byte | (v ? 0x80 : 0)));
    } while (v);
  }

  tensorflow::BundleEntryProto& Begin(const std::string& key, tensorflow::DataType dtype,
                                      const std::vector<int64_t>& shape) {
    tensorflow::BundleEntryProto& entry = entries_[key];
    entry.set_dtype(dtype);
    entry.mutable_shape();
    for (int64_t d : shape) entry.mutable_shape()->add_dim()->set_size(d);
    entry.set_offset(static_cast<int64_t>(offset_));
    return entry;
  }

  void Put(std::string_view bytes) {
    if (data_ == nullptr) return;
    ok_ = std::fwrite(bytes.data(), 1, bytes.size(), data_) == bytes.size() && ok_;
    offset_ += bytes.size();
  }

  // One block: keys share their prefix with the previous one between restart points.
  static std::string Block(const std::vector<std::pair<std::string, std::string>>& entries,
                           size_t interval) {
    std::string out;
    std::vector<uint32_t> restarts;
    std::string_view previous;
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

  // Appends a block with its trailer (type 0, masked crc of block + type); returns its handle.
  static std::string Append(const std::string& block, std::string* file) {
    std::string handle;
    PutVarint(file->size(), &handle);
    PutVarint(block.size(), &handle);
    *file += block;
    file->push_back('\0');
    uint32_t crc = tf::checkpoint::Crc32c(
        std::string_view(file->data() + file->size() - 1 - block.size(), block.size() + 1));
    PutLe32(tf::checkpoint::MaskCrc(crc), file);
    return handle;
  }

  static std::string Table(const std::vector<std::pair<std::string, std::string>>& entries) {
    std::string file;
    std::vector<std::pair<std::string, std::string>> index;
    std::vector<std::pair<std::string, std::string>> block;
    size_t block_bytes = 0;
    auto flush = [&] {
      if (block.empty()) return;
      // The block's last key is a valid separator (>= its keys, < the next block's).
      index.emplace_back(block.back().first, Append(Block(block, 16), &file));
      block.clear();
      block_bytes = 0;
    };
    for (const auto& entry : entries) {
      block.push_back(entry);
      block_bytes += entry.first.size() + entry.second.size() + 8;
      if (block_bytes >= kBlockBytes) flush();
    }
    flush();
    std::string metaindex = Append(Block({}, 16), &file);
    std::string index_handle = Append(Block(index, 1), &file);
    std::string footer = metaindex + index_handle;
    footer.resize(40, '\0');
    PutLe32(static_cast<uint32_t>(kTableMagic), &footer);
    PutLe32(static_cast<uint32_t>(kTableMagic >> 32), &footer);
    return file + footer;
  }

  std::string prefix_;
  std::FILE* data_ = nullptr;
  bool ok_ = false;
  uint64_t offset_ = 0;
  std::map<std::string, tensorflow::BundleEntryProto> entries_;  // sorted: the index's order
};

}  // namespace graphport::bench

#endif  // GRAPHPORT_BENCH_TENSOR_BUNDLE_WRITER_H_
