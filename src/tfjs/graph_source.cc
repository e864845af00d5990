#include "tfjs/graph_source.h"

namespace graphport::tfjs {

TfjsGraphSource::TfjsGraphSource(const tf::TfModel* model, const nlohmann::json* weights)
    : TfGraphSource(model), weights_(weights) {
  if (weights_ == nullptr || !weights_->is_array()) return;
  for (size_t i = 0; i < weights_->size(); ++i) {
    const nlohmann::json& w = (*weights_)[i];
    if (w.contains("name") && w["name"].is_string())
      by_name_.emplace(w["name"].get<std::string>(), i);
  }
}

uint64_t TfjsGraphSource::WeightBytes(const tensorflow::NodeDef& node) const {
  auto it = by_name_.find(node.name());
  if (it == by_name_.end()) return TfGraphSource::WeightBytes(node);
  const nlohmann::json& bytes = (*weights_)[it->second].value("bytes", nlohmann::json());
  return bytes.is_number_unsigned() ? bytes.get<uint64_t>() : TfGraphSource::WeightBytes(node);
}

nlohmann::json TfjsGraphSource::NodeDetails(uint32_t node) {
  nlohmann::json out = TfGraphSource::NodeDetails(node);
  auto it = by_name_.find(out["name"].get<std::string>());
  if (it != by_name_.end()) out["weight"] = (*weights_)[it->second];
  return out;
}

}  // namespace graphport::tfjs
