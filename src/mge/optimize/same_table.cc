#include "mge/optimize/same_table.h"

#include <algorithm>

namespace graphport::mge::opt {

SameKey::SameKey(uint64_t code, const VarRef* inputs, size_t size)
    : code_(code), size_(static_cast<uint32_t>(size)) {
  VarRef* to = small_;
  if (size > kSmall) {
    large_ = std::make_unique<VarRef[]>(size);
    to = large_.get();
  }
  std::copy(inputs, inputs + size, to);
}

bool SameKey::operator==(const SameKey& o) const {
  return code_ == o.code_ && size_ == o.size_ && std::equal(inputs(), inputs() + size_, o.inputs());
}

size_t SameKeyHash::operator()(const SameKey& k) const {
  // splitmix64's finalizer over the code and each input in turn: neighbouring node numbers,
  // which a chain's operators have, must land in different buckets.
  auto mix = [](uint64_t h) {
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
  };
  uint64_t h = mix(k.code() + 0x9e3779b97f4a7c15ull);
  for (const VarRef* v = k.inputs(); v != k.inputs() + k.size(); ++v) {
    h = mix(h ^ ((uint64_t{v->node} << 8 | v->output) + 0x9e3779b97f4a7c15ull));
  }
  return static_cast<size_t>(h);
}

void SameTable::Reserve(size_t keys) {
  size_t capacity = 16;
  while (capacity < 2 * keys) capacity *= 2;
  if (capacity <= slots_.size()) return;
  slots_.assign(capacity, kFree);
  for (size_t i = 0; i < entries_.size(); ++i) {
    *Probe(nullptr, entries_[i].hash) = (entries_[i].hash >> 32) << 32 | i;
  }
  entries_.reserve(capacity / 2);
}

uint64_t* SameTable::Probe(const SameKey* key, size_t hash) {
  const size_t mask = slots_.size() - 1;
  const uint64_t tag = uint64_t{hash} >> 32;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    uint64_t& slot = slots_[i];
    const uint32_t index = static_cast<uint32_t>(slot);
    if (index == kFree) return &slot;
    if (key != nullptr && slot >> 32 == tag && entries_[index].hash == hash &&
        entries_[index].key == *key) {
      return &slot;
    }
  }
}

uint64_t SameTable::Intern(std::string_view text) {
  auto [it, fresh] = texts_.try_emplace(std::string(text), same_code::kText | texts_.size());
  (void)fresh;
  return it->second;
}

const VarRef* SameTable::Find(const SameKey& key) const {
  if (slots_.empty()) return nullptr;
  const uint32_t index = static_cast<uint32_t>(*Probe(&key, SameKeyHash()(key)));
  return index == kFree ? nullptr : &entries_[index].value;
}

void SameTable::Insert(SameKey key, VarRef value) {
  if (2 * (entries_.size() + 1) > slots_.size()) Reserve(2 * (entries_.size() + 1));
  const size_t hash = SameKeyHash()(key);
  *Probe(nullptr, hash) = (uint64_t{hash} >> 32) << 32 | entries_.size();
  entries_.push_back({std::move(key), value, hash});
}

}  // namespace graphport::mge::opt
