// The Softmax (dnn.sereg.h) and Dropout (rand.sereg.h) converters, which only MegEngine's v1
// registry has: FBS_V2 keeps both operators.
#include "mge/dump/compat_converters.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::compat {

// max = Reduce(x, MAX, axis); e = EXP(x - max); e / Reduce(e, SUM, axis).
Ref ConvertSoftmax(Builder& b, const Node& n) {
  const auto* p = RequireParam<param::Softmax>(b, n, kSoftmaxParam, "Softmax");
  if (n.inputs.size() != 1) b.Unsupported("Softmax needs 1 input");
  RequireFloat32(b, n, 1);
  Ref x = n.inputs[0];
  b.RequireMutableValue(x, "the Softmax rewrite");
  Ref mx = b.Reduce(x, R_MAX, p->axis());
  Ref d = b.Elemwise(SUB, {x, mx});
  Ref e = b.Elemwise(EXP, {d});
  Ref s = b.Reduce(e, SUM, p->axis());
  return b.Elemwise(TRUE_DIV, {e, s});
}

// A mask drawn with the operator's seed: x * (p < uniform(shape of x)) * 1 / (1 - p).
Ref ConvertDropout(Builder& b, const Node& n) {
  const auto* p = RequireParam<param::Dropout>(b, n, kDropoutParam, "Dropout");
  if (n.inputs.size() != 1) b.Unsupported("Dropout needs 1 input");
  RequireFloat32(b, n, 1);
  Ref x = n.inputs[0];
  b.RequireMutableShape(x, "the Dropout rewrite");
  const float prob = p->drop_prob();
  Ref shape = b.GetVarShape(x);
  Ref uniform = b.UniformRng(shape, p->seed());
  Ref prob_var = b.Const(prob, x);
  Ref mask = b.Elemwise(LT, {prob_var, uniform});
  Ref as_bool = b.TypeCvt(mask, kBool);
  Ref as_float = b.TypeCvt(as_bool, kFloat32);
  Ref dropped = b.Elemwise(MUL, {x, as_float});
  Ref inv_keep = b.Const(1.0f / (1.0f - prob), x);
  return b.Elemwise(MUL, {dropped, inv_keep});
}

}  // namespace graphport::mge::compat
