#include "core/graph_index.h"

#include <unordered_set>

namespace graphport {

uint64_t GraphIndex::AppendName(std::string_view name) {
  uint64_t offset = name_chars_.size();
  name_chars_.append(name);
  return offset;
}

uint32_t GraphIndex::AddNode(std::string_view name, std::string_view op, uint64_t weight_bytes) {
  auto number = static_cast<uint32_t>(name_offset_.size());
  name_offset_.push_back(AppendName(name));
  name_length_.push_back(static_cast<uint32_t>(name.size()));
  auto [it, added] = op_numbers_.emplace(std::string(op), static_cast<uint32_t>(ops_.size()));
  if (added) ops_.emplace_back(op);
  op_of_.push_back(it->second);
  weight_bytes_.push_back(weight_bytes);
  input_start_.push_back(static_cast<uint32_t>(inputs_.size()));
  return number;
}

void GraphIndex::AddNamedInput(std::string_view producer, uint32_t output, bool control) {
  pending_.push_back(
      {static_cast<uint32_t>(inputs_.size()), pending_chars_.size(), producer.size()});
  pending_chars_.append(producer);
  inputs_.push_back({0, output, control});
}

void GraphIndex::AddInput(GraphInput input) { inputs_.push_back(input); }

void GraphIndex::Resolve() {
  const auto n = static_cast<uint32_t>(size());
  by_name_.clear();
  by_name_.reserve(n);
  std::vector<uint32_t> repeated;
  for (uint32_t i = 0; i < n; ++i) {
    if (!by_name_.emplace(name(i), i).second) repeated.push_back(i);
  }
  if (!repeated.empty()) {
    // A name given twice (MegEngine does not require distinct operator names): inputs by
    // name mean the first, and the later ones get their number after the name, so that every
    // node has an id of its own. The new names are chosen first and then appended, since
    // appending moves the characters the map's views point at.
    std::unordered_set<std::string> chosen;
    std::vector<std::string> renamed;
    for (uint32_t i : repeated) {
      std::string candidate = std::string(name(i)) + "#" + std::to_string(i);
      while (by_name_.count(candidate) != 0 || chosen.count(candidate) != 0) candidate += "#";
      chosen.insert(candidate);
      renamed.push_back(std::move(candidate));
    }
    for (size_t k = 0; k < repeated.size(); ++k) {
      name_offset_[repeated[k]] = AppendName(renamed[k]);
      name_length_[repeated[k]] = static_cast<uint32_t>(renamed[k].size());
    }
    by_name_.clear();
    for (uint32_t i = 0; i < n; ++i) by_name_.emplace(name(i), i);
  }
  if (pending_.empty()) return;
  std::vector<bool> dropped(inputs_.size(), false);
  const std::string_view chars = pending_chars_;
  for (const Pending& p : pending_) {
    auto it = by_name_.find(chars.substr(p.offset, p.length));
    if (it == by_name_.end()) {
      dropped[p.slot] = true;
      ++unresolved_;
    } else {
      inputs_[p.slot].node = it->second;
    }
  }
  pending_.clear();
  pending_.shrink_to_fit();
  pending_chars_.clear();
  pending_chars_.shrink_to_fit();
  if (unresolved_ == 0) return;
  // Compact the inputs without the unresolved ones, moving each node's start with them.
  std::vector<GraphInput> kept;
  kept.reserve(inputs_.size() - unresolved_);
  for (uint32_t node = 0; node < n; ++node) {
    uint32_t begin = inputs_begin(node), end = inputs_end(node);
    input_start_[node] = static_cast<uint32_t>(kept.size());
    for (uint32_t k = begin; k < end; ++k) {
      if (!dropped[k]) kept.push_back(inputs_[k]);
    }
  }
  inputs_ = std::move(kept);
}

int64_t GraphIndex::Find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? -1 : static_cast<int64_t>(it->second);
}

}  // namespace graphport
