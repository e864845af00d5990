#include "mge/optimize/param_redistribute/param_redistribute.h"

#include <map>
#include <set>

#include "mge/optimize/const_vars.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/opr_name.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/optimize/unique_readers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

// A bound on the rewrites one operator sets off: each shrinks the chain it works on, so a
// real graph stops long before; a hostile one must not spin.
constexpr int kMaxStepsPerOperator = 1 << 14;

// What a rewrite gives: the new value of the var and the operators it made on the way that
// may be rewritten in turn (the new weights, the new convolution).
struct Trans {
  VarRef result;
  std::vector<VarRef> internal;
};

class Redistributor {
 public:
  explicit Redistributor(OptGraph* g) : g_(g), rw_(g), readers_(*g), m_(rw_.maker()), const_(*g) {}

  PassReport Run() {
    rw_.ForEachOperator([&](uint32_t node) { Visit(node); });
    rw_.Apply();
    PassReport report{"ParamRedistribute", rewritten_ != 0, ""};
    if (rewritten_) {
      report.summary = std::to_string(rewritten_) + " vars rewritten (" + Rules() + ")";
    }
    return report;
  }

 private:
  std::string Rules() const {
    std::string text;
    for (const auto& [rule, count] : rules_) {
      text += (text.empty() ? "" : ", ") + rule + " " + std::to_string(count);
    }
    return text;
  }

  // MegEngine's RecursiveSubGraphRewriteHelper: the operator's output, and then each result
  // and internal var of a rewrite, rewritten until nothing applies; the last result replaces
  // the original var.
  void Visit(uint32_t node) {
    if (!ShouldProcess(node)) return;
    const std::optional<VarRef> orig = SingleOutput(node);
    if (!orig) return;
    struct Frame {
      VarRef orig;
      uint32_t node;
    };
    std::vector<Frame> stack{{*orig, rw_.Get(*orig).node}};
    bool first = true;
    for (int steps = 0; !stack.empty() && steps < kMaxStepsPerOperator; ++steps) {
      const Frame f = stack.back();
      stack.pop_back();
      const bool process = first || ShouldProcess(f.node);
      first = false;
      const std::optional<VarRef> out = SingleOutput(f.node);
      if (!out) continue;
      const VarRef cur = rw_.Get(*out);
      if (process) {
        if (std::optional<Trans> t = Process(cur)) {
          stack.push_back({f.orig, t->result.node});
          for (auto it = t->internal.rbegin(); it != t->internal.rend(); ++it) {
            stack.push_back({*it, it->node});
          }
          continue;
        }
      }
      if (rw_.Get(f.orig) != cur) {
        origin_[cur] = Origin(f.orig);
        rw_.Replace(f.orig, cur);
        if (f.orig == *orig) ++rewritten_;
        if (stack.empty()) break;
      }
    }
  }

  // MegEngine's on_new_opr: the operator re-made on replaced inputs, and worked on when it
  // has a const input and a non-const one.
  bool ShouldProcess(uint32_t node) {
    rw_.AutoReplaceOutputs(node);
    for (uint32_t k = 0; k < g_->node(node).outputs.size(); ++k) {
      const VarRef now = rw_.Get({node, k});
      if (now != VarRef{node, k}) origin_[now] = Origin({node, k});
    }
    if (blacklist_.count(node)) return false;
    bool some = false, all = true;
    for (const VarRef& in : g_->node(node).inputs) {
      const bool c = const_(in);
      some = some || c;
      all = all && c;
    }
    return some && !all;
  }

  std::optional<VarRef> SingleOutput(uint32_t node) const {
    const OptNode& n = g_->node(node);
    if (n.outputs.size() == 1) return VarRef{node, 0};
    // A convolution's or matrix product's second output is its workspace.
    const std::string_view key = g_->Key(node);
    if (n.outputs.size() == 2 && (key == "Convolution" || key == "MatrixMul")) {
      return VarRef{node, 0};
    }
    return std::nullopt;
  }

  // The loaded var a re-made one stands for: it keeps that one's readers (UniqReaderCheck).
  VarRef Origin(VarRef v) const {
    auto it = origin_.find(v);
    return it == origin_.end() ? v : it->second;
  }
  bool Unique(VarRef v) const { return readers_.Count(Origin(v)) <= 1; }

  std::optional<uint32_t> ModeOf(VarRef v) const {
    if (g_->node(v.node).outputs.size() != 1) return std::nullopt;
    return g_->node(v.node).elemwise_mode();
  }
  bool Commutable(uint32_t node) const {
    const std::optional<uint32_t> mode = ModeOf({node, 0});
    return mode && g_->node(node).inputs.size() == 2 &&
           (*mode == kAdd || *mode == kMul || *mode == kMax || *mode == kMin);
  }

  // The operator as f(non-const, const), swapping the inputs of a commutable one.
  bool NonConstThenConst(uint32_t node, bool* swap, VarRef* nci, VarRef* ci) const {
    const VarList& in = g_->node(node).inputs;
    if (in.size() != 2) return false;
    *nci = in[0];
    *ci = in[1];
    *swap = false;
    if (!const_(*ci)) {
      if (!Commutable(node) || !const_(*nci)) return false;
      *swap = true;
      std::swap(*nci, *ci);
      return true;
    }
    return !const_(*nci);
  }

  std::optional<Trans> Process(VarRef cur) {
    if (std::optional<Trans> t = Reassociate(cur.node)) return t;
    if (std::optional<Trans> t = DistributeAdd(cur.node)) return t;
    return DistributeThenReassociate(cur.node);
  }

  std::optional<Trans> Reassociate(uint32_t node) {
    bool swap_f, swap_g;
    VarRef ab, c, a, b;
    if (!NonConstThenConst(node, &swap_f, &ab, &c) || !Unique(ab)) return std::nullopt;
    if (!NonConstThenConst(ab.node, &swap_g, &a, &b)) return std::nullopt;
    const std::string_view f = g_->Key(node), gk = g_->Key(ab.node);
    std::optional<Trans> t;
    if (f == "Elemwise" && gk == "Elemwise") t = ElemArith(node, ab.node, a, b, c);
    if (f == "Convolution" && gk == "Elemwise") t = ConvMul(node, ab.node, a, b, c);
    if (f == "MatrixMul" && gk == "Elemwise") t = MatmulMul(node, ab.node, a, b, c);
    if (f == "Elemwise" && gk == "Convolution") t = MulConv(node, ab.node, a, b, c);
    if (f == "Elemwise" && gk == "MatrixMul") t = MulMatmul(node, ab.node, a, b, c);
    return t;
  }

  std::optional<Trans> DistributeAdd(uint32_t node) {
    const VarList& in = g_->node(node).inputs;
    if (g_->Key(node) == "Elemwise" || in.size() != 2 || !const_(in[1])) return std::nullopt;
    const VarRef ab = in[0];
    if (ModeOf(ab) != kAdd) return std::nullopt;
    bool swap;
    VarRef a, b;
    if (!NonConstThenConst(ab.node, &swap, &a, &b)) return std::nullopt;
    const std::string_view f = g_->Key(node);
    if (f == "Convolution") return ConvAdd(node, a, b, in[1]);
    if (f == "MatrixMul") return MatmulAdd(node, a, b, in[1]);
    return std::nullopt;
  }

  // (x0 + x1 + ...) * k -> x0 * k + x1 * k + ..., each product reassociated into its
  // parameters; at most one term may fail to be.
  std::optional<Trans> DistributeThenReassociate(uint32_t node) {
    const std::optional<uint32_t> mode = ModeOf({node, 0});
    if (!mode || (*mode != kMul && *mode != kTrueDiv)) return std::nullopt;
    bool swap;
    VarRef a, b;
    if (!NonConstThenConst(node, &swap, &a, &b)) return std::nullopt;
    std::vector<VarRef> chain = SumTerms(a);
    if (chain.size() <= 1) return std::nullopt;
    std::map<VarRef, VarRef> done;
    int failed = 0, succeeded = 0;
    for (VarRef& term : chain) {
      if (auto it = done.find(term); it != done.end()) {
        term = it->second;
        continue;
      }
      VarRef product = m_.Elemwise(kMul, {term, b});
      blacklist_.insert(product.node);
      if (!const_(term)) {
        std::optional<Trans> t = Reassociate(product.node);
        if (!t) {
          if (failed++) return std::nullopt;
        } else {
          ++succeeded;
          product = t->result;
        }
      }
      done[term] = product;
      term = product;
    }
    if (!succeeded) return std::nullopt;
    ++rules_["distribute"];
    VarRef sum = chain[0];
    for (size_t k = 1; k < chain.size(); ++k) sum = m_.Elemwise(kAdd, {sum, chain[k]});
    return Trans{sum, {}};
  }

  // The terms of the sum under `root`: ADD operators read once (or const) are taken apart,
  // depth first in input order.
  std::vector<VarRef> SumTerms(VarRef root) const {
    std::vector<VarRef> leaves, stack{root};
    while (!stack.empty()) {
      const VarRef v = stack.back();
      stack.pop_back();
      if (ModeOf(v) == kAdd && (Unique(v) || const_(v)) && leaves.size() < (1u << 16)) {
        const VarList& in = g_->node(v.node).inputs;
        for (auto it = in.rbegin(); it != in.rend(); ++it) stack.push_back(*it);
      } else {
        leaves.push_back(v);
      }
    }
    return leaves;
  }

  // ---- the rules (MegEngine's BinaryTrans20) ----

  // (a + b) + c -> a + (b + c), for ADD, MUL, MAX, MIN, when b + c broadcasts to b or c.
  std::optional<Trans> ElemArith(uint32_t f, uint32_t gop, VarRef a, VarRef b, VarRef c) {
    const std::optional<uint32_t> mode = ModeOf({f, 0});
    if (!mode || mode != ModeOf({gop, 0})) return std::nullopt;
    if (*mode != kAdd && *mode != kMul && *mode != kMax && *mode != kMin) return std::nullopt;
    const std::optional<Shape>& bs = g_->var(b).shape;
    const std::optional<Shape>& cs = g_->var(c).shape;
    if (!bs || !cs) return std::nullopt;
    const std::optional<Shape> bc = BroadcastShapes({*bs, *cs});
    if (!bc || (*bc != *bs && *bc != *cs)) return std::nullopt;
    const VarRef inner = m_.Elemwise(*mode, {b, c});
    ++rules_["reassociate"];
    return Trans{m_.Elemwise(*mode, {a, inner}), {inner}};
  }

  const param::Convolution* ConvParam(uint32_t node) const {
    const Operator& op = g_->node(node).op();
    if (op.params.empty() || op.params[0].type != kConvolutionParam) return nullptr;
    const auto* p = reinterpret_cast<const param::Convolution*>(op.params[0].table);
    return p != nullptr && p->format() == param::ConvolutionFormat_NCHW ? p : nullptr;
  }
  const param::MatrixMul* MatmulParam(uint32_t node) const {
    const Operator& op = g_->node(node).op();
    if (op.params.empty() || op.params[0].type != kMatrixMulParam) return nullptr;
    return reinterpret_cast<const param::MatrixMul*>(op.params[0].table);
  }

  // A multiplier a convolution can take into its weights: 1 on every axis but the channel
  // axis (the third from the end).
  bool PerChannel(VarRef k) const {
    const std::optional<Shape>& s = g_->var(k).shape;
    if (!s || s->empty()) return false;
    for (size_t i = 0; i < s->size(); ++i) {
      if (i + 3 != s->size() && (*s)[i] != 1) return false;
    }
    return true;
  }
  bool Scalar(VarRef k) const {
    const std::optional<Shape>& s = g_->var(k).shape;
    return s && s->size() == 1 && (*s)[0] == 1;
  }
  VarRef One(VarRef like) { return m_.ShapeImm({1}, like); }

  // A convolution like `conv` on (x, w): its param and execution policy, not its config
  // (research §2.3 P7), so a new one has MegEngine's default name.
  VarRef RemakeConv(uint32_t conv, VarRef x, VarRef w) {
    const size_t before = g_->size();
    const uint32_t made = m_.Copy(conv, {x, w}, /*keep_var_names=*/false);
    if (made >= before && g_->Key(made) == "Convolution") {
      g_->mutable_node(made).mutable_op().output_dtype.reset();
      g_->set_opr_name(made, DefaultOprName(*g_, made));
    }
    return {made, 0};
  }

  // conv(x * k, w) -> conv(x, k * w), k per input channel (or a scalar).
  std::optional<Trans> ConvMul(uint32_t conv, uint32_t gop, VarRef a, VarRef b, VarRef c) {
    const param::Convolution* p = ConvParam(conv);
    if (p == nullptr || ModeOf({gop, 0}) != kMul || !PerChannel(b)) return std::nullopt;
    VarRef k = b;
    if (p->sparse() == param::ConvolutionV0Sparse_GROUP && !Scalar(k)) {
      // Group weights (G, OCPG, ICPG, FH, FW): k as (G, 1, ICPG, 1, 1).
      const VarRef one = One(c);
      k = m_.Reshape(k, m_.Concat({m_.GetVarShape(c, 0), one, m_.GetVarShape(c, 2), one, one}, 0));
    }
    const VarRef w = m_.Elemwise(kMul, {k, c});
    ++rules_["conv(x*k,w)"];
    return Trans{RemakeConv(conv, a, w), {w}};
  }

  // conv(x, w) * k -> conv(x, k' * w), k per output channel (or a scalar).
  std::optional<Trans> MulConv(uint32_t f, uint32_t conv, VarRef a, VarRef b, VarRef c) {
    const param::Convolution* p = ConvParam(conv);
    if (p == nullptr || ModeOf({f, 0}) != kMul || !PerChannel(c)) return std::nullopt;
    VarRef k = c;
    if (p->sparse() == param::ConvolutionV0Sparse_GROUP) {
      // (G, OCPG, 1, 1, 1)
      const VarRef one = One(b);
      const VarRef target =
          m_.Concat({m_.GetVarShape(b, 0), m_.GetVarShape(b, 1), one, one, one}, 0);
      k = Scalar(k) ? m_.Broadcast(k, target) : m_.Reshape(k, target);
    } else {
      k = m_.Reshape(k, m_.ShapeImm({1, 1, 1, 1}, k), 0);  // (-1, 1, 1, 1)
    }
    const VarRef w = m_.Elemwise(kMul, {k, b});
    ++rules_["conv(x,w)*k"];
    return Trans{RemakeConv(conv, a, w), {w}};
  }

  // A vector or matrix operand as the matrix it stands for: (n) is (1, n).
  std::optional<Shape> AsMatrix(VarRef v) const {
    const std::optional<Shape>& s = g_->var(v).shape;
    if (!s || s->empty() || s->size() > 2) return std::nullopt;
    if (s->size() == 1) return Shape{1, (*s)[0]};
    return s;
  }
  // flatten(): Reshape to one axis.
  VarRef Flatten(VarRef v) { return m_.Reshape(v, m_.ShapeImm({1}, v), 0); }

  // matmul(x * k, w) -> matmul(x, k' * w), k broadcast along x's rows.
  std::optional<Trans> MatmulMul(uint32_t mm, uint32_t gop, VarRef a, VarRef b, VarRef c) {
    const param::MatrixMul* p = MatmulParam(mm);
    if (p == nullptr || ModeOf({gop, 0}) != kMul) return std::nullopt;
    const std::optional<Shape> bs = AsMatrix(b);
    if (!bs || (*bs)[p->transposeA() ? 1 : 0] != 1) return std::nullopt;
    const VarRef k = m_.Dimshuffle(
        Flatten(b), p->transposeB() ? std::vector<int32_t>{-1, 0} : std::vector<int32_t>{0, -1});
    const VarRef w = m_.Elemwise(kMul, {k, c});
    ++rules_["matmul(x*k,w)"];
    return Trans{{m_.Copy(mm, {a, w}, false), 0}, {w}};
  }

  // matmul(x, w) * k -> matmul(x, k' * w), k a row vector.
  std::optional<Trans> MulMatmul(uint32_t f, uint32_t mm, VarRef a, VarRef b, VarRef c) {
    const param::MatrixMul* p = MatmulParam(mm);
    if (p == nullptr || ModeOf({f, 0}) != kMul) return std::nullopt;
    const std::optional<Shape> cs = AsMatrix(c);
    if (!cs || (*cs)[0] != 1) return std::nullopt;
    const VarRef k = m_.Dimshuffle(
        Flatten(c), p->transposeB() ? std::vector<int32_t>{0, -1} : std::vector<int32_t>{-1, 0});
    const VarRef w = m_.Elemwise(kMul, {k, b});
    ++rules_["matmul(x,w)*k"];
    return Trans{{m_.Copy(mm, {a, w}, false), 0}, {w}};
  }

  // conv(x + b, w) -> conv(x, w) + b', b' the convolution of the constant b with w, summed
  // per output channel; only without padding, where every window sees all of b.
  std::optional<Trans> ConvAdd(uint32_t conv, VarRef a, VarRef b, VarRef w) {
    const param::Convolution* p = ConvParam(conv);
    if (p == nullptr || !PerChannel(b) || p->pad_h() != 0 || p->pad_w() != 0) return std::nullopt;
    const VarRef inner = RemakeConv(conv, a, w);
    const VarRef one = One(w);
    VarRef bias;
    if (p->sparse() == param::ConvolutionV0Sparse_GROUP) {
      VarRef b1 =
          m_.Reshape(b, m_.Concat({m_.GetVarShape(w, 0), one, m_.GetVarShape(w, 2), one, one}, 0));
      b1 = m_.Elemwise(kMul, {b1, w});
      b1 = m_.ReduceTo(b1, kReduceSum,
                       m_.Concat({m_.GetVarShape(w, 0), m_.GetVarShape(w, 1), one, one, one}, 0));
      bias = m_.Reshape(b1, m_.ShapeImm({1, 1, 1, 1}, b1), 1);  // (1, -1, 1, 1)
    } else {
      VarRef b1 = m_.Elemwise(kMul, {b, w});
      const VarRef target = m_.Concat({m_.GetVarShape(w, 0), one}, 0);  // (OC, 1)
      b1 = m_.ReduceTo(m_.Reshape(b1, target, 1), kReduceSum, target);
      bias = m_.Dimshuffle(b1, {-1, 0, 1, -1});  // (1, OC, 1, 1)
    }
    ++rules_["conv(x+b,w)"];
    return Trans{m_.Elemwise(kAdd, {bias, inner}), {inner}};
  }

  // matmul(x + b, w) -> matmul(broadcast(b), w) + matmul(x, w), b a vector along x's rows.
  std::optional<Trans> MatmulAdd(uint32_t mm, VarRef a, VarRef b, VarRef c) {
    const param::MatrixMul* p = MatmulParam(mm);
    std::optional<Shape> bs = AsMatrix(b);
    const std::optional<Shape>& cs = g_->var(c).shape;
    if (p == nullptr || !bs || (*bs)[p->transposeA() ? 1 : 0] != 1 || !cs || cs->size() != 2) {
      return std::nullopt;
    }
    (*bs)[p->transposeA() ? 0 : 1] = (*cs)[p->transposeB() ? 1 : 0];
    std::vector<int32_t> dims((*bs).begin(), (*bs).end());
    const VarRef bias = {m_.Copy(mm, {m_.Broadcast(b, m_.ShapeImm(dims, b)), c}, false), 0};
    const VarRef inner = {m_.Copy(mm, {a, c}, false), 0};
    ++rules_["matmul(x+b,w)"];
    return Trans{m_.Elemwise(kAdd, {bias, inner}), {inner}};
  }

  OptGraph* g_;
  Rewriter rw_;
  UniqueReaders readers_;
  OprMaker& m_;
  ConstVars const_;
  std::map<VarRef, VarRef> origin_;
  std::set<uint32_t> blacklist_;
  std::map<std::string, uint32_t> rules_;
  uint32_t rewritten_ = 0;
};

}  // namespace

PassReport ParamRedistribute(OptGraph* g) { return Redistributor(g).Run(); }

}  // namespace graphport::mge::opt
