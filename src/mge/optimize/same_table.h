// A hash table of dedup keys (SameKey -> the var standing for it), for the keys that
// SameIndex does not list under their first input. Open addressing with linear probing, the
// hash's top half and the key's index in a table of 8-byte slots: about one cache miss per
// lookup, and one more for the key that matches.
#ifndef GRAPHPORT_MGE_OPTIMIZE_SAME_TABLE_H_
#define GRAPHPORT_MGE_OPTIMIZE_SAME_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mge/optimize/var_list.h"
#include "mge/optimize/var_ref.h"

namespace graphport::mge::opt {

// What makes two operators the same for MegEngine's deduplication: a code naming the class
// and params (SameCode), and the inputs in order. Up to three inputs are held in the key
// itself: nearly every operator a pass makes has that many, and an entry that compares
// without following a pointer costs one cache miss less per lookup (and one allocation less
// per operator made).
class SameKey {
 public:
  SameKey(uint64_t code, const VarRef* inputs, size_t size);
  SameKey(uint64_t code, const VarList& inputs) : SameKey(code, inputs.data(), inputs.size()) {}
  SameKey(uint64_t code, const std::vector<VarRef>& inputs)
      : SameKey(code, inputs.data(), inputs.size()) {}
  SameKey(SameKey&&) noexcept = default;
  SameKey& operator=(SameKey&&) noexcept = default;

  uint64_t code() const { return code_; }
  size_t size() const { return size_; }
  const VarRef* inputs() const { return large_ ? large_.get() : small_; }
  bool operator==(const SameKey& o) const;

 private:
  static constexpr size_t kSmall = 3;
  uint64_t code_;
  uint32_t size_;
  VarRef small_[kSmall];
  std::unique_ptr<VarRef[]> large_;
};
struct SameKeyHash {
  size_t operator()(const SameKey& k) const;
};

// The codes of SameKey: the kind in the top byte, what tells operators of the kind apart
// below it. Numbers, not text: building "Elemwise:16" for each of the 100k operators a pass
// makes, and hashing it, cost more than the lookup.
namespace same_code {
constexpr uint64_t kElemwise = uint64_t{1} << 56;  // | the mode
constexpr uint64_t kCopy = uint64_t{2} << 56;      // | the node first copied
constexpr uint64_t kPowC = uint64_t{3} << 56;      // | the exponent's bits
constexpr uint64_t kText = uint64_t{4} << 56;      // | SameTable::Intern's number
}  // namespace same_code

class SameTable {
 public:
  // The value entered for `key`, or nullptr.
  const VarRef* Find(const SameKey& key) const;
  // Enters `key`, which Find() did not find, for `value`.
  void Insert(SameKey key, VarRef value);
  void Reserve(size_t keys);
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  // The code of a key given as text (the operators made rarely: "TypeCvt:2", ...).
  uint64_t Intern(std::string_view text);

 private:
  struct Entry {
    SameKey key;
    VarRef value;
    size_t hash;
  };
  static constexpr uint32_t kFree = ~uint32_t{0};
  // Where entry `index` (hash `hash`) goes, or is: the slot of `key`, else a free one.
  uint64_t* Probe(const SameKey* key, size_t hash);
  const uint64_t* Probe(const SameKey* key, size_t hash) const {
    return const_cast<SameTable*>(this)->Probe(key, hash);
  }

  // The entries in the order entered; the slots hold the upper 32 bits of each one's hash
  // and its index (kFree in the lower half: none), a power of two of them, at most half used.
  std::vector<Entry> entries_;
  std::vector<uint64_t> slots_;
  std::unordered_map<std::string, uint64_t> texts_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_SAME_TABLE_H_
