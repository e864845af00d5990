#include "mge/optimize/arith_fuse/arith_fuse.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "mge/dtype.h"
#include "mge/optimize/elem_chain.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/schema_numbers.h"

namespace graphport::mge::opt {
namespace {

// A map kept in the order its keys were first inserted (an erased key inserted again goes
// last). A vector: a chain has a few keys, and a list node per key was an allocation for
// each of the tens of thousands of chains of a large graph. Keys are compared with `Equal`.
template <typename Key, typename Value, typename Equal>
class InsertionMap {
 public:
  using Entries = std::vector<std::pair<Key, Value>>;
  Value& operator[](const Key& key) {
    auto it = Find(key);
    if (it != entries_.end()) return it->second;
    entries_.push_back({key, Value{}});
    return entries_.back().second;
  }
  typename Entries::iterator Find(const Key& key) {
    return std::find_if(entries_.begin(), entries_.end(),
                        [&](const auto& e) { return Equal()(e.first, key); });
  }
  typename Entries::iterator Erase(typename Entries::iterator it) { return entries_.erase(it); }
  Entries& entries() { return entries_; }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }

 private:
  Entries entries_;
};

using FactorPair = std::pair<VarRef, VarRef>;

// Shapes are held as pointers to the static shapes of the graph's vars (nodes never move):
// a chain's map keys then copy no shape, which was most of a chain's allocations.
using ShapeRef = const Shape*;
using ShapePair = std::pair<ShapeRef, ShapeRef>;
struct ShapeRefEqual {
  bool operator()(ShapeRef a, ShapeRef b) const { return *a == *b; }
};
struct ShapePairEqual {
  bool operator()(const ShapePair& a, const ShapePair& b) const {
    return *a.first == *b.first && *a.second == *b.second;
  }
};

class ArithFuser : public ElemChainPass {
 public:
  explicit ArithFuser(OptGraph* g) : ElemChainPass(g) {}

  PassReport Result() {
    Run();
    PassReport report{"ArithFuse", fma3_ + fma4_ + fused_add_ != 0, ""};
    if (report.changed) {
      report.summary = std::to_string(fma3_) + " FUSE_MUL_ADD3, " + std::to_string(fma4_) +
                       " FUSE_MUL_ADD4, " + std::to_string(fused_add_) + " FUSE_ADD_*";
    }
    return report;
  }

 private:
  bool IsChainMode(uint32_t mode) const override { return mode == kAdd; }

  void ProcessChain(VarRef endpoint, uint32_t mode) override {
    (void)mode;
    if (!ShapeOf(endpoint)) return;
    const std::vector<VarRef>& leaves = ChainTerms(endpoint, kAdd);
    if (leaves.empty()) return;
    products_.clear();
    bias_.clear();
    for (const VarRef& leaf : leaves) {
      const OptNode& n = g_->node(leaf.node);
      if (readers_(leaf) && ModeOf(leaf) == kMul && n.inputs.size() == 2) {
        VarRef a = n.inputs[0], b = n.inputs[1];
        if (!ShapeOf(a) || !ShapeOf(b)) return;
        if (ElementCount(*ShapeOf(a)) > ElementCount(*ShapeOf(b))) std::swap(a, b);
        a = rw_.Get(a);
        b = rw_.Get(b);
        if (!ShapeOf(a) || !ShapeOf(b)) return;
        products_[{&*ShapeOf(a), &*ShapeOf(b)}].push_back({a, b});
      } else {
        const VarRef v = rw_.Get(leaf);
        if (!ShapeOf(v)) return;
        bias_[&*ShapeOf(v)].push_back(v);
      }
    }
    if (products_.empty()) return;
    // Products of operands of one shape first: their results can be others' bias.
    for (auto it = products_.entries().begin(); it != products_.entries().end();) {
      if (*it->first.first != *it->first.second) {
        ++it;
        continue;
      }
      AddBias(FuseProducts(&it->second));
      it = products_.Erase(it);
    }
    // The others from the smallest broadcast shape up (fewer products first on a tie).
    std::vector<std::pair<size_t, std::vector<FactorPair>*>> sorted;
    for (auto& [shapes, terms] : products_.entries()) {
      const std::optional<Shape> out = BroadcastShapes({*shapes.first, *shapes.second});
      sorted.push_back({out ? ElementCount(*out) : 0, &terms});
    }
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return a.first < b.first || (a.first == b.first && a.second->size() < b.second->size());
    });
    for (auto& [size, terms] : sorted) AddBias(FuseProducts(terms));
    std::optional<VarRef> sum;
    for (auto& [shape, terms] : bias_.entries()) {
      const VarRef group = ReduceVarList(&m_, terms, kAdd);
      sum = sum ? m_.Elemwise(kAdd, {*sum, group}) : group;
    }
    rw_.Replace(endpoint, *sum);
  }

  void AddBias(VarRef v) {
    if (const std::optional<Shape>& shape = ShapeOf(v)) bias_[&*shape].push_back(v);
  }

  // The bias terms of `shape` summed and taken out, if there are any.
  std::optional<VarRef> PopBias(const Shape& shape) {
    auto it = bias_.Find(&shape);
    if (it == bias_.entries().end()) return std::nullopt;
    const VarRef sum = ReduceVarList(&m_, it->second, kAdd);
    bias_.Erase(it);
    return sum;
  }

  // Two products at a time from the back make FUSE_MUL_ADD4; a lone one takes a bias term.
  VarRef FuseProducts(std::vector<FactorPair>* terms) {
    std::optional<VarRef> sum;
    auto add = [&](VarRef v) { sum = sum ? m_.Elemwise(kAdd, {*sum, v}) : v; };
    while (terms->size() >= 2) {
      const FactorPair b = terms->back();
      terms->pop_back();
      const FactorPair a = terms->back();
      terms->pop_back();
      ++fma4_;
      add(m_.Elemwise(kFuseMulAdd4, {a.first, a.second, b.first, b.second}));
    }
    if (!terms->empty()) {
      const FactorPair t = terms->back();
      terms->pop_back();
      std::optional<VarRef> bias = PopBias(*ShapeOf(t.first));
      if (!bias) bias = PopBias(*ShapeOf(t.second));
      if (bias) {
        ++fma3_;
        add(m_.Elemwise(kFuseMulAdd3, {t.first, t.second, *bias}));
      } else {
        add(m_.Elemwise(kMul, {t.first, t.second}));
      }
    }
    return *sum;
  }

  bool OnVisitFinished(uint32_t node) override {
    const OptNode& n = g_->node(node);
    if (n.inputs.size() != 1 || !readers_(n.inputs[0])) return true;
    const VarRef sum = rw_.Get(n.inputs[0]);
    if (ModeOf(sum) != kAdd || g_->node(sum.node).inputs.size() != 2) return true;
    const std::optional<int> dtype = g_->var(n.inputs[0]).dtype;
    if (dtype && IsQuantized(*dtype)) return true;
    uint32_t fused;
    switch (*ModeOf({node, 0})) {
      case kRelu:
        fused = kFuseAddRelu;
        break;
      case kSigmoid:
        fused = kFuseAddSigmoid;
        break;
      case kTanh:
        fused = kFuseAddTanh;
        break;
      case kHSwishMode:
        fused = kFuseAddHSwish;
        break;
      default:
        return true;
    }
    const VarList in = g_->node(sum.node).inputs;
    rw_.Replace({node, 0}, m_.Elemwise(fused, in));
    ++fused_add_;
    return false;
  }

  InsertionMap<ShapePair, std::vector<FactorPair>, ShapePairEqual> products_;
  InsertionMap<ShapeRef, std::vector<VarRef>, ShapeRefEqual> bias_;
  uint32_t fma3_ = 0, fma4_ = 0, fused_add_ = 0;
};

}  // namespace

PassReport ArithFuse(OptGraph* g) { return ArithFuser(g).Result(); }

}  // namespace graphport::mge::opt
