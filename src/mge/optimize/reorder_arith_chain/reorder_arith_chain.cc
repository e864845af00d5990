#include "mge/optimize/reorder_arith_chain/reorder_arith_chain.h"

#include <algorithm>

#include "mge/optimize/const_vars.h"
#include "mge/optimize/elem_chain.h"
#include "mge/optimize/eval/kernels.h"

namespace graphport::mge::opt {
namespace {

// A term of the sum being built and the shape it stands for: a shape of a var of the graph,
// which stays where it is (nodes never move), so that a chain's terms copy no shapes.
struct ShapedVar {
  const Shape* shape;
  VarRef var;
};

// std::stable_sort, without its buffer for the short lists nearly every chain has (a graph of
// 100k operators has tens of thousands of chains of two terms).
template <typename T, typename Less>
void StableSort(std::vector<T>* v, const Less& less) {
  if (v->size() > 16) {
    std::stable_sort(v->begin(), v->end(), less);
    return;
  }
  for (size_t i = 1; i < v->size(); ++i) {
    for (size_t j = i; j > 0 && less((*v)[j], (*v)[j - 1]); --j) std::swap((*v)[j], (*v)[j - 1]);
  }
}

class Reorderer : public ElemChainPass {
 public:
  explicit Reorderer(OptGraph* g) : ElemChainPass(g), const_(*g) {}

  PassReport Result() {
    Run();
    PassReport report{"ReorderArithChain", reordered_ != 0, ""};
    if (reordered_) report.summary = std::to_string(reordered_) + " arithmetic chains reordered";
    return report;
  }

 private:
  bool IsChainMode(uint32_t mode) const override {
    return mode == kAdd || mode == kMul || mode == kMax || mode == kMin;
  }

  void ProcessChain(VarRef endpoint, uint32_t mode) override {
    if (const_(endpoint)) return;
    std::vector<VarRef>& leaves = sorted_leaves_;
    leaves = ChainTerms(endpoint, mode);
    if (leaves.size() <= 1) return;
    // Sorted by id, so that the same terms in any order give the same sum.
    StableSort(&leaves, [&](VarRef a, VarRef b) { return g_->var(a).id < g_->var(b).id; });
    // The terms by shape, the shapes in the order first met; in each, the non-const terms
    // and then the const ones. Flat buffers kept across chains: tens of thousands of chains
    // of two terms each allocated a group list and its vectors.
    shapes_.clear();
    terms_.clear();
    for (const VarRef& leaf : leaves) {
      const std::optional<Shape>& shape = ShapeOf(leaf);
      if (!shape) return;  // a shape static inference cannot tell: the chain stays
      size_t group = 0;
      while (group < shapes_.size() && *shapes_[group] != *shape) ++group;
      if (group == shapes_.size()) shapes_.push_back(&*shape);
      terms_.push_back({group, const_(leaf), rw_.Get(leaf)});
    }
    consts_.clear();
    others_.clear();
    for (size_t group = 0; group < shapes_.size(); ++group) {
      for (const bool is_const : {false, true}) {
        list_.clear();
        for (const Term& t : terms_) {
          if (t.group == group && t.is_const == is_const) list_.push_back(t.var);
        }
        if (list_.empty()) continue;
        (is_const ? consts_ : others_).push_back({shapes_[group], ReduceVarList(&m_, list_, mode)});
      }
    }
    auto by_id = [&](const ShapedVar& a, const ShapedVar& b) {
      return g_->var(a.var).id < g_->var(b.var).id;
    };
    StableSort(&consts_, by_id);
    StableSort(&others_, by_id);
    Merge(mode, &consts_, true);
    std::vector<ShapedVar>& all = consts_;
    all.insert(all.end(), others_.begin(), others_.end());
    Merge(mode, &all, false);
    Merge(mode, &all, true);
    StableSort(&all, [](const ShapedVar& a, const ShapedVar& b) {
      return ElementCount(*a.shape) < ElementCount(*b.shape);
    });
    VarRef sum = all.front().var;
    for (size_t k = 1; k < all.size(); ++k) sum = m_.Elemwise(mode, {sum, all[k].var});
    if (rw_.Get(endpoint) != sum) {
      rw_.Replace(endpoint, sum);
      ++reordered_;
    }
  }

  // Merges terms two at a time until none can be: a term goes into the smallest other term
  // of equal shape, or (`compatible`) of a shape that the two broadcast to without growing
  // both (so the merged term's shape is always one of the two, never a new one).
  void Merge(uint32_t mode, std::vector<ShapedVar>* vars, bool compatible) {
    for (bool merged = true; merged;) {
      merged = false;
      for (size_t i = 0; !merged && i < vars->size(); ++i) {
        const Shape* src = (*vars)[i].shape;
        const Shape* dst_shape = nullptr;
        size_t dst = 0;
        for (size_t j = 0; j < vars->size(); ++j) {
          if (i == j) continue;
          const Shape* other = (*vars)[j].shape;
          const Shape* into = nullptr;
          if (*other == *src) {
            into = src;
          } else if (compatible) {
            const std::optional<Shape> out = BroadcastShapes({*src, *other});
            if (out && *out == *src) {
              into = src;
            } else if (out && *out == *other) {
              into = other;
            }
          }
          if (into && (!dst_shape || ElementCount(*into) < ElementCount(*dst_shape))) {
            dst_shape = into;
            dst = j;
          }
        }
        if (!dst_shape) continue;
        (*vars)[dst].shape = dst_shape;
        (*vars)[dst].var = m_.Elemwise(mode, {(*vars)[i].var, (*vars)[dst].var});
        std::swap((*vars)[i], vars->back());
        vars->pop_back();
        merged = true;
      }
    }
  }

  // A leaf of the chain being processed: its shape's group, whether it is const, its var.
  struct Term {
    size_t group;
    bool is_const;
    VarRef var;
  };
  std::vector<VarRef> sorted_leaves_;  // the chain's terms, sorted by id
  std::vector<const Shape*> shapes_;
  std::vector<Term> terms_;
  std::vector<VarRef> list_;
  std::vector<ShapedVar> consts_, others_;
  ConstVars const_;
  uint32_t reordered_ = 0;
};

}  // namespace

PassReport ReorderArithChain(OptGraph* g) { return Reorderer(g).Result(); }

}  // namespace graphport::mge::opt
