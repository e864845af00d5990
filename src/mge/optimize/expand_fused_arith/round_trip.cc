#include "mge/optimize/expand_fused_arith/round_trip.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "mge/dtype.h"
#include "mge/optimize/eval/kernels.h"
#include "mge/optimize/opr_maker.h"
#include "mge/optimize/schema_numbers.h"

namespace graphport::mge::opt {
namespace {

// ElemwiseMode numbers (opr_params.fbs).

// Modes some arithmetic pass takes apart, extends, reorders or fuses.
bool ArithMode(uint32_t mode) {
  switch (mode) {
    case kNegate:
    case kAdd:
    case kMax:
    case kMin:
    case kMul:
    case kPow:
    case kSub:
    case kTrueDiv:
    case kFuseMulAdd3:
    case kFuseMulAdd4:
    case kFuseAddRelu:
    case kFuseAddSigmoid:
    case kFuseAddTanh:
    case kFuseAddHSwish:
      return true;
    default:
      return false;
  }
}

bool Activation(uint32_t mode) {
  return mode == kRelu || mode == kSigmoid || mode == kTanh || mode == kHSwishMode;
}

}  // namespace

FusedRoundTrip::FusedRoundTrip(const OptGraph& g) : g_(g), const_(g), exposed_(g.size(), false) {
  for (uint32_t node : g.TopoOrder()) {
    const OptNode& n = g.node(node);
    const std::optional<uint32_t> mode = n.elemwise_mode();
    if (mode && Activation(*mode)) continue;
    for (const VarRef& in : n.inputs) exposed_[in.node] = true;
  }
  for (const VarRef& v : g.endpoints()) exposed_[v.node] = true;
}

bool FusedRoundTrip::Operand(VarRef v, bool factor) const {
  const OptVar& var = g_.var(v);
  if (!var.shape || !var.dtype || ElementCount(*var.shape) == 1) return false;
  const std::string_view key = g_.Key(v.node);
  if (key == "PowC") return false;
  if (factor && (key == "Convolution" || key == "MatrixMul")) return false;
  const OptNode& n = g_.node(v.node);
  if (n.outputs.size() == 1) {
    const std::optional<uint32_t> mode = n.elemwise_mode();
    if (mode && ArithMode(*mode)) return false;
  }
  return !const_.Computed(v);
}

bool FusedRoundTrip::Unchanged(uint32_t node, uint32_t mode, const std::vector<VarRef>& in) const {
  const OptNode& n = g_.node(node);
  if (n.outputs.size() != 1 || !n.outputs[0].dtype || IsQuantized(*n.outputs[0].dtype)) {
    return false;
  }
  const bool fma = mode == kFuseMulAdd3 || mode == kFuseMulAdd4;
  if (fma && exposed_[node]) return false;
  for (size_t k = 0; k < in.size(); ++k) {
    const bool factor = fma && (mode == kFuseMulAdd4 || k < 2);
    if (!Operand(in[k], factor)) return false;
    if (g_.var(in[k]).dtype != n.outputs[0].dtype) return false;  // no promotion
    for (size_t j = 0; j < k; ++j) {
      if (in[j] == in[k]) return false;
    }
  }
  auto id = [&](VarRef v) { return g_.var(v).id; };
  auto shape = [&](VarRef v) -> const Shape& { return *g_.var(v).shape; };
  // Two operands that would be folded together.
  auto both_const = [&](VarRef a, VarRef b) { return const_(a) && const_(b); };
  if (mode == kFuseMulAdd3) {
    if (in.size() != 3 || both_const(in[0], in[1]) || id(in[1]) < id(in[0])) return false;
    // ArithFuse gives a lone product a bias only of one of its factors' shapes.
    return shape(in[2]) == shape(in[0]) || shape(in[2]) == shape(in[1]);
  }
  if (mode == kFuseMulAdd4) {
    if (in.size() != 4 || both_const(in[0], in[1]) || both_const(in[2], in[3])) return false;
    // The Elemwise constructor's order: each pair by id, then the pairs by their first ids.
    if (id(in[1]) < id(in[0]) || id(in[3]) < id(in[2]) || id(in[2]) < id(in[0])) return false;
    // ArithFuse pairs two products into FUSE_MUL_ADD4 only when they fall in one group:
    // the same operand shapes, the operand with fewer elements first.
    auto group = [&](VarRef a, VarRef b) {
      if (ElementCount(shape(a)) > ElementCount(shape(b))) std::swap(a, b);
      return std::make_pair(shape(a), shape(b));
    };
    return group(in[0], in[1]) == group(in[2], in[3]);
  }
  // FUSE_ADD_{RELU,SIGMOID,TANH,H_SWISH}: the activation of a plain two-operand sum.
  return in.size() == 2 && !both_const(in[0], in[1]) && id(in[0]) < id(in[1]);
}

}  // namespace graphport::mge::opt
