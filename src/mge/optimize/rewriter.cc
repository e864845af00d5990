#include "mge/optimize/rewriter.h"

#include "mge/optimize/opr_name.h"

namespace graphport::mge::opt {

VarRef Rewriter::Get(VarRef v) const {
  const Slot* s = Find(v);
  return s == nullptr ? v : s->to;
}

std::vector<VarRef> Rewriter::Inputs(uint32_t node) const {
  const VarList& from = g_->node(node).inputs;
  std::vector<VarRef> in;
  in.reserve(from.size());
  for (const VarRef& r : from) in.push_back(Get(r));
  return in;
}

VarList Rewriter::CurrentInputs(uint32_t node) const {
  const VarList& from = g_->node(node).inputs;
  VarList in;
  in.reserve(from.size());
  for (const VarRef& r : from) in.push_back(Get(r));
  return in;
}

Rewriter::Slot& Rewriter::Make(VarRef v) {
  if (first_slot_.size() <= v.node) first_slot_.resize(g_->size(), kNone);
  if (first_slot_[v.node] == kNone) {
    first_slot_[v.node] = static_cast<uint32_t>(slots_.size());
    slots_.resize(slots_.size() + g_->node(v.node).outputs.size());
  }
  any_replaced_ = true;
  Slot& s = slots_[first_slot_[v.node] + v.output];
  s.set = true;
  return s;
}

void Rewriter::Replace(VarRef src, VarRef dst) {
  if (src == dst) return;
  // replace_var: a var whose name is set passes it to one whose name is not. (A loaded var
  // that shows that name already keeps it unset: what a pass takes apart and puts together
  // again, deduplicated into the loaded operator, leaves the loaded graph unchanged.)
  if (HasNameSet(*g_, src) && !HasNameSet(*g_, dst)) {
    std::string name = VarName(*g_, src);
    if (dst.node >= g_->loaded_count() || VarName(*g_, dst) != name) {
      g_->mutable_var(dst).mutable_middle().name = std::move(name);
    }
  }
  const OptVar& from = g_->var(src);
  OptVar& to = g_->mutable_var(dst);
  if (from.v1_name() && !from.v1_name()->empty() && (!to.v1_name() || to.v1_name()->empty())) {
    to.set_v1_name(*from.v1_name());
    g_->mutable_node(dst.node).has_v1_names = g_->node(src.node).has_v1_names;
  }
  Slot& slot = Make(src);
  slot.to = dst;
  slot.by_hand = true;
  ++replaced_;
}

void Rewriter::AutoReplaceOutputs(uint32_t node) {
  bool replaced_input = false;
  if (any_replaced_) {
    for (const VarRef& r : g_->node(node).inputs) replaced_input |= Find(r) != nullptr;
  }
  if (!replaced_input) return;
  const uint32_t copy = maker_.Copy(node, CurrentInputs(node));
  if (copy != node) g_->MarkNamesSet(copy);
  const size_t outputs = g_->node(node).outputs.size();
  for (uint32_t k = 0; k < outputs; ++k) {
    const VarRef dst{copy, g_->node(copy).outputs.size() == outputs ? k : 0};
    // The copy's outputs are renamed to the names the old ones show (an operator that is
    // already there, which deduplication returns, may show them already). A fresh copy reads
    // its names where the old var does, and shows the name the old operator was given.
    const MiddleTensor& had = g_->var({node, k}).middle();
    const MiddleTensor& has = g_->var(dst).middle();
    if (&has != &had) {
      std::string name = VarName(*g_, {node, k});
      if (VarName(*g_, dst) != name) g_->mutable_var(dst).mutable_middle().name = std::move(name);
    }
    Make({node, k}).to = dst;
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

uint32_t Rewriter::RewriteMatches(const std::function<bool(uint32_t node)>& rewrite) {
  uint32_t rewritten = 0;
  ForEachOperator([&](uint32_t node) {
    if (rewrite(node)) {
      ++rewritten;
    } else {
      AutoReplaceOutputs(node);
    }
  });
  Apply();
  return rewritten;
}

uint32_t Rewriter::RewriteRemade(const std::function<bool(uint32_t node)>& rewrite) {
  uint32_t rewritten = 0;
  ForEachOperator([&](uint32_t node) {
    AutoReplaceOutputs(node);
    if (rewrite(node)) ++rewritten;
  });
  Apply();
  return rewritten;
}

void Rewriter::Apply() {
  for (size_t i = 0; i < g_->endpoints().size(); ++i) {
    g_->set_endpoint(i, Get(g_->endpoints()[i]));
  }
}

}  // namespace graphport::mge::opt
