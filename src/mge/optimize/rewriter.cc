#include "mge/optimize/rewriter.h"

namespace graphport::mge::opt {

VarRef Rewriter::Get(VarRef v) const {
  auto it = replace_.find(v);
  return it == replace_.end() ? v : it->second;
}

std::vector<VarRef> Rewriter::Inputs(uint32_t node) const {
  std::vector<VarRef> in;
  for (const VarRef& r : g_->node(node).inputs) in.push_back(Get(r));
  return in;
}

void Rewriter::Replace(VarRef src, VarRef dst) {
  if (src == dst) return;
  const OptVar& from = g_->var(src);
  OptVar& to = g_->mutable_var(dst);
  if (from.middle().name && !to.middle().name) to.mutable_middle().name = from.middle().name;
  if (from.v1_name() && !from.v1_name()->empty() && (!to.v1_name() || to.v1_name()->empty())) {
    to.set_v1_name(*from.v1_name());
    g_->mutable_node(dst.node).has_v1_names = g_->node(src.node).has_v1_names;
  }
  replace_[src] = dst;
  by_hand_.insert(src);
  ++replaced_;
}

void Rewriter::AutoReplaceOutputs(uint32_t node) {
  bool replaced_input = false;
  if (!replace_.empty()) {
    for (const VarRef& r : g_->node(node).inputs) replaced_input |= replace_.count(r) != 0;
  }
  if (!replaced_input) return;
  std::vector<VarRef> in = Inputs(node);
  const uint32_t copy = maker_.Copy(node, in);
  const size_t outputs = g_->node(node).outputs.size();
  for (uint32_t k = 0; k < outputs; ++k) {
    const VarRef dst{copy, g_->node(copy).outputs.size() == outputs ? k : 0};
    // The copy's outputs are renamed to the old ones' current names (an operator that is
    // already there, which deduplication returns, may have them already).
    if (g_->var(dst).middle().name != g_->var({node, k}).middle().name) {
      g_->mutable_var(dst).mutable_middle().name = g_->var({node, k}).middle().name;
    }
    replace_[{node, k}] = dst;
  }
}

void Rewriter::ForEachOperator(const std::function<void(uint32_t node)>& visit) {
  // A copy: a visit may change the graph, and with it the graph's cached order.
  const std::vector<uint32_t> order = g_->TopoOrder();
  for (uint32_t node : order) {
    g_->set_current_priority(g_->node(node).priority());
    visit(node);
  }
  g_->set_current_priority(0);
}

void Rewriter::Apply() {
  for (size_t i = 0; i < g_->endpoints().size(); ++i) {
    g_->set_endpoint(i, Get(g_->endpoints()[i]));
  }
}

}  // namespace graphport::mge::opt
