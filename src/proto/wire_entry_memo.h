// What walking one map entry found, remembered by the entry's bytes: a graph's nodes repeat
// the same attrs (a type, output shapes) thousands of times, and finding an entry met before
// costs a hash and a compare where walking it costs a descent into two or three messages.
//
// Flat open addressing over a power-of-two table, so a lookup is a mask and a few compares
// (no division, no node per entry). An entry is remembered only on its second sighting: the
// ones a graph holds once (a Const's value) neither fill the memo nor cost a copy.
#ifndef GRAPHPORT_PROTO_WIRE_ENTRY_MEMO_H_
#define GRAPHPORT_PROTO_WIRE_ENTRY_MEMO_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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
  };

  static bool Fits(size_t size) { return size >= kMinBytes && size <= kMaxBytes; }
  // A quick hash of `size` (Fits) bytes; collisions only cost a compare. Inline: the check's
  // walker and the text printer run it on every map entry.
  static uint64_t Hash(const uint8_t* p, size_t size);

  // The result remembered for these bytes, or null.
  const Result* Find(const uint8_t* p, size_t size, uint64_t hash) const;
  // After a walk of bytes Find did not know: remembers its result if they were met before.
  void Offer(const uint8_t* p, size_t size, uint64_t hash, const Result& result);

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t offset = 0, size = 0;  // the entry's copy in bytes_; size 0: an empty slot
    Result result;
  };
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
    for (size_t i = 0; i + 8 <= size; i += 8) {
      h = (h ^ Load64(p + i)) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
    }
    h ^= Load64(p + size - 8);
  }
  // A full final mix: the slot is taken from the low bits, and a graph's entries often differ
  // only in their last bytes (a Const's value).
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_ENTRY_MEMO_H_
