#include "tfjs/shard_reader.h"

#include <algorithm>

#include "core/error.h"
#include "core/limits.h"
#include "core/resize_for_overwrite.h"

namespace graphport::tfjs {

ShardReader::ShardReader(InputSet* inputs, const WeightGroup& group, std::string model_json)
    : inputs_(inputs), group_(group), model_json_(std::move(model_json)) {
  for (const ShardRef& shard : group.shards) {
    uint64_t size = 0;
    shard_bytes_.push_back(inputs->Size(shard.input, &size) ? static_cast<int64_t>(size) : -1);
  }
}

bool ShardReader::OpenNext() {
  if (current_ != nullptr) shard_bytes_[next_ - 1] = static_cast<int64_t>(current_read_);
  current_ = nullptr;
  if (next_ >= group_.shards.size()) return false;
  current_ = inputs_->Open(group_.shards[next_].input);
  current_read_ = 0;
  ++next_;
  return true;
}

uint64_t ShardReader::KnownBytesLeft() const {
  uint64_t left = 0;
  // The open shard is next_ - 1 (read up to current_read_); with none open, next_ is next.
  for (size_t i = current_ != nullptr ? next_ - 1 : next_; i < shard_bytes_.size(); ++i) {
    if (shard_bytes_[i] < 0) return left;
    left += static_cast<uint64_t>(shard_bytes_[i]);
  }
  if (current_ != nullptr) left -= std::min<uint64_t>(left, current_read_);
  return left;
}

void ShardReader::Read(uint64_t size, const WeightSpec& weight, std::string* out) {
  uint64_t wanted = size;
  // Sized once for what the shards hold: a string grown chunk by chunk doubles its capacity
  // (in WebAssembly, heap that is never given back); the shards' own sizes bound it.
  const uint64_t known = std::min(size, KnownBytesLeft());
  if (out->size() + known > out->capacity()) out->reserve(out->size() + known);
  while (wanted > 0) {
    if (current_ == nullptr && !OpenNext()) {
      ErrorLocation location;
      location.node = weight.name;
      std::string last = "(the group lists no shard)";
      if (!group_.shards.empty()) {
        last = "'" + group_.shards.back().path + "' ends at byte " + std::to_string(current_read_);
        location.file = inputs_->DisplayName(group_.shards.back().input);
        location.offset = static_cast<int64_t>(current_read_);
      } else {
        location.file = model_json_;
      }
      throw Error(ErrorCode::kParseError,
                  model_json_ + ": the weight shards end before weight '" + weight.name + "' (" +
                      weight.where + ") is complete: shard " + last + " and " +
                      std::to_string(wanted) +
                      " more bytes were needed; the shards are shorter than the manifest says",
                  location);
    }
    size_t chunk = static_cast<size_t>(std::min<uint64_t>(wanted, kStreamChunkBytes));
    size_t before = out->size();
    ResizeForOverwrite(out, before + chunk);
    size_t got = current_->Read(reinterpret_cast<uint8_t*>(&(*out)[before]), chunk);
    out->resize(before + got);
    if (got == 0) {
      OpenNext();  // when it was the last shard, the next turn reports the shortfall
      continue;
    }
    current_read_ += got;
    offset_ += got;
    wanted -= got;
  }
}

uint64_t ShardReader::Drain() {
  uint64_t drained = 0;
  std::string sink(kStreamChunkBytes, '\0');
  for (;;) {
    size_t got = current_->Read(reinterpret_cast<uint8_t*>(sink.data()), sink.size());
    if (got == 0) break;
    current_read_ += got;
    drained += got;
  }
  return drained;
}

uint64_t ShardReader::Finish() {
  uint64_t extra = 0;
  if (current_ != nullptr) {
    int64_t known = shard_bytes_[next_ - 1];
    if (known >= 0) {
      if (static_cast<uint64_t>(known) > current_read_) extra += known - current_read_;
      current_ = nullptr;
    } else {
      extra += Drain();
      shard_bytes_[next_ - 1] = static_cast<int64_t>(current_read_);
      current_ = nullptr;
    }
  }
  for (; next_ < group_.shards.size(); ++next_) {
    if (shard_bytes_[next_] >= 0) {
      extra += static_cast<uint64_t>(shard_bytes_[next_]);
      continue;
    }
    current_ = inputs_->Open(group_.shards[next_].input);
    current_read_ = 0;
    extra += Drain();
    shard_bytes_[next_] = static_cast<int64_t>(current_read_);
    current_ = nullptr;
  }
  return extra;
}

}  // namespace graphport::tfjs
