#include "mge/optimize/final_arith_transform/final_arith_transform.h"

#include "mge/optimize/rewriter.h"
#include "mge/optimize/unique_readers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

class Transformer {
 public:
  explicit Transformer(OptGraph* g) : g_(g), rw_(g), readers_(*g), m_(rw_.maker()) {}

  uint32_t Run() {
    return rw_.RewriteRemade([&](uint32_t node) {
      const std::optional<uint32_t> mode = g_->node(node).elemwise_mode();
      if (!mode) return false;
      const VarList& in = g_->node(node).inputs;  // the original inputs
      std::optional<VarRef> out;
      if (*mode == kAdd && in.size() == 2) out = MergeInverses(in, false);
      if (*mode == kMul && in.size() == 2) out = MergeInverses(in, true);
      if (*mode == kPow && in.size() == 2) out = Power(in);
      if (out) rw_.Replace({node, 0}, *out);
      return out.has_value();
    });
  }

 private:
  // MegEngine's can_replace_var: the var has one reader; a var a re-made operator gave
  // keeps its original's count, one this pass made is free.
  bool Replaceable(VarRef original) const {
    return rw_.ReplacedByHand(original) || readers_(original);
  }

  // x when `v` is NEGATE(x) (additive) or pow(x, -1) / PowC(x, -1) (multiplicative).
  std::optional<VarRef> InverseOf(VarRef v, bool mul) const {
    const OptNode& n = g_->node(v.node);
    if (n.inputs.empty()) return std::nullopt;
    if (!mul) {
      if (n.elemwise_mode() == kNegate && n.inputs.size() == 1) return n.inputs[0];
      return std::nullopt;
    }
    if (g_->Key(v.node) == "PowC" && n.inputs.size() == 1) {
      const auto* p = reinterpret_cast<const param::PowC*>(n.op().params[0].table);
      if (AlmostEqual(p->exp(), -1.0f)) return n.inputs[0];
      return std::nullopt;
    }
    if (n.elemwise_mode() == kPow && n.inputs.size() == 2) {
      std::optional<float> e = ImmScalar(*g_, n.inputs[1]);
      if (e && AlmostEqual(*e, -1.0f)) return n.inputs[0];
    }
    return std::nullopt;
  }

  // a + (-b) -> a - b, (-a) + (-b) -> -(a + b); the same for * and reciprocals.
  std::optional<VarRef> MergeInverses(const VarList& in, bool mul) {
    const VarRef i0 = rw_.Get(in[0]), i1 = rw_.Get(in[1]);
    const std::optional<VarRef> n0 = InverseOf(i0, mul), n1 = InverseOf(i1, mul);
    const uint32_t add = mul ? kMul : kAdd, sub = mul ? kTrueDiv : kSub;
    if (!n0 && !n1) return std::nullopt;
    if (n0 && n1) {
      const VarRef both = m_.Elemwise(add, {*n0, *n1});
      return mul ? m_.PowC(both, -1.0f) : m_.Elemwise(kNegate, {both});
    }
    if (n0) return m_.Elemwise(sub, {i1, *n0});
    return m_.Elemwise(sub, {i0, *n1});
  }

  // pow(x, c) with c a constant scalar: PowC(x, c), or pow(y, a * c) over a singly read
  // pow(y, a).
  std::optional<VarRef> Power(const VarList& in) {
    const std::optional<float> e = ImmScalar(*g_, in[1]);
    if (!e) return std::nullopt;
    const VarRef base = rw_.Get(in[0]);
    const OptNode& b = g_->node(base.node);
    if (b.elemwise_mode() == kPow && b.inputs.size() == 2 && Replaceable(in[0])) {
      const VarRef x = b.inputs[0];
      const VarRef a = b.inputs[1];
      VarRef exp;
      if (AlmostEqual(*e, -1.0f)) {
        const std::optional<VarRef> neg =
            Replaceable(a) ? InverseOf(rw_.Get(a), false) : std::nullopt;
        exp = neg ? *neg : m_.Elemwise(kNegate, {rw_.Get(a)});
      } else {
        const VarRef a_now = rw_.Get(a);
        exp = m_.Elemwise(kMul,
                          {a_now, m_.ScalarImm(*e, g_->var(a_now).dtype.value_or(kF32), a_now)});
      }
      return m_.Elemwise(kPow, {x, exp});
    }
    return m_.PowC(base, *e);
  }

  OptGraph* g_;
  Rewriter rw_;
  UniqueReaders readers_;
  OprMaker& m_;
};

}  // namespace

PassReport FinalArithTransform(OptGraph* g) {
  return CountedReport("FinalArithTransform", Transformer(g).Run(),
                       "Elemwise made SUB, TRUE_DIV or PowC");
}

}  // namespace graphport::mge::opt
