#include "mge/opr_outputs.h"

#include <flatbuffers/flatbuffers.h>

#include <map>
#include <string>

#include "mge/schema/operator_param_v1_generated.h"

namespace graphport::mge {

namespace fbs = mgb::serialization::fbs;

namespace {

// Classes with a fixed number of numbered outputs other than 1 (MegEngine's operator
// constructors; workspace outputs are volatile and never numbered).
const std::map<std::string, uint32_t>& FixedCounts() {
  static const auto* counts = new std::map<std::string, uint32_t>{
      {"Argsort", 2},                       // values, indices
      {"CondTake", 2},                      // values, indices
      {"NMSKeep", 2},                       // indices, count
      {"ROIAlign", 2},                      // output, argmax index
      {"ROIPooling", 2}, {"LayerNorm", 3},  // output, mean, rstd
      {"GroupNorm", 3},  {"InstanceNorm", 3}, {"GeneralNorm", 3}, {"Dropout", 2},  // output, mask
  };
  return *counts;
}

}  // namespace

bool V1NumberedOutputs(const Operator& op, uint32_t* count) {
  if (op.output_names) {
    *count = static_cast<uint32_t>(op.output_names->size());
    return true;
  }
  if (op.cls == nullptr) return false;
  const std::string& key = op.cls->key;
  if (key == "MultipleDeviceTensorHolder" || key == "MultipleDeviceTensorWithFormatHolder") {
    *count = static_cast<uint32_t>(op.tensors.size());
    return true;
  }
  if (key == "Split") {  // src, then one partition size per output
    if (!op.inputs || op.inputs->empty()) return false;
    *count = static_cast<uint32_t>(op.inputs->size() - 1);
    return true;
  }
  if (key == "TopK") {  // KTH_ONLY: values; the other modes add indices
    // Only a verified TopK table is read; without one, the mode is its default, KTH_ONLY.
    const auto* p = op.ParamAs<fbs::param::TopK>(fbs::OperatorParam_param_TopK);
    const bool kth_only = p == nullptr || p->mode() == fbs::param::TopKMode_KTH_ONLY;
    *count = kth_only ? 1 : 2;
    return true;
  }
  auto it = FixedCounts().find(key);
  *count = it == FixedCounts().end() ? 1 : it->second;
  return true;
}

}  // namespace graphport::mge
