#include "proto/text_output.h"

#include <algorithm>
#include <cstring>
#include <exception>

namespace graphport::proto {

TextOutput::TextOutput(ByteSink* sink, size_t chunk_bytes)
    : sink_(sink),
      buffer_(new char[chunk_bytes]),
      capacity_(chunk_bytes),
      cursor_(buffer_.get()),
      end_(buffer_.get() + chunk_bytes) {}

void TextOutput::Flush() {
  size_t size = static_cast<size_t>(cursor_ - buffer_.get());
  cursor_ = buffer_.get();
  ++flushes_;
  if (failed_ || size == 0) return;
  try {
    sink_->Write(reinterpret_cast<const uint8_t*>(buffer_.get()), size);
  } catch (const std::exception& e) {
    // Kept, not thrown: the writer reports it with the name of what it was writing.
    failed_ = true;
    error_ = e.what();
  }
}

void TextOutput::MakeRoom(size_t n) {
  Flush();
  if (n > capacity_) {  // only a caller asking for more than a chunk at once
    buffer_.reset(new char[n]);
    capacity_ = n;
    cursor_ = buffer_.get();
  }
  end_ = buffer_.get() + capacity_;
}

void TextOutput::Append(std::string_view text) {
  while (!text.empty()) {
    size_t room = static_cast<size_t>(end_ - cursor_);
    if (room == 0) {
      MakeRoom(1);
      room = capacity_;
    }
    size_t n = std::min(room, text.size());
    std::memcpy(cursor_, text.data(), n);
    cursor_ += n;
    text.remove_prefix(n);
  }
}

}  // namespace graphport::proto
