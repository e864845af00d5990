// What walking one map entry found, remembered by the entry's bytes: a graph's nodes repeat
// the same attrs (a type, output shapes) thousands of times, and finding an entry met before
// costs a hash and a compare where walking it costs a descent into two or three messages.
//
// Flat open addressing over a power-of-two table, so a lookup is a mask and a few compares
// (no division, no node per entry). An entry is remembered only on its second sighting: the
// ones a graph holds once (a Const's value) neither fill the memo nor cost a copy. In front of
// the table, the entry last found under a key of a few of the bytes' words: the same entries
// come again and again, and comparing with the one the key names costs less than hashing the
// bytes first (a node's tail, ~100 bytes on the nodes graph: nine in ten found so, and its
// load -> export ~1 ms faster in WebAssembly, of 32).
#ifndef GRAPHPORT_PROTO_WIRE_ENTRY_MEMO_H_
#define GRAPHPORT_PROTO_WIRE_ENTRY_MEMO_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/same_bytes.h"

namespace graphport::proto {

// Hashes met once, direct-mapped (a later one takes the place of an earlier): a memo keeps an
// entry only when Again() says its hash was met before, so what a graph holds once (a Const's
// value) neither fills the memo nor costs a copy.
class SecondSighting {
 public:
  bool Again(uint64_t hash);

 private:
  static constexpr size_t kSlots = 4096;
  std::vector<uint64_t> seen_;  // empty until the first hash
};

class WireEntryMemo {
 public:
  // Entries outside these sizes are walked: shorter ones cannot be hashed by words, longer
  // ones are rare and would crowd the memo.
  static constexpr size_t kMinBytes = 4, kMaxBytes = 1024;

  struct Result {
    uint64_t parsed_bytes = 0;
    int depth = 0;  // the entry was walked this deep; deeper, it must be walked again
    bool canonical = true;
    // The caller's: what else it keeps of the walk (WireChecker: a tail's watched records).
    uint32_t first_extra = 0, extra_count = 0;
  };

  static bool Fits(size_t size) { return size >= kMinBytes && size <= kMaxBytes; }
  // A quick hash of `size` (Fits) bytes; collisions only cost a compare. Inline: the check's
  // walker and the text printer run it on every map entry.
  static uint64_t Hash(const uint8_t* p, size_t size);

  // The result remembered for these (Fits) bytes, or null, in which case `*hash` is set to
  // their Hash for Offer. Inline, forced (clang left it a call in the walk): the walk asks
  // once per node and per map entry, and a call costs a good part of a lookup that finds the
  // entry at once.
  const Result* Find(const uint8_t* p, size_t size, uint64_t* hash);
  // After a walk of bytes Find did not know: remembers its result if they were met before
  // (and the memo has room), returning whether it did.
  bool Offer(const uint8_t* p, size_t size, uint64_t hash, const Result& result);

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t offset = 0, size = 0;  // the entry's copy in bytes_; size 0: an empty slot
    Result result;
  };
  // A slot of the table by a key of the bytes' size and first, middle and last words: where
  // such bytes were last found or kept (a guess, checked by comparing the bytes). As many
  // keys as slots: with 256, four lookups in ten on the nodes graph missed the guess.
  static constexpr int kRecentBits = 12;
  static size_t RecentKey(const uint8_t* p, size_t size);
  std::array<uint16_t, size_t{1} << kRecentBits> recent_{};
  std::vector<Slot> slots_;  // a power of two, at most half full; empty until first kept
  SecondSighting seen_;
  std::string bytes_;  // the remembered entries' bytes, one after another
  size_t count_ = 0;
};

namespace wire_entry_memo_internal {

inline uint64_t Load64(const uint8_t* p) {
  uint64_t word;
  std::memcpy(&word, p, 8);
  return word;
}

inline uint32_t Load32(const uint8_t* p) {
  uint32_t word;
  std::memcpy(&word, p, 4);
  return word;
}

}  // namespace wire_entry_memo_internal

inline uint64_t WireEntryMemo::Hash(const uint8_t* p, size_t size) {
  using wire_entry_memo_internal::Load32;
  using wire_entry_memo_internal::Load64;
  uint64_t h = size * 0x9E3779B97F4A7C15ull;
  if (size < 8) {
    h ^= (uint64_t{Load32(p)} << 32) | Load32(p + size - 4);
  } else {
    // Two lanes, sixteen bytes a round: each lane's multiplies wait on the one before, so one
    // lane alone took twice as long on the 100-byte runs hashed once per node.
    uint64_t g = 0xC2B2AE3D27D4EB4Full;
    size_t i = 0;
    for (; i + 16 <= size; i += 16) {
      h = (h ^ Load64(p + i)) * 0xFF51AFD7ED558CCDull;
      g = (g ^ Load64(p + i + 8)) * 0xC4CEB9FE1A85EC53ull;
      h ^= h >> 32;
      g ^= g >> 29;
    }
    if (i + 8 <= size) {
      h = (h ^ Load64(p + i)) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
    }
    h ^= (g << 31 | g >> 33) ^ Load64(p + size - 8);
  }
  // A full final mix: the slot is taken from the low bits, and a graph's entries often differ
  // only in their last bytes (a Const's value).
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}

inline size_t WireEntryMemo::RecentKey(const uint8_t* p, size_t size) {
  using wire_entry_memo_internal::Load32;
  using wire_entry_memo_internal::Load64;
  uint64_t h = size * 0x9E3779B97F4A7C15ull;
  if (size >= 8) {
    h ^= (Load64(p) ^ Load64(p + (size >> 1) - 4)) * 0xC4CEB9FE1A85EC53ull;
    h ^= Load64(p + size - 8) * 0xFF51AFD7ED558CCDull;
  } else {
    h ^= Load32(p + size - 4) * 0xFF51AFD7ED558CCDull;
  }
  return static_cast<size_t>(h >> (64 - kRecentBits));
}

[[gnu::always_inline]] inline const WireEntryMemo::Result* WireEntryMemo::Find(const uint8_t* p,
                                                                               size_t size,
                                                                               uint64_t* hash) {
  const auto* kept = reinterpret_cast<const uint8_t*>(bytes_.data());
  uint16_t* recent = nullptr;
  if (!slots_.empty()) {
    recent = &recent_[RecentKey(p, size)];
    const Slot& guess = slots_[*recent];
    if (guess.size == size && SameBytes(kept + guess.offset, p, size)) return &guess.result;
  }
  *hash = Hash(p, size);
  if (recent == nullptr) return nullptr;
  const size_t mask = slots_.size() - 1;
  for (size_t i = *hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.size == 0) return nullptr;
    if (slot.hash == *hash && slot.size == size && SameBytes(kept + slot.offset, p, size)) {
      *recent = static_cast<uint16_t>(i);
      return &slot.result;
    }
  }
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_ENTRY_MEMO_H_
