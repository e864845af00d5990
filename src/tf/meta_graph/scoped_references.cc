#include "tf/meta_graph/scoped_references.h"

#include <algorithm>
#include <string>
#include <vector>

#include "tf/meta_graph/collections.h"

namespace graphport::tf {
namespace {

// Strips every tensor name of `info` (a plain, sparse or composite tensor); false, with the
// first name outside the scope in `outside`, when one is not in it.
bool ScopeTensorInfo(const Scope& scope, tensorflow::TensorInfo* info, std::string* outside) {
  auto scope_name = [&](const std::string& name, auto set) {
    if (!scope.Contains(name)) {
      *outside = name;
      return false;
    }
    set(scope.Strip(name));
    return true;
  };
  switch (info->encoding_case()) {
    case tensorflow::TensorInfo::kName:
      return scope_name(info->name(), [&](std::string n) { info->set_name(n); });
    case tensorflow::TensorInfo::kCooSparse: {
      auto* coo = info->mutable_coo_sparse();
      return scope_name(coo->values_tensor_name(),
                        [&](std::string n) { coo->set_values_tensor_name(n); }) &&
             scope_name(coo->indices_tensor_name(),
                        [&](std::string n) { coo->set_indices_tensor_name(n); }) &&
             scope_name(coo->dense_shape_tensor_name(),
                        [&](std::string n) { coo->set_dense_shape_tensor_name(n); });
    }
    case tensorflow::TensorInfo::kCompositeTensor:
      for (auto& component : *info->mutable_composite_tensor()->mutable_components()) {
        if (!ScopeTensorInfo(scope, &component, outside)) return false;
      }
      return true;
    case tensorflow::TensorInfo::ENCODING_NOT_SET:
      return true;
  }
  return true;
}

// Why `signature` cannot be exported, or "" when every tensor it names is in the scope (then
// it is stripped of the scope in place).
std::string ScopeSignature(const Scope& scope, tensorflow::SignatureDef* signature) {
  for (auto* side : {signature->mutable_inputs(), signature->mutable_outputs()}) {
    const char* which = side == signature->mutable_inputs() ? "input" : "output";
    for (auto& [key, info] : *side) {
      std::string outside;
      if (!ScopeTensorInfo(scope, &info, &outside)) {
        return std::string(which) + " '" + key + "' is tensor '" + outside + "', outside scope '" +
               scope.name() + "'";
      }
    }
  }
  return "";
}

}  // namespace

nlohmann::json ScopeSignaturesAndSaver(const Scope& scope, tensorflow::MetaGraphDef* meta_graph) {
  nlohmann::json dropped = nlohmann::json::array();
  std::vector<std::string> drop;
  for (auto& [key, signature] : *meta_graph->mutable_signature_def()) {
    std::string why = ScopeSignature(scope, &signature);
    if (!why.empty()) {
      dropped.push_back({{"what", "signature_def '" + key + "'"}, {"reason", why}});
      drop.push_back(key);
    }
  }
  for (const auto& key : drop) meta_graph->mutable_signature_def()->erase(key);
  if (meta_graph->has_saver_def()) {
    tensorflow::SaverDef scoped;
    if (ScopeSaverDef(meta_graph->saver_def(), scope, &scoped)) {
      *meta_graph->mutable_saver_def() = scoped;
    } else {
      dropped.push_back(
          {{"what", "saver_def"},
           {"reason", "its save and restore ops ('" + meta_graph->saver_def().save_tensor_name() +
                          "', '" + meta_graph->saver_def().restore_op_name() +
                          "') are outside scope '" + scope.name() + "'"}});
      meta_graph->clear_saver_def();
    }
  }
  // The map's order is a hash order: list what was dropped in name order.
  std::sort(dropped.begin(), dropped.end(),
            [](const auto& a, const auto& b) { return a["what"] < b["what"]; });
  return dropped;
}

}  // namespace graphport::tf
