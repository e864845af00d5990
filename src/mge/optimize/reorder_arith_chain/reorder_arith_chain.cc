#include "mge/optimize/reorder_arith_chain/reorder_arith_chain.h"

#include <algorithm>

#include "mge/optimize/const_vars.h"
#include "mge/optimize/elem_chain.h"
#include "mge/optimize/eval/kernels.h"

namespace graphport::mge::opt {
namespace {

// A term of the sum being built and the shape it stands for.
struct ShapedVar {
  Shape shape;
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

// The shape `a` and `b` broadcast to (equal shapes need no work: most terms have the same).
std::optional<Shape> Broadcast(const Shape& a, const Shape& b) {
  if (a == b) return a;
  return BroadcastShapes({a, b});
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
    std::vector<VarRef> leaves = ChainTerms(endpoint, mode);
    if (leaves.size() <= 1) return;
    // Sorted by id, so that the same terms in any order give the same sum.
    StableSort(&leaves, [&](VarRef a, VarRef b) { return g_->var(a).id < g_->var(b).id; });
    struct Group {
      Shape shape;
      std::vector<VarRef> terms[2];  // non-const, const
    };
    std::vector<Group> groups;
    for (const VarRef& leaf : leaves) {
      const std::optional<Shape>& shape = ShapeOf(leaf);
      if (!shape) return;  // a shape static inference cannot tell: the chain stays
      auto it = std::find_if(groups.begin(), groups.end(),
                             [&](const Group& gr) { return gr.shape == *shape; });
      if (it == groups.end()) it = groups.insert(groups.end(), Group{*shape, {}});
      it->terms[const_(leaf) ? 1 : 0].push_back(rw_.Get(leaf));
    }
    std::vector<ShapedVar> consts, others;
    for (const Group& gr : groups) {
      if (!gr.terms[0].empty()) others.push_back({gr.shape, ReduceVarList(&m_, gr.terms[0], mode)});
      if (!gr.terms[1].empty()) consts.push_back({gr.shape, ReduceVarList(&m_, gr.terms[1], mode)});
    }
    auto by_id = [&](const ShapedVar& a, const ShapedVar& b) {
      return g_->var(a.var).id < g_->var(b.var).id;
    };
    StableSort(&consts, by_id);
    StableSort(&others, by_id);
    Merge(mode, &consts, true);
    std::vector<ShapedVar> all = std::move(consts);
    all.insert(all.end(), others.begin(), others.end());
    Merge(mode, &all, false);
    Merge(mode, &all, true);
    StableSort(&all, [](const ShapedVar& a, const ShapedVar& b) {
      return ElementCount(a.shape) < ElementCount(b.shape);
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
  // both.
  void Merge(uint32_t mode, std::vector<ShapedVar>* vars, bool compatible) {
    for (bool merged = true; merged;) {
      merged = false;
      for (size_t i = 0; !merged && i < vars->size(); ++i) {
        const Shape& src = (*vars)[i].shape;
        std::optional<Shape> dst_shape;
        size_t dst = 0;
        for (size_t j = 0; j < vars->size(); ++j) {
          if (i == j) continue;
          std::optional<Shape> into;
          if (compatible) {
            std::optional<Shape> out = Broadcast(src, (*vars)[j].shape);
            if (out && (*out == src || *out == (*vars)[j].shape)) into = out;
          } else if ((*vars)[j].shape == src) {
            into = src;
          }
          if (into && (!dst_shape || ElementCount(*into) < ElementCount(*dst_shape))) {
            dst_shape = into;
            dst = j;
          }
        }
        if (!dst_shape) continue;
        (*vars)[dst].shape = *dst_shape;
        (*vars)[dst].var = m_.Elemwise(mode, {(*vars)[i].var, (*vars)[dst].var});
        std::swap((*vars)[i], vars->back());
        vars->pop_back();
        merged = true;
      }
    }
  }

  ConstVars const_;
  uint32_t reordered_ = 0;
};

}  // namespace

PassReport ReorderArithChain(OptGraph* g) { return Reorderer(g).Result(); }

}  // namespace graphport::mge::opt
