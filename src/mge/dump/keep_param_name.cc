// keep_param_name: the names of VALUE_SHARED tensors (SharedDeviceTensor and the
// MultipleDeviceTensorHolders) are written and listed in `params` only when kept. Input
// tensors (Host2DeviceCopy) are always named, anonymous constants (ImmutableTensor) never.
#include "mge/dump/dump_plan.h"

namespace graphport::mge {
namespace {

enum class TensorNaming { kAlways, kShared, kNever, kAsLoaded };

TensorNaming NamingOf(const Operator& op) {
  if (op.cls == nullptr) return TensorNaming::kAsLoaded;
  const std::string& key = op.cls->key;
  if (key == "Host2DeviceCopy") return TensorNaming::kAlways;
  if (key == "ImmutableTensor" || key == "SharedDeviceTensorWithFormat") {
    return TensorNaming::kNever;
  }
  if (key == "SharedDeviceTensor" || key == "VolatileSharedDeviceTensor" ||
      key == "MultipleDeviceTensorHolder" || key == "MultipleDeviceTensorWithFormatHolder") {
    return TensorNaming::kShared;
  }
  return TensorNaming::kAsLoaded;
}

}  // namespace

void PlanParamNames(const Graph& graph, const DumpRequest& request, DumpPlan* plan) {
  plan->tensor_names.resize(graph.oprs.size());
  for (size_t i = 0; i < graph.oprs.size(); ++i) {
    const Operator& op = graph.oprs[i];
    auto& names = plan->tensor_names[i];
    names.assign(op.tensors.size(), std::nullopt);
    TensorNaming naming = NamingOf(op);
    for (size_t t = 0; t < op.tensors.size(); ++t) {
      const std::optional<std::string>& stored = op.tensors[t].name;
      switch (naming) {
        case TensorNaming::kAlways:
          names[t] = stored ? stored : op.name;
          break;
        case TensorNaming::kNever:
          break;
        case TensorNaming::kAsLoaded:
          names[t] = stored;
          break;
        case TensorNaming::kShared: {
          if (!request.keep_param_name) break;
          // MegEngine names a holder's tensors after its output vars, a lone shared tensor
          // after its operator.
          std::optional<std::string> name = stored;
          if (!name && op.tensors.size() == op.outputs.size() &&
              op.cls->key != "SharedDeviceTensor") {
            name = graph.VarName(op.outputs[t]);
          }
          if (!name) name = op.name;
          names[t] = name;
          if (name) plan->param_names.push_back(*name);
          break;
        }
      }
    }
  }
}

}  // namespace graphport::mge
