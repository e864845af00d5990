#include "core/graph_index.h"

namespace graphport {

uint32_t GraphIndex::AddNode(std::string name, std::string_view op, uint64_t weight_bytes) {
  auto number = static_cast<uint32_t>(names_.size());
  names_.push_back(std::move(name));
  auto [it, added] = op_numbers_.emplace(std::string(op), static_cast<uint32_t>(ops_.size()));
  if (added) ops_.emplace_back(op);
  op_of_.push_back(it->second);
  weight_bytes_.push_back(weight_bytes);
  input_start_.push_back(static_cast<uint32_t>(inputs_.size()));
  return number;
}

void GraphIndex::AddNamedInput(std::string_view producer, uint32_t output, bool control) {
  pending_.push_back({static_cast<uint32_t>(inputs_.size()), std::string(producer)});
  inputs_.push_back({0, output, control});
}

void GraphIndex::AddInput(GraphInput input) { inputs_.push_back(input); }

void GraphIndex::Resolve() {
  // Views into the strings of names_: made once every name is in, since a vector that grows
  // moves short strings (their characters live inside the std::string).
  by_name_.clear();
  by_name_.reserve(names_.size());
  std::vector<uint32_t> repeated;
  for (uint32_t i = 0; i < names_.size(); ++i) {
    if (!by_name_.emplace(names_[i], i).second) repeated.push_back(i);
  }
  // A name given twice (MegEngine does not require distinct operator names): inputs by name
  // mean the first, and the later ones get their number after the name, so that every node
  // has an id of its own.
  for (uint32_t i : repeated) {
    std::string base = names_[i];
    names_[i] = base + "#" + std::to_string(i);
    while (!by_name_.emplace(names_[i], i).second) names_[i] += "#";
  }
  if (pending_.empty()) return;
  std::vector<bool> dropped(inputs_.size(), false);
  for (const Pending& p : pending_) {
    auto it = by_name_.find(p.producer);
    if (it == by_name_.end()) {
      dropped[p.slot] = true;
      ++unresolved_;
    } else {
      inputs_[p.slot].node = it->second;
    }
  }
  pending_.clear();
  pending_.shrink_to_fit();
  if (unresolved_ == 0) return;
  // Compact the inputs without the unresolved ones, moving each node's start with them.
  std::vector<GraphInput> kept;
  kept.reserve(inputs_.size() - unresolved_);
  for (uint32_t node = 0; node < names_.size(); ++node) {
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
