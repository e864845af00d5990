#include "proto/proto_streams.h"

#include <algorithm>

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

bool SinkCopyingStream::Write(const void* buffer, int size) {
  try {
    sink_->Write(static_cast<const uint8_t*>(buffer), static_cast<size_t>(size));
    return true;
  } catch (const std::exception& e) {
    error_ = e.what();
    return false;
  }
}

}  // namespace graphport::proto
