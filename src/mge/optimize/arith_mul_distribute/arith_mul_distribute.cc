#include "mge/optimize/arith_mul_distribute/arith_mul_distribute.h"

#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/unique_readers.h"

namespace graphport::mge::opt {
namespace {

// A chain flattened in postfix order: leaves, and the modes of the operators over them
// (all binary here).
struct ChainNode {
  bool leaf = true;
  VarRef var;         // leaf
  uint32_t mode = 0;  // operator
};
using Chain = std::vector<ChainNode>;

class Distributor {
 public:
  explicit Distributor(OptGraph* g) : g_(g), rw_(g), readers_(*g), m_(rw_.maker()) {}

  uint32_t Run() {
    return rw_.RewriteRemade(
        [&](uint32_t node) { return g_->node(node).elemwise_mode() == kMul && Visit(node); });
  }

 private:
  std::optional<size_t> Size(VarRef v) const {
    const std::optional<Shape>& s = g_->var(v).shape;
    if (!s) return std::nullopt;
    return ElementCount(*s);
  }

  // True when the product was distributed (its output replaced).
  bool Visit(uint32_t node) {
    const VarList& in = g_->node(node).inputs;  // the original graph's
    if (in.size() != 2) return false;
    const std::optional<Shape>& out = g_->var({node, 0}).shape;
    const std::optional<Shape>& s0 = g_->var(in[0]).shape;
    const std::optional<Shape>& s1 = g_->var(in[1]).shape;
    if (!out || !s0 || !s1) return false;
    const size_t n0 = ElementCount(*s0), n1 = ElementCount(*s1);
    if (n0 == n1 || (*out != *s0 && *out != *s1)) return false;
    const VarRef sum = n0 < n1 ? in[1] : in[0];
    const VarRef factor = n0 < n1 ? in[0] : in[1];
    std::optional<VarRef> result = Distribute(sum, factor);
    if (result) rw_.Replace({node, 0}, *result);
    return result.has_value();
  }

  // The chain of `mode` operators under `root`, each singly read.
  Chain Extract(VarRef root, uint32_t mode) const {
    Chain chain;
    Walk(root, mode, &chain);
    return chain;
  }
  void Walk(VarRef v, uint32_t mode, Chain* chain) const {
    const OptNode& n = g_->node(v.node);
    if (n.elemwise_mode() == mode && n.inputs.size() == 2 && readers_(v)) {
      for (const VarRef& in : n.inputs) Walk(in, mode, chain);
      chain->push_back({false, {}, mode});
      return;
    }
    chain->push_back({true, v, 0});
  }

  VarRef Rebuild(const Chain& chain) {
    std::vector<VarRef> stack;
    for (const ChainNode& c : chain) {
      if (c.leaf) {
        stack.push_back(c.var);
        continue;
      }
      const VarRef b = stack.back();
      stack.pop_back();
      const VarRef a = stack.back();
      stack.pop_back();
      stack.push_back(m_.Elemwise(c.mode, {a, b}));
    }
    return stack.back();
  }

  std::optional<VarRef> Distribute(VarRef sum, VarRef factor) {
    const VarRef mul = rw_.Get(factor);
    const std::optional<Shape>& mul_shape = g_->var(mul).shape;
    if (!mul_shape) return std::nullopt;
    Chain add_chain = Extract(sum, kAdd);
    if (add_chain.size() < 3) return std::nullopt;
    std::optional<size_t> remaining = Size(sum);
    if (!remaining) return std::nullopt;
    std::vector<std::pair<Chain, size_t>> terms;
    for (const ChainNode& term : add_chain) {
      if (!term.leaf) continue;
      Chain mul_chain = Extract(term.var, kMul);
      size_t best_pos = 0, best_size = *remaining;
      for (size_t i = 0; i < mul_chain.size(); ++i) {
        if (!mul_chain[i].leaf) continue;
        mul_chain[i].var = rw_.Get(mul_chain[i].var);
        const std::optional<Shape>& s = g_->var(mul_chain[i].var).shape;
        // The factor must broadcast to this leaf's shape without growing it.
        if (!s || BroadcastShapes({*mul_shape, *s}) != *s) continue;
        if (ElementCount(*s) < best_size) {
          best_size = ElementCount(*s);
          best_pos = i;
        }
      }
      if (best_size == *remaining) return std::nullopt;
      *remaining -= best_size;
      terms.push_back({std::move(mul_chain), best_pos});
    }
    size_t k = 0;
    for (ChainNode& term : add_chain) {
      if (!term.leaf) continue;
      auto& [mul_chain, pos] = terms[k++];
      mul_chain[pos].var = m_.Elemwise(kMul, {mul_chain[pos].var, mul});
      term.var = Rebuild(mul_chain);
    }
    return Rebuild(add_chain);
  }

  OptGraph* g_;
  Rewriter rw_;
  UniqueReaders readers_;
  OprMaker& m_;
};

}  // namespace

PassReport ArithMulDistribute(OptGraph* g) {
  return CountedReport("ArithMulDistribute", Distributor(g).Run(),
                       "products distributed over sums");
}

}  // namespace graphport::mge::opt
