#include "proto/wire_text_memo.h"

#include <cstring>

#include "core/same_bytes.h"

namespace graphport::proto {
namespace {

// Fixed sizes, taken whole on the first entry kept and never grown, for the reason
// wire_entry_memo.cc gives. A text is a few times its entry's bytes (names, indents, enum
// names for numbers). The memo stops at any limit, keeping what it has.
constexpr size_t kTextMemoBytes = size_t{128} << 10;
constexpr size_t kTextMemoText = size_t{512} << 10;
constexpr size_t kTextMemoSlots = 4096;  // at most half of them used

}  // namespace

bool WireTextMemo::Fits(size_t size) { return WireEntryMemo::Fits(size); }

uint64_t WireTextMemo::Hash(const uint8_t* p, size_t size, const Context& context) {
  uint64_t h = WireEntryMemo::Hash(p, size);
  h ^= reinterpret_cast<uintptr_t>(context.field) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<uint64_t>(context.level) * 0xC2B2AE3D27D4EB4Full;
  h ^= static_cast<uint64_t>(context.depth) * 0x165667B19E3779F9ull;
  h ^= h >> 29;
  return h;
}

std::string_view WireTextMemo::Find(const uint8_t* p, size_t size, uint64_t hash,
                                    const Context& context) const {
  if (slots_.empty()) return {};
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.bytes_size == 0) return {};
    if (slot.hash == hash && slot.bytes_size == size && slot.context == context &&
        SameBytes(bytes_.get() + slot.bytes_offset, p, size)) {
      return std::string_view(text_.get() + slot.text_offset, slot.text_size);
    }
  }
}

void WireTextMemo::Offer(const uint8_t* p, size_t size, uint64_t hash, const Context& context,
                         std::string_view text) {
  if (text.empty()) return;  // Find's "none"; a map entry always prints at least its braces
  if (!seen_.Again(hash)) return;
  if (slots_.empty()) {
    slots_.resize(kTextMemoSlots);
    bytes_.reset(new uint8_t[kTextMemoBytes]);
    text_.reset(new char[kTextMemoText + kPadding]());
  }
  if (bytes_used_ + size > kTextMemoBytes || text_used_ + text.size() > kTextMemoText ||
      2 * (count_ + 1) > kTextMemoSlots) {
    return;
  }
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].bytes_size != 0) i = (i + 1) & mask;
  slots_[i] = Slot{hash,
                   static_cast<uint32_t>(bytes_used_),
                   static_cast<uint32_t>(size),
                   static_cast<uint32_t>(text_used_),
                   static_cast<uint32_t>(text.size()),
                   context};
  std::memcpy(bytes_.get() + bytes_used_, p, size);
  bytes_used_ += size;
  std::memcpy(text_.get() + text_used_, text.data(), text.size());
  text_used_ += text.size();
  ++count_;
}

}  // namespace graphport::proto
