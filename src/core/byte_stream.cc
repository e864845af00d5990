#include "core/byte_stream.h"

#include <algorithm>
#include <cstring>

#include "core/limits.h"
#include "core/resize_for_overwrite.h"

namespace graphport {

size_t MemorySource::Read(uint8_t* dst, size_t max) {
  size_t n = std::min(max, bytes_.size() - offset_);
  // An empty view may hold a null pointer, and memcpy from null is undefined even for 0 bytes.
  if (n == 0) return 0;
  std::memcpy(dst, bytes_.data() + offset_, n);
  offset_ += n;
  return n;
}

bool MemorySource::SizeHint(uint64_t* size) const {
  *size = bytes_.size();
  return true;
}

bool MemorySource::Contiguous(std::string_view* bytes) const {
  if (offset_ != 0) return false;
  *bytes = bytes_;
  return true;
}

size_t PrefixedSource::Read(uint8_t* dst, size_t max) {
  if (offset_ < prefix_.size()) {
    size_t n = std::min(max, prefix_.size() - offset_);
    std::memcpy(dst, prefix_.data() + offset_, n);
    offset_ += n;
    return n;
  }
  return inner_->Read(dst, max);
}

std::string ReadPrefix(ByteSource* source, size_t max) {
  std::string prefix;
  AppendPrefix(source, max, &prefix);
  return prefix;
}

void AppendPrefix(ByteSource* source, size_t max, std::string* out) {
  // Grows with the bytes that arrive: `max` may be far beyond the input (an error report
  // rereads a stream with a 256 MiB cap) and must not cost that much heap up front.
  const size_t start = out->size();
  size_t filled = 0;
  while (filled < max) {
    size_t want = std::min(max - filled, kStreamChunkBytes);
    ResizeForOverwrite(out, start + filled + want);
    size_t n = source->Read(reinterpret_cast<uint8_t*>(&(*out)[start + filled]), want);
    if (n == 0) break;
    filled += n;
  }
  out->resize(start + filled);
}

bool ReadWhole(ByteSource* input, uint64_t max_bytes, std::string* out) {
  uint64_t size = 0;
  if (input->SizeHint(&size)) {
    if (size > max_bytes) return false;
    out->reserve(size);
  }
  while (true) {
    size_t old_size = out->size();
    size_t room = out->capacity() - old_size;
    size_t n;
    if (room == 0) {
      // At the declared size (or without one): a small read says whether more follows,
      // without growing the buffer past the input (which would copy it whole).
      uint8_t probe[4096];
      n = input->Read(probe, sizeof probe);
      out->append(reinterpret_cast<const char*>(probe), n);
    } else {
      size_t want = std::min<size_t>(room, kStreamChunkBytes);
      ResizeForOverwrite(out, old_size + want);
      n = input->Read(reinterpret_cast<uint8_t*>(&(*out)[old_size]), want);
      out->resize(old_size + n);
    }
    if (n == 0) return true;
    if (out->size() > max_bytes) return false;
  }
}

}  // namespace graphport
