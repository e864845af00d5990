#include "mge/shared_strings.h"

#include <functional>

namespace graphport::mge {

using flatbuffers::Offset;
using flatbuffers::String;

std::string_view SharedStrings::At(uint32_t offset) const {
  const auto* s =
      reinterpret_cast<const String*>(fbb_->GetCurrentBufferPointer() + fbb_->GetSize() - offset);
  return std::string_view(s->c_str(), s->size());
}

void SharedStrings::Insert(uint64_t hash, uint32_t offset) {
  const size_t mask = slots_.size() - 1;
  size_t i = static_cast<size_t>(hash) & mask;
  while (slots_[i].offset != 0) i = (i + 1) & mask;
  slots_[i] = {offset, static_cast<uint32_t>(hash)};
  ++count_;
}

Offset<String> SharedStrings::Create(std::string_view s) {
  // The standard library's: the module has its code already (a hash of its own cost 2.4 KB).
  const uint64_t hash = std::hash<std::string_view>()(s);
  if (!slots_.empty()) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = static_cast<size_t>(hash) & mask; slots_[i].offset != 0; i = (i + 1) & mask) {
      if (slots_[i].hash == static_cast<uint32_t>(hash) && At(slots_[i].offset) == s) {
        return Offset<String>(slots_[i].offset);
      }
    }
  }
  const Offset<String> created = fbb_->CreateString(s.data(), s.size());
  if (2 * (count_ + 1) > slots_.size()) {
    std::vector<Slot> old(slots_.empty() ? 512 : 2 * slots_.size());
    old.swap(slots_);
    count_ = 0;
    for (const Slot& slot : old) {
      if (slot.offset != 0) Insert(slot.hash, slot.offset);
    }
  }
  Insert(hash, created.o);
  return created;
}

}  // namespace graphport::mge
