#include "tfjs/shard_writer.h"

#include <algorithm>

#include "core/error.h"

namespace graphport::tfjs {

std::string ShardName(int group, uint64_t index, uint64_t count) {
  return "group" + std::to_string(group) + "-shard" + std::to_string(index) + "of" +
         std::to_string(count) + ".bin";
}

ShardWriter::ShardWriter(OutputSet* out, int group, uint64_t total, uint64_t shard_size)
    : out_(out),
      group_(group),
      total_(total),
      shard_size_(shard_size),
      count_(total == 0 ? 0 : (total - 1) / shard_size + 1) {
  for (uint64_t i = 1; i <= count_; ++i) names_.push_back(ShardName(group_, i, count_));
}

void ShardWriter::Write(std::string_view bytes) {
  while (!bytes.empty()) {
    if (written_ >= total_) {
      throw Error(ErrorCode::kInternal, "TF.js writer: more weight bytes than were counted");
    }
    if (sink_ == nullptr) {
      uint64_t index = written_ / shard_size_;
      sink_ = out_->Open(names_[index]);
      sink_->SizeHint(std::min(shard_size_, total_ - index * shard_size_));
      in_shard_ = 0;
    }
    size_t step = static_cast<size_t>(std::min<uint64_t>(bytes.size(), shard_size_ - in_shard_));
    sink_->Write(reinterpret_cast<const uint8_t*>(bytes.data()), step);
    bytes.remove_prefix(step);
    in_shard_ += step;
    written_ += step;
    if (in_shard_ == shard_size_ || written_ == total_) {
      out_->Close();
      sink_ = nullptr;
    }
  }
}

void ShardWriter::Finish() {
  if (written_ != total_ || sink_ != nullptr) {
    throw Error(ErrorCode::kInternal, "TF.js writer: " + std::to_string(written_) + " of " +
                                          std::to_string(total_) + " weight bytes written");
  }
}

}  // namespace graphport::tfjs
