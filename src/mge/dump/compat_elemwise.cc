// The Elemwise, ElemwiseMultiType and Where converters (basic_arith.sereg.h, nn_int.sereg.h,
// misc.sereg.h): the modes FBS v1 lacks, decomposed into older modes.
#include <limits>

#include "mge/dtype.h"
#include "mge/dump/compat_converters.h"

namespace graphport::mge::compat {
namespace {

// ElemwiseMultiTypeMode values.
enum MultiMode : uint32_t {
  M_EQ = 58,
  M_NEQ = 59,
  M_LT = 60,
  M_LEQ = 61,
  M_ISNAN = 62,
  M_ISINF = 63
};

}  // namespace

bool ElemwiseNeedsRewrite(uint32_t m) {
  switch (m) {
    case SQRT:
    case SQUARE:
    case TAN:
    case COSH:
    case SINH:
    case ASINH:
    case ACOSH:
    case ATANH:
    case CLIP:
    case SIGN:
    case HSIGMOID:
    case RELU6:
    case PRELU:
    case SOFTPLUS:
    case LOGSIGMOID:
      return true;
    default:
      return false;
  }
}

bool MultiTypeNeedsRewrite(uint32_t m) { return m >= M_EQ && m <= M_ISINF; }

void RequireFloat32(const Builder& b, const Node& n, size_t count) {
  for (size_t k = 0; k < count && k < n.inputs.size(); ++k) {
    std::optional<int> t = b.DTypeOf(n.inputs[k]);
    if (!t || *t != kFloat32) {
      b.Unsupported("the compatibility rewrite is implemented for Float32 inputs; input " +
                    std::to_string(k) + " is " +
                    (t ? DTypeName(*t) : std::string("of unknown dtype")));
    }
  }
}

Ref ConvertElemwise(Builder& b, const Node& n) {
  const uint32_t mode = ParamMode(n.op, kElemwiseParam);
  const std::vector<Ref>& in = n.inputs;
  RequireFloat32(b, n, in.size());
  if (in.size() != (mode == CLIP ? 3u : mode == PRELU ? 2u : 1u)) {
    b.Unsupported("wrong number of inputs for its mode");
  }
  Ref x = in[0];
  switch (mode) {
    case SQRT:
      return b.Elemwise(POW, {x, b.Const(0.5f, x)});
    case SQUARE:
      return b.Elemwise(POW, {x, b.Const(2.0f, x)});
    case TAN: {
      Ref s = b.Elemwise(SIN, {x});
      Ref c = b.Elemwise(COS, {x});
      return b.Elemwise(TRUE_DIV, {s, c});
    }
    case COSH: {
      Ref h = b.Const(0.5f, x);
      Ref e = b.Elemwise(EXP, {x});
      Ref neg = b.Elemwise(NEGATE, {x});
      Ref en = b.Elemwise(EXP, {neg});
      Ref a = b.Elemwise(ADD, {e, en});
      return b.Elemwise(MUL, {h, a});
    }
    case SINH: {
      Ref t = b.Const(2.0f, x), h = b.Const(0.5f, x), o = b.Const(1.0f, x);
      Ref u = b.Elemwise(EXPM1, {x});
      Ref p = b.Elemwise(MUL, {u, h});
      Ref q1 = b.Elemwise(ADD, {u, o});
      Ref q2 = b.Elemwise(ADD, {u, t});
      Ref r = b.Elemwise(TRUE_DIV, {p, q1});
      return b.Elemwise(MUL, {r, q2});
    }
    case ASINH:
    case ACOSH: {
      Ref t = b.Const(2.0f, x), h = b.Const(0.5f, x), o = b.Const(1.0f, x);
      Ref s = b.Elemwise(POW, {x, t});
      Ref a = b.Elemwise(mode == ASINH ? ADD : SUB, {s, o});
      Ref r = b.Elemwise(POW, {a, h});
      Ref sum = b.Elemwise(ADD, {x, r});
      return b.Elemwise(LOG, {sum});
    }
    case ATANH: {
      Ref t = b.Const(2.0f, x), o = b.Const(1.0f, x);
      Ref p = b.Elemwise(MUL, {t, x});
      Ref q = b.Elemwise(SUB, {o, x});
      Ref r = b.Elemwise(TRUE_DIV, {p, q});
      Ref l = b.Elemwise(LOG1P, {r});
      return b.Elemwise(TRUE_DIV, {l, t});
    }
    case CLIP: {
      Ref m = b.Elemwise(MAX_, {x, in[1]});
      return b.Elemwise(MIN_, {m, in[2]});
    }
    case SIGN: {
      Ref zero = b.Const(0.0f, x);
      Ref lt = b.Elemwise(LT, {x, zero});
      Ref gt = b.Elemwise(LT, {zero, x});
      return b.Elemwise(SUB, {lt, gt});
    }
    case HSIGMOID: {
      Ref six = b.Const(6.0f, x), zero = b.Const(0.0f, x), three = b.Const(3.0f, x);
      Ref a = b.Elemwise(ADD, {x, three});
      Ref m = b.Elemwise(MAX_, {a, zero});
      Ref c = b.Elemwise(MIN_, {m, six});
      return b.Elemwise(TRUE_DIV, {c, six});
    }
    case RELU6: {
      Ref six = b.Const(6.0f, x), zero = b.Const(0.0f, x);
      Ref a = b.Elemwise(MAX_, {x, zero});
      return b.Elemwise(MIN_, {a, six});
    }
    case PRELU: {
      Ref zero = b.Const(0.0f, x);
      Ref lo = b.Elemwise(MIN_, {x, zero});
      Ref hi = b.Elemwise(MAX_, {x, zero});
      return b.Elemwise(FUSE_MUL_ADD3, {lo, in[1], hi});
    }
    case SOFTPLUS:
    case LOGSIGMOID: {
      Ref a = b.Elemwise(ABS, {x});
      Ref neg = b.Elemwise(NEGATE, {a});
      Ref e = b.Elemwise(EXP, {neg});
      Ref l = b.Elemwise(LOG1P, {e});
      if (mode == SOFTPLUS) return b.Elemwise(ADD, {l, b.Elemwise(RELU, {x})});
      Ref nx = b.Elemwise(NEGATE, {x});
      Ref r = b.Elemwise(RELU, {nx});
      Ref s = b.Elemwise(ADD, {l, r});
      return b.Elemwise(NEGATE, {s});
    }
    default:
      b.Unsupported("no converter for Elemwise mode " + std::to_string(mode));
  }
}

Ref ConvertMultiType(Builder& b, const Node& n) {
  const uint32_t mode = ParamMode(n.op, kMultiTypeParam);
  size_t arity = mode == M_ISNAN || mode == M_ISINF ? 1 : 2;
  if (n.inputs.size() != arity) b.Unsupported("wrong number of inputs for its mode");
  std::optional<int> t0 = b.DTypeOf(n.inputs[0]);
  std::optional<int> t1 = arity == 2 ? b.DTypeOf(n.inputs[1]) : t0;
  if (!t0 || !t1 || *t0 != *t1) {
    b.Unsupported("the compatibility rewrite needs inputs of one known dtype");
  }
  Ref x = n.inputs[0];
  switch (mode) {
    case M_EQ:
    case M_LT:
    case M_LEQ: {
      uint32_t m = mode == M_EQ ? EQ : mode == M_LT ? LT : LEQ;
      return b.TypeCvt(b.Elemwise(m, {x, n.inputs[1]}), kBool);
    }
    case M_NEQ:
      return b.Elemwise(NOT, {b.TypeCvt(b.Elemwise(EQ, {x, n.inputs[1]}), kBool)});
    case M_ISNAN:
      return b.Elemwise(NOT, {b.TypeCvt(b.Elemwise(EQ, {x, x}), kBool)});
    default: {  // ISINF: only +inf is detected after the conversion, as in MegEngine
      Ref inf = b.Const(std::numeric_limits<float>::infinity(), x);
      Ref f = b.TypeCvt(x, kFloat32);
      return b.TypeCvt(b.Elemwise(EQ, {f, inf}), kBool);
    }
  }
}

Ref ConvertWhere(Builder& b, const Node& n) {
  if (n.inputs.size() != 3) b.Unsupported("Where needs 3 inputs");
  std::optional<int> xt = b.DTypeOf(n.inputs[1]);
  if (!xt || *xt != kFloat32) b.Unsupported("Where is rewritten for Float32 x only");
  Ref m = b.TypeCvt(n.inputs[0], *xt);
  Ref a = b.Elemwise(SWITCH_GT0, {m, n.inputs[1]});
  Ref one = b.Const(1.0f, m);
  Ref k = b.Elemwise(SUB, {one, m});
  Ref y = b.Elemwise(SWITCH_GT0, {k, n.inputs[2]});
  return b.Elemwise(ADD, {a, y});
}

}  // namespace graphport::mge::compat
