#include "proto/wire_entry_memo.h"

#include <cstring>

namespace graphport::proto {
namespace {

// The memo's fixed sizes, taken whole on the first entry kept, never grown: it lives while a
// graph is indexed, beside the buffer the graph is held in, and memory taken in steps there
// was left as holes that made the next load's heap grow (measured: 1.26x -> 1.34x of the model
// after five loads of the nodes graph). It stops at either limit, keeping what it has (the
// first entries of a graph are as typical as any).
constexpr size_t kEntryMemoBytes = size_t{256} << 10;
constexpr size_t kEntryMemoSlots = 4096;  // at most half of them used
static_assert(kEntryMemoSlots <= 65536, "WireEntryMemo::recent_ holds slot numbers in 16 bits");

}  // namespace

bool SecondSighting::Again(uint64_t hash) {
  if (seen_.empty()) seen_.resize(kEntryMemoSlots);
  uint64_t& seen = seen_[hash & (kEntryMemoSlots - 1)];
  if (seen == hash) return true;
  seen = hash;  // the first sighting (or one pushed out): wait for a second
  return false;
}

bool WireEntryMemo::Offer(const uint8_t* p, size_t size, uint64_t hash, const Result& result) {
  if (!seen_.Again(hash)) return false;
  if (slots_.empty()) {
    slots_.resize(kEntryMemoSlots);
    bytes_.reserve(kEntryMemoBytes);
  }
  if (bytes_.size() + size > kEntryMemoBytes || 2 * (count_ + 1) > kEntryMemoSlots) return false;
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].size != 0) i = (i + 1) & mask;
  slots_[i] = Slot{hash, static_cast<uint32_t>(bytes_.size()), static_cast<uint32_t>(size), result};
  recent_[RecentKey(p, size)] = static_cast<uint16_t>(i);
  bytes_.append(reinterpret_cast<const char*>(p), size);
  ++count_;
  return true;
}

}  // namespace graphport::proto
