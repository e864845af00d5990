#include "proto/wire_entry_memo.h"

#include <cstring>

#include "core/same_bytes.h"

namespace graphport::proto {
namespace {

// The memo's fixed sizes, taken whole on the first entry kept, never grown: it lives while a
// graph is indexed, beside the buffer the graph is held in, and memory taken in steps there
// was left as holes that made the next load's heap grow (measured: 1.26x -> 1.34x of the model
// after five loads of the nodes graph). It stops at either limit, keeping what it has (the
// first entries of a graph are as typical as any).
constexpr size_t kMemoBytes = size_t{256} << 10;
constexpr size_t kSlots = 4096;  // at most half of them used

}  // namespace

bool SecondSighting::Again(uint64_t hash) {
  if (seen_.empty()) seen_.resize(kSlots);
  uint64_t& seen = seen_[hash & (kSlots - 1)];
  if (seen == hash) return true;
  seen = hash;  // the first sighting (or one pushed out): wait for a second
  return false;
}

const WireEntryMemo::Result* WireEntryMemo::Find(const uint8_t* p, size_t size,
                                                 uint64_t hash) const {
  if (slots_.empty()) return nullptr;
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.size == 0) return nullptr;
    if (slot.hash == hash && slot.size == size &&
        SameBytes(reinterpret_cast<const uint8_t*>(bytes_.data()) + slot.offset, p, size)) {
      return &slot.result;
    }
  }
}

void WireEntryMemo::Offer(const uint8_t* p, size_t size, uint64_t hash, const Result& result) {
  if (!seen_.Again(hash)) return;
  if (slots_.empty()) {
    slots_.resize(kSlots);
    bytes_.reserve(kMemoBytes);
  }
  if (bytes_.size() + size > kMemoBytes || 2 * (count_ + 1) > kSlots) return;
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].size != 0) i = (i + 1) & mask;
  slots_[i] = Slot{hash, static_cast<uint32_t>(bytes_.size()), static_cast<uint32_t>(size), result};
  bytes_.append(reinterpret_cast<const char*>(p), size);
  ++count_;
}

}  // namespace graphport::proto
