// The normalization converters of dnn.sereg.h: LayerNorm (v1 registry only), GroupNorm and
// InstanceNorm (v1 and V2), each spelled out in Reduce, Elemwise, PowC and Reshape.
#include "mge/dump/compat_converters.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::compat {
namespace {

// The affine tail both converters share: res * w + b when the operator has w and b.
Ref Affine(Builder& b, const Node& n, Ref res) {
  if (n.inputs.size() != 3) return res;
  return b.Elemwise(ADD, {b.Elemwise(MUL, {res, n.inputs[1]}), n.inputs[2]});
}

}  // namespace

// x reshaped to (shape[:ndim - normalized_dim], -1); mean and mean square over the last
// axis, the count from the shapes; (r - mean) * (E[x^2] - mean^2 + eps)^-0.5, shaped back.
Ref ConvertLayerNorm(Builder& b, const Node& n) {
  const auto* p = RequireParam<param::LayerNorm>(b, n, kLayerNormParam, "LayerNorm");
  if (n.inputs.size() != 1 && n.inputs.size() != 3) b.Unsupported("LayerNorm needs 1 or 3 inputs");
  RequireFloat32(b, n, n.inputs.size());
  Ref x = n.inputs[0];
  const size_t ndim = b.RequireStaticShape(x, "the LayerNorm rewrite").size();
  const int64_t end = static_cast<int64_t>(ndim) - static_cast<int64_t>(p->normalized_dim());
  if (end < 0) {
    b.Unsupported("normalized_dim " + std::to_string(p->normalized_dim()) +
                  " exceeds the input's " + std::to_string(ndim) + " dimensions");
  }
  const auto end_dim = static_cast<int32_t>(end);
  Ref shape = b.GetVarShape(x);
  Ref end_var = b.ConstInt32({end_dim}, {1}, x);
  Ref leading = b.SubtensorEnd(shape, end_var);
  Ref minus_one = b.ConstInt32({-1}, {1}, x);
  Ref target = b.Concat({leading, minus_one}, 0);
  Ref r = b.Reshape(x, target, end_dim);
  Ref mean = b.Reduce(r, MEAN, -1);
  Ref sum_sqr = b.Reduce(r, SUM_SQR, -1);
  Ref reduced_shape = b.GetVarShape(sum_sqr);
  Ref all = b.Reduce(shape, PRODUCT, 0);
  Ref kept = b.Reduce(reduced_shape, PRODUCT, 0);
  Ref count = b.TypeCvt(b.Elemwise(FLOOR_DIV, {all, kept}), kFloat32);
  Ref inv_count = b.PowC(count, -1);
  Ref eps = b.Const(p->eps(), x);
  Ref mean_sqr_eps = b.Elemwise(FUSE_MUL_ADD3, {sum_sqr, inv_count, eps});
  Ref mean2 = b.PowC(mean, 2);
  Ref inv_std = b.PowC(b.Elemwise(SUB, {mean_sqr_eps, mean2}), -0.5);
  Ref neg_mean = b.Elemwise(NEGATE, {mean});
  Ref shift = b.Elemwise(MUL, {neg_mean, inv_std});
  Ref normed = b.Elemwise(FUSE_MUL_ADD3, {r, inv_std, shift});
  return Affine(b, n, b.Reshape(normed, shape));
}

// x (N, C, H, W) reshaped to (N, groups, C*H*W / groups) (InstanceNorm: groups = C);
// (x - mean) / (E[x^2] - mean^2 + eps)^0.5 over the last axis, shaped back.
Ref ConvertGroupNorm(Builder& b, const Node& n, bool instance) {
  const std::string what = instance ? "the InstanceNorm rewrite" : "the GroupNorm rewrite";
  const auto* p = RequireParam<param::GroupNorm>(b, n, kGroupNormParam, "GroupNorm");
  if (n.inputs.size() != 1 && n.inputs.size() != 3) b.Unsupported("it needs 1 or 3 inputs");
  RequireFloat32(b, n, n.inputs.size());
  Ref x = n.inputs[0];
  const std::vector<uint32_t> s = b.RequireStaticShape(x, what);
  if (s.size() != 4) b.Unsupported(what + " needs a 4-dimensional input");
  const uint64_t inner = uint64_t{s[1]} * s[2] * s[3];
  const uint64_t groups = instance ? s[1] : p->group();
  if (groups == 0 || inner > 0x7fffffff || s[0] > 0x7fffffff) {
    b.Unsupported(what + ": group 0 or a shape beyond Int32");
  }
  Ref half = b.Const(0.5f, x);
  Ref eps = b.Const(p->eps(), x);
  Ref origin_shape = b.GetVarShape(x);
  Ref target = b.ConstInt32({static_cast<int32_t>(s[0]), static_cast<int32_t>(groups),
                             static_cast<int32_t>(inner / groups)},
                            {3}, x);
  Ref in = b.Reshape(x, target);
  Ref mean = b.Reduce(in, MEAN, 2);
  Ref mean_sqr = b.Reduce(b.Elemwise(MUL, {in, in}), MEAN, 2);
  Ref var = b.Elemwise(SUB, {mean_sqr, b.Elemwise(MUL, {mean, mean})});
  Ref std = b.Elemwise(POW, {b.Elemwise(ADD, {var, eps}), half});
  Ref centered = b.Elemwise(SUB, {in, mean});
  Ref normed = b.Elemwise(TRUE_DIV, {centered, std});
  return Affine(b, n, b.Reshape(normed, origin_shape));
}

}  // namespace graphport::mge::compat
