#include "mge/optimize/same_index.h"

#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {
namespace {

// The input a key is listed under: the one of the newest operator. A pass re-makes
// operators on inputs it has just made (few readers), where the first input is often an old
// one that many read (x * w lists under w, a weight of a hundred products).
VarRef Anchor(const VarList& inputs) {
  VarRef anchor = inputs[0];
  for (const VarRef& v : inputs) {
    if (v.node > anchor.node) anchor = v;
  }
  return anchor;
}

}  // namespace

std::optional<VarRef> SameIndex::Find(const OptGraph& g, uint64_t code,
                                      const VarList& inputs) const {
  if (!inputs.empty()) {
    const uint32_t var = g.VarIndex(Anchor(inputs));
    if (var >= newest_.size()) return std::nullopt;
    for (uint32_t node = newest_[var]; node != kEnd; node = nodes_[node].older) {
      if (nodes_[node].code == code && g.node(node).inputs == inputs) return nodes_[node].stands;
    }
    if (listed_[var] < kListed) return std::nullopt;
  }
  const VarRef* found = table_.Find(SameKey(code, inputs));
  return found ? std::optional<VarRef>(*found) : std::nullopt;
}

void SameIndex::Enter(const OptGraph& g, uint32_t node, uint64_t code, VarRef stands) {
  const VarList& inputs = g.node(node).inputs;
  if (inputs.empty()) {
    table_.Insert(SameKey(code, inputs), stands);
    return;
  }
  const uint32_t var = g.VarIndex(Anchor(inputs));
  if (var >= newest_.size()) {
    // Room for as many vars again: the graph grows by a node at a time.
    newest_.resize(2 * size_t{g.var_count()}, kEnd);
    listed_.resize(2 * size_t{g.var_count()}, 0);
  }
  if (listed_[var] == kListed) {
    table_.Insert(SameKey(code, inputs), stands);
    return;
  }
  if (node >= nodes_.size()) nodes_.resize(2 * g.size());
  nodes_[node] = {code, newest_[var], stands};
  newest_[var] = node;
  ++listed_[var];
}

}  // namespace graphport::mge::opt
