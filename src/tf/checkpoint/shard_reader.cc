#include "tf/checkpoint/shard_reader.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"
#include "core/limits.h"

namespace graphport::tf::checkpoint {

std::string ShardFileName(const std::string& prefix, int32_t shard, int32_t num_shards) {
  char suffix[40];
  std::snprintf(suffix, sizeof(suffix), ".data-%05d-of-%05d", shard, num_shards);
  return prefix + suffix;
}

ShardReader::ShardReader(InputSet* inputs, std::string prefix, int32_t num_shards)
    : inputs_(inputs),
      prefix_(std::move(prefix)),
      num_shards_(num_shards),
      shards_(static_cast<size_t>(num_shards)) {}

std::string ShardReader::DisplayName(int32_t shard) const {
  return inputs_->DisplayName(ShardFileName(prefix_, shard, num_shards_));
}

void ShardReader::OpenShard(int32_t shard, const std::string& key) {
  std::string name = ShardFileName(prefix_, shard, num_shards_);
  if (!inputs_->Has(name)) {
    throw Error(ErrorCode::kNotFound,
                inputs_->DisplayName(name) + ": the checkpoint's data file " +
                    std::to_string(shard) + " of " + std::to_string(num_shards_) +
                    " is missing (it holds \"" + key + "\")",
                ErrorLocation::InFile(inputs_->DisplayName(name)));
  }
  Shard& s = shards_[shard];
  s.source = inputs_->Open(name);
  s.position = 0;
  s.contiguous = s.source->Contiguous(&s.bytes);
}

void ShardReader::ReadRange(int32_t shard, uint64_t offset, uint64_t size, const std::string& key,
                            const std::function<void(std::string_view piece)>& take) {
  if (shard < 0 || shard >= num_shards_) {
    throw Error(ErrorCode::kParseError, "\"" + key + "\" is in data file " + std::to_string(shard) +
                                            " of " + std::to_string(num_shards_));
  }
  auto past_end = [&](uint64_t file_size) {
    std::string file = DisplayName(shard);
    return Error(ErrorCode::kParseError,
                 file + ": \"" + key + "\" (" + std::to_string(size) + " bytes at byte " +
                     std::to_string(offset) + ") runs past the end of the file (" +
                     std::to_string(file_size) + " bytes)",
                 ErrorLocation::InFile(file, static_cast<int64_t>(offset)));
  };
  Shard& s = shards_[shard];
  if (s.source == nullptr || (!s.contiguous && s.position > offset)) OpenShard(shard, key);
  if (s.contiguous) {
    if (offset > s.bytes.size() || size > s.bytes.size() - offset) throw past_end(s.bytes.size());
    if (size > 0) take(s.bytes.substr(offset, size));
    return;
  }
  uint64_t known = 0;
  if (inputs_->Size(ShardFileName(prefix_, shard, num_shards_), &known) &&
      (offset > known || size > known - offset)) {
    throw past_end(known);
  }
  buffer_.resize(kStreamChunkBytes);
  // Skip to the range, then hand it on chunk by chunk.
  while (s.position < offset) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(buffer_.size(), offset - s.position));
    size_t got = s.source->Read(buffer_.data(), want);
    if (got == 0) throw past_end(s.position);
    s.position += got;
  }
  uint64_t left = size;
  while (left > 0) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(buffer_.size(), left));
    size_t got = s.source->Read(buffer_.data(), want);
    if (got == 0) throw past_end(s.position);
    s.position += got;
    left -= got;
    take(std::string_view(reinterpret_cast<const char*>(buffer_.data()), got));
  }
}

bool ShardReader::ReadRangeInto(int32_t shard, uint64_t offset, uint64_t size,
                                const std::string& key, const std::function<char*()>& allocate,
                                const std::function<void(std::string_view piece)>& written) {
  if (shard < 0 || shard >= num_shards_) return false;  // ReadRange says why
  Shard& s = shards_[shard];
  if (s.source == nullptr || (!s.contiguous && s.position > offset)) OpenShard(shard, key);
  uint64_t known = 0;
  if (s.contiguous || !inputs_->Size(ShardFileName(prefix_, shard, num_shards_), &known) ||
      offset > known || size > known - offset) {
    return false;
  }
  buffer_.resize(kStreamChunkBytes);
  while (s.position < offset) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(buffer_.size(), offset - s.position));
    size_t got = s.source->Read(buffer_.data(), want);
    if (got == 0) return false;  // shorter than its size said: ReadRange says so
    s.position += got;
  }
  if (size == 0) return true;
  char* dst = allocate();
  for (uint64_t done = 0; done < size;) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(kStreamChunkBytes, size - done));
    size_t got = s.source->Read(reinterpret_cast<uint8_t*>(dst + done), want);
    if (got == 0) {
      std::string file = DisplayName(shard);
      throw Error(ErrorCode::kParseError,
                  file + ": \"" + key + "\" (" + std::to_string(size) + " bytes at byte " +
                      std::to_string(offset) + ") runs past the end of the file (" +
                      std::to_string(s.position) + " bytes)",
                  ErrorLocation::InFile(file, static_cast<int64_t>(offset)));
    }
    s.position += got;
    written(std::string_view(dst + done, got));
    done += got;
  }
  return true;
}

}  // namespace graphport::tf::checkpoint
