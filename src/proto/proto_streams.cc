#include "proto/proto_streams.h"

#include <algorithm>
#include <cstring>

namespace graphport::proto {

int SourceCopyingStream::Read(void* buffer, int size) {
  if (budget_ != nullptr && budget_->Exceeded(consumed_)) {
    over_budget_ = true;
    return -1;
  }
  try {
    size_t n = source_->Read(static_cast<uint8_t*>(buffer), static_cast<size_t>(size));
    consumed_ += n;
    return static_cast<int>(n);
  } catch (const std::exception& e) {
    error_ = e.what();
    return -1;
  }
}

bool BudgetedArrayStream::Next(const void** data, int* size) {
  if (position_ >= bytes_.size()) return false;
  if (budget_ != nullptr && budget_->Exceeded(position_)) {
    over_budget_ = true;
    return false;
  }
  last_chunk_ = std::min(chunk_, bytes_.size() - position_);
  *data = bytes_.data() + position_;
  *size = static_cast<int>(last_chunk_);
  position_ += last_chunk_;
  return true;
}

void BudgetedArrayStream::BackUp(int count) {
  size_t n = std::min(static_cast<size_t>(count), last_chunk_);
  position_ -= n;
  last_chunk_ -= n;
}

bool BudgetedArrayStream::Skip(int count) {
  last_chunk_ = 0;
  size_t left = bytes_.size() - position_;
  if (static_cast<size_t>(count) > left) {
    position_ = bytes_.size();
    return false;
  }
  position_ += static_cast<size_t>(count);
  return true;
}

SinkOutputStream::SinkOutputStream(ByteSink* sink, size_t chunk_bytes)
    : sink_(sink), buffer_(new char[chunk_bytes]), capacity_(chunk_bytes) {}

bool SinkOutputStream::Next(void** data, int* size) {
  if (used_ == capacity_ && !Flush()) return false;
  if (failed_) return false;
  *data = &buffer_[used_];
  *size = static_cast<int>(capacity_ - used_);
  used_ = capacity_;
  return true;
}

void SinkOutputStream::BackUp(int count) { used_ -= std::min(static_cast<size_t>(count), used_); }

bool SinkOutputStream::WriteAliasedRaw(const void* data, int size) {
  if (failed_) return false;
  const auto* p = static_cast<const uint8_t*>(data);
  auto n = static_cast<size_t>(size);
  if (n < kMinAliasedBytes) {
    while (n > 0) {
      if (used_ == capacity_ && !Flush()) return false;
      const size_t take = std::min(n, capacity_ - used_);
      std::memcpy(&buffer_[used_], p, take);
      used_ += take;
      p += take;
      n -= take;
    }
    return true;
  }
  if (!Flush()) return false;
  for (; n > 0;) {
    const size_t piece = std::min(n, capacity_);
    if (!Hand(p, piece)) return false;
    p += piece;
    n -= piece;
  }
  return true;
}

bool SinkOutputStream::Flush() {
  if (used_ == 0 || failed_) return !failed_;
  const size_t n = used_;
  used_ = 0;
  return Hand(buffer_.get(), n);
}

bool SinkOutputStream::Hand(const void* data, size_t size) {
  if (failed_) return false;
  try {
    sink_->Write(static_cast<const uint8_t*>(data), size);
    flushed_ += size;
    return true;
  } catch (const std::exception& e) {
    failed_ = true;
    error_ = e.what();
    return false;
  }
}

}  // namespace graphport::proto
