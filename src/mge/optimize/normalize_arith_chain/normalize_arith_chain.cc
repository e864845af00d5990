#include "mge/optimize/normalize_arith_chain/normalize_arith_chain.h"

#include <algorithm>

#include "mge/optimize/rewriter.h"
#include "mge/optimize/unique_readers.h"
#include "mge/optimize/var_set.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

// The two kinds of chain: their combining mode, inverse mode and unit.
enum class Kind { kNone, kAdd, kMul };

// One link of a chain as the pass sees it: a sum of two vars, a difference, or a var times a
// coefficient (Add) / to a power (Mul).
struct Link {
  enum Type { kSum, kDifference, kCoeff } type;
  VarRef a, b;  // kSum, kDifference: the two operands; kCoeff: a
  float coeff = 1;
};

class Normalizer {
 public:
  explicit Normalizer(OptGraph* g) : g_(g), rw_(g), readers_(*g), m_(rw_.maker()) {}

  PassReport Run() {
    rw_.ForEachOperator([&](uint32_t node) { Visit(node); });
    rw_.Apply();
    PassReport report{"NormalizeArithChain", rewritten_ != 0, ""};
    if (rewritten_) report.summary = std::to_string(rewritten_) + " arithmetic chains normalized";
    return report;
  }

 private:
  // Which kind of chain the operator of `v` belongs to.
  Kind KindOf(VarRef v) const {
    if (g_->Key(v.node) == "PowC") return Kind::kMul;
    const std::optional<uint32_t> mode = g_->node(v.node).elemwise_mode();
    if (!mode) return Kind::kNone;
    if (*mode == kAdd || *mode == kSub || *mode == kNegate) return Kind::kAdd;
    if (*mode == kMul || *mode == kTrueDiv) return Kind::kMul;
    const VarList& in = g_->node(v.node).inputs;
    if (*mode == kPow && in.size() == 2 && ImmScalar(*g_, in[1])) return Kind::kMul;
    return Kind::kNone;
  }

  // The link `v`'s operator makes in a chain of `kind`, if it is one.
  std::optional<Link> LinkOf(VarRef v, Kind kind) {
    const OptNode& n = g_->node(v.node);
    const VarList& in = n.inputs;
    if (g_->Key(v.node) == "PowC") {
      if (kind != Kind::kMul || in.size() != 1) return std::nullopt;
      return Link{Link::kCoeff, in[0], {}, PowCExp(n.op())};
    }
    const std::optional<uint32_t> mode = n.elemwise_mode();
    if (!mode) return std::nullopt;
    const uint32_t add = kind == Kind::kAdd ? kAdd : kMul;
    const uint32_t sub = kind == Kind::kAdd ? kSub : kTrueDiv;
    if (in.size() == 2 && *mode == add) return Link{Link::kSum, in[0], in[1]};
    if (in.size() == 2 && *mode == sub) return Link{Link::kDifference, in[0], in[1]};
    if (kind == Kind::kAdd) {
      if (*mode == kNegate && in.size() == 1) return Link{Link::kCoeff, in[0], {}, -1};
      if (*mode == kMul && in.size() == 2) {
        if (std::optional<float> c = ImmScalar(*g_, in[0]))
          return Link{Link::kCoeff, in[1], {}, *c};
        if (std::optional<float> c = ImmScalar(*g_, in[1]))
          return Link{Link::kCoeff, in[0], {}, *c};
        return std::nullopt;
      }
      if (*mode == kTrueDiv && in.size() == 2) {
        // MegEngine asks for the divisor's reciprocal as pow(divisor, -1), which makes that
        // operator (folded when the divisor is constant) whether it is used or not.
        const VarRef reciprocal = Pow(in[1], -1.0f);
        if (std::optional<float> c = ImmScalar(*g_, reciprocal)) {
          return Link{Link::kCoeff, in[0], {}, *c};
        }
      }
      return std::nullopt;
    }
    if (*mode == kPow && in.size() == 2) {
      if (std::optional<float> e = ImmScalar(*g_, in[1])) return Link{Link::kCoeff, in[0], {}, *e};
    }
    return std::nullopt;
  }

  static float PowCExp(const Operator& op) {
    if (op.params.empty() || op.params[0].table == nullptr) return 1;
    return reinterpret_cast<const param::PowC*>(op.params[0].table)->exp();
  }

  // opr::powf(x, e): Elemwise POW with a scalar exponent of x's dtype.
  VarRef Pow(VarRef x, float e) {
    return m_.Elemwise(kPow, {x, m_.ScalarImm(e, g_->var(x).dtype.value_or(kF32), x)});
  }

  void Visit(uint32_t node) {
    rw_.AutoReplaceOutputs(node);
    const VarRef out{node, 0};
    const Kind self = g_->node(node).outputs.empty() ? Kind::kNone : KindOf(out);
    bool input_changed = false;
    for (const VarRef& in : g_->node(node).inputs) {
      if (rw_.ReplacedByHand(in)) {
        input_changed = true;
        continue;
      }
      const Kind kind = KindOf(in);
      // A chain is processed from its endpoint: a var read by another kind of operator or
      // read twice (graph endpoints below), which keeps the pass linear.
      if (kind != Kind::kNone && (kind != self || readers_.Count(in) >= 2)) {
        input_changed = true;
        g_->set_current_priority(g_->node(in.node).priority());
        Process(in, kind);
        g_->set_current_priority(g_->node(node).priority());
      }
    }
    if (input_changed) rw_.AutoReplaceOutputs(node);
    if (self != Kind::kNone && IsEndpoint(out)) Process(out, self);
  }

  bool IsEndpoint(VarRef v) const {
    const std::vector<VarRef>& e = g_->endpoints();
    return std::find(e.begin(), e.end(), v) != e.end();
  }

  void Process(VarRef endpoint, Kind kind) {
    if (!processed_.Insert(endpoint)) return;
    const std::optional<int> dtype = g_->var(endpoint).dtype;
    if (kind == Kind::kMul && dtype && !IsFloatDType(*dtype)) return;  // not a closed group
    // The leaves as met (the var standing for each, its coefficient, and in which order),
    // in buffers kept across chains: a graph of 100k operators has tens of thousands.
    leaves_.clear();
    queue_.assign(1, {1.0f, endpoint});
    bool non_elemwise = false;
    size_t differences = 0, non_unit = 0;
    for (size_t head = 0; head < queue_.size(); ++head) {
      const auto [coeff, v] = queue_[head];
      if (v == endpoint || readers_.Count(v) <= 1) {
        if (std::optional<Link> link = LinkOf(v, kind)) {
          if (g_->Key(v.node) != "Elemwise") non_elemwise = true;
          switch (link->type) {
            case Link::kSum:
              queue_.push_back({coeff, link->a});
              queue_.push_back({coeff, link->b});
              break;
            case Link::kDifference:
              ++differences;
              queue_.push_back({coeff, link->a});
              queue_.push_back({coeff * -1.0f, link->b});
              break;
            case Link::kCoeff:
              if (link->coeff != 1) ++non_unit;
              queue_.push_back({coeff * link->coeff, link->a});
              break;
          }
          continue;
        }
      }
      leaves_.push_back({rw_.Get(v), coeff, leaves_.size()});
    }
    // Each var once, its coefficients summed in the order met, placed where it was first met.
    std::sort(leaves_.begin(), leaves_.end(), [](const Leaf& x, const Leaf& y) {
      return x.var != y.var ? x.var < y.var : x.order < y.order;
    });
    std::vector<Leaf>& terms = terms_;
    terms.clear();
    for (const Leaf& leaf : leaves_) {
      if (terms.empty() || terms.back().var != leaf.var) {
        terms.push_back({leaf.var, 0.0f, leaf.order});
      }
      terms.back().coeff += leaf.coeff;
    }
    if (differences == 0 && non_unit < 2 && leaves_.size() == terms.size() && !non_elemwise) {
      return;
    }
    std::sort(terms.begin(), terms.end(),
              [](const Leaf& x, const Leaf& y) { return x.order < y.order; });
    std::vector<std::pair<size_t, std::pair<VarRef, float>>> sorted;
    for (const Leaf& t : terms) sorted.push_back({t.order, {t.var, t.coeff}});
    std::optional<VarRef> sum;
    for (const auto& [order, leaf] : sorted) {
      const auto [x, c] = leaf;
      const int x_dtype = g_->var(x).dtype.value_or(kF32);
      VarRef term;
      if (AlmostEqual(c, 0)) {
        term = m_.Broadcast(m_.ScalarImm(kind == Kind::kAdd ? 0.0f : 1.0f, x_dtype, x),
                            m_.GetVarShape(x));
      } else if (AlmostEqual(c, 1)) {
        term = x;
      } else if (AlmostEqual(c, -1)) {
        term = kind == Kind::kAdd ? m_.Elemwise(kNegate, {x}) : Pow(x, -1.0f);
      } else {
        term = kind == Kind::kAdd ? m_.Elemwise(kMul, {x, m_.ScalarImm(c, x_dtype, x)}) : Pow(x, c);
      }
      sum = sum ? m_.Elemwise(kind == Kind::kAdd ? kAdd : kMul, {*sum, term}) : term;
    }
    if (sum && *sum != endpoint) {
      rw_.Replace(endpoint, *sum);
      ++rewritten_;
    }
  }

  OptGraph* g_;
  Rewriter rw_;
  UniqueReaders readers_;
  OprMaker& m_;
  VarSet processed_;
  uint32_t rewritten_ = 0;
  struct Leaf {
    VarRef var;
    float coeff = 0;
    size_t order = 0;
  };
  std::vector<Leaf> leaves_, terms_;
  std::vector<std::pair<float, VarRef>> queue_;
};

}  // namespace

PassReport NormalizeArithChain(OptGraph* g) { return Normalizer(g).Run(); }

}  // namespace graphport::mge::opt
