#include "mge/optimize/hidden_ids.h"

#include <set>
#include <string_view>

#include "mge/dtype_infer.h"

namespace graphport::mge::opt {
namespace {

// The classes whose workspace inference depends on WorkspaceLimitGetter's var: MegEngine's
// DNN_FOREACH_FASTRUN_OPR list, BatchNorm and its backward (batch_norm.cpp sets the same flag),
// and the backward-data convolutions, which register it unconditionally.
bool RegistersWorkspaceLimit(std::string_view key) {
  static const std::set<std::string_view> kClasses = {
      "Convolution",
      "ConvBiasForward",
      "ConvolutionBackwardData",
      "ConvolutionBackwardFilter",
      "Convolution3D",
      "Convolution3DBackwardData",
      "Convolution3DBackwardFilter",
      "LocalShareForward",
      "LocalShareBackwardData",
      "LocalShareBackwardFilter",
      "DeformableConvForward",
      "DeformableConvBackwardData",
      "DeformableConvBackwardFilter",
      "BatchConvBiasForward",
      "MatrixMul",
      "BatchedMatrixMul",
      "Pooling",
      "PoolingBackward",
      "BatchNorm",
      "BatchNormBackward",
      "RegionRestrictedConvolutionBackwardData",
  };
  return kClasses.count(key) != 0;
}

}  // namespace

HiddenIds::ClassIds HiddenIds::Of(const OprClass* cls) {
  for (const auto& [seen, ids] : classes_) {
    if (seen == cls) return ids;
  }
  ClassIds ids;
  if (cls != nullptr) {
    ids.workspace = ClassHasWorkspaceOutput(cls->key);
    ids.workspace_limit = RegistersWorkspaceLimit(cls->key);
  }
  classes_.emplace_back(cls, ids);
  return ids;
}

uint32_t HiddenIds::Workspace(std::string_view key) { return ClassHasWorkspaceOutput(key) ? 1 : 0; }

uint32_t HiddenIds::After(const OprClass* cls) {
  const ClassIds ids = Of(cls);
  uint32_t spent = ids.workspace ? 1 : 0;
  if (ids.workspace_limit && !limit_registered_) {
    limit_registered_ = true;
    spent += 2;
  }
  return spent;
}

}  // namespace graphport::mge::opt
