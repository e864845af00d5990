// FlatBufferBuilder::CreateSharedString, with the strings met so far found by a hash of their
// bytes instead of in the builder's sorted set. That set compares a new string with about
// log2(n) of the others, byte by byte through the long prefixes a model's operator and var
// names share: for 100k operators, most of an FBS_V2 dump's time. Equal strings are shared as
// the builder shares them (the first is serialized, the others point at it), so the bytes
// written are the same. Every shared string of a builder must come through one of these.
#ifndef GRAPHPORT_MGE_SHARED_STRINGS_H_
#define GRAPHPORT_MGE_SHARED_STRINGS_H_

#include <flatbuffers/flatbuffers.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace graphport::mge {

class SharedStrings {
 public:
  explicit SharedStrings(flatbuffers::FlatBufferBuilder* fbb) : fbb_(fbb) {}
  flatbuffers::Offset<flatbuffers::String> Create(std::string_view s);

 private:
  // The string the builder holds at `offset`: found again through the buffer, which moves as
  // it grows.
  std::string_view At(uint32_t offset) const;
  void Insert(uint64_t hash, uint32_t offset);

  struct Slot {
    uint32_t offset = 0;  // 0: empty (a string's offset counts at least its length field)
    uint32_t hash = 0;    // the low bits of its hash, compared before its bytes
  };
  flatbuffers::FlatBufferBuilder* fbb_;
  std::vector<Slot> slots_;  // open addressing: a power of two, at most half full
  size_t count_ = 0;
};

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_SHARED_STRINGS_H_
