// The text a map entry printed as, remembered by the entry's bytes: a graph's nodes repeat the
// same attrs thousands of times (attr { key: "T" value { type: DT_FLOAT } }), and copying the
// text printed the first time costs a hash and a compare where printing it again costs a walk
// of two or three messages and a line per field.
//
// The same bytes print the same text only as an entry of the same map field (its name opens
// the text) at the same indent and depth, so those are part of the key. As WireEntryMemo (the
// check's memo), it is flat open addressing of fixed size, and an entry is remembered only on
// its second sighting.
#ifndef GRAPHPORT_PROTO_WIRE_TEXT_MEMO_H_
#define GRAPHPORT_PROTO_WIRE_TEXT_MEMO_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "proto/wire_entry_memo.h"

namespace graphport::proto {

class WireTextMemo {
 public:
  // Where the bytes are printed: the map field (any pointer that names it), the indent, and
  // the depth (past the depth limit the same bytes are an error, not text).
  struct Context {
    const void* field = nullptr;
    int level = 0;
    int depth = 0;
    bool operator==(const Context& o) const {
      return field == o.field && level == o.level && depth == o.depth;
    }
  };

  // Entries of other sizes are printed: see WireEntryMemo::Fits.
  static bool Fits(size_t size);
  static uint64_t Hash(const uint8_t* p, size_t size, const Context& context);

  // The text remembered for these bytes in this context; empty when none. The text is
  // followed by at least kPadding readable bytes, so it can be copied by whole words.
  std::string_view Find(const uint8_t* p, size_t size, uint64_t hash, const Context& context) const;
  // After printing bytes Find did not know as `text`: remembers it if they were met before.
  void Offer(const uint8_t* p, size_t size, uint64_t hash, const Context& context,
             std::string_view text);

  static constexpr size_t kPadding = 8;

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t bytes_offset = 0, bytes_size = 0;  // bytes_size 0: an empty slot
    uint32_t text_offset = 0, text_size = 0;
    Context context;
  };
  std::vector<Slot> slots_;  // a power of two, at most half full; empty until first kept
  SecondSighting seen_;
  std::unique_ptr<uint8_t[]> bytes_;  // the remembered entries' bytes, one after another
  std::unique_ptr<char[]> text_;      // their texts, likewise, with kPadding after the last
  size_t bytes_used_ = 0, text_used_ = 0, count_ = 0;
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_TEXT_MEMO_H_
