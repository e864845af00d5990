#include "mge/optimize/elem_chain.h"

namespace graphport::mge::opt {
namespace {

// More leaves than any real chain has: links read twice by one operator (x + x) double the
// leaves at each level, so a hostile chain could ask for exponentially many.
constexpr size_t kMaxChainTerms = size_t{1} << 16;

}  // namespace

ElemChainPass::ElemChainPass(OptGraph* g)
    : g_(g),
      rw_(g),
      readers_(*g),
      m_(rw_.maker()),
      endpoints_(g->endpoints().begin(), g->endpoints().end()) {}

void ElemChainPass::Run() {
  rw_.ForEachOperator([&](uint32_t node) { Visit(node); });
  rw_.Apply();
}

std::optional<uint32_t> ElemChainPass::ModeOf(VarRef v) const {
  const OptNode& n = g_->node(v.node);
  if (n.outputs.size() != 1) return std::nullopt;
  return n.elemwise_mode();
}

void ElemChainPass::Visit(uint32_t node) {
  rw_.AutoReplaceOutputs(node);
  const std::optional<uint32_t> mode = ModeOf({node, 0});
  bool input_changed = false;
  // The original graph's inputs, read by index: processing a chain adds nodes, which may
  // move the node's storage.
  for (size_t k = 0; k < g_->node(node).inputs.size(); ++k) {
    const VarRef in = g_->node(node).inputs[k];
    if (rw_.ReplacedByHand(in)) {
      input_changed = true;
      continue;
    }
    const std::optional<uint32_t> in_mode = ModeOf(in);
    // A chain is processed once its endpoint is met, so every chain below it is already
    // done: the pass runs in topological order.
    if (in_mode && (!mode || *in_mode != *mode || !readers_(in)) && IsChainMode(*in_mode)) {
      input_changed = true;
      g_->set_current_priority(g_->node(in.node).priority());
      Process(in, *in_mode);
      g_->set_current_priority(g_->node(node).priority());
    }
  }
  if (input_changed) rw_.AutoReplaceOutputs(node);
  if (mode && OnVisitFinished(node) && IsChainMode(*mode) && endpoints_.count({node, 0})) {
    Process({node, 0}, *mode);
  }
}

void ElemChainPass::Process(VarRef endpoint, uint32_t mode) {
  // A var read by several operators is met once per reader, and MegEngine processes its
  // chain each time: a chain that came out as it was is made again (deduplication finds the
  // same operators, its ids spent); one that was replaced is skipped above (ReplacedByHand).
  ProcessChain(endpoint, mode);
}

const std::vector<VarRef>& ElemChainPass::ChainTerms(VarRef endpoint, uint32_t mode) const {
  std::vector<VarRef>& leaves = leaves_;
  leaves.clear();
  std::vector<VarRef>& stack = stack_;
  stack.assign(1, endpoint);
  size_t expanded = 0;
  while (!stack.empty()) {
    const VarRef v = stack.back();
    stack.pop_back();
    const bool link = ModeOf(v) == mode && (v == endpoint || readers_(v));
    if (!link) {
      leaves.push_back(v);
    } else {
      const VarList& in = g_->node(v.node).inputs;
      for (auto it = in.rbegin(); it != in.rend(); ++it) stack.push_back(*it);
    }
    if (++expanded > kMaxChainTerms) {
      leaves.clear();
      return leaves;
    }
  }
  return leaves;
}

VarRef ReduceVarList(OprMaker* m, const std::vector<VarRef>& vars, uint32_t mode) {
  VarRef sum = vars.front();
  for (size_t k = 1; k < vars.size(); ++k) sum = m->Elemwise(mode, {sum, vars[k]});
  return sum;
}

}  // namespace graphport::mge::opt
