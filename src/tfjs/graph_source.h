// The TensorFlow.js family's graph for a viewer: the TensorFlow graph it was read into
// (tf/graph_source.h), with each weight's size as its shards hold it (quantized weights take
// less than their tensor) and its manifest entry (dtype, shape, quantization, shard) in the
// details of the node that holds it.
#ifndef GRAPHPORT_TFJS_GRAPH_SOURCE_H_
#define GRAPHPORT_TFJS_GRAPH_SOURCE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "tf/graph_source.h"

namespace graphport::tfjs {

class TfjsGraphSource : public tf::TfGraphSource {
 public:
  // `weights`: the summary's manifest weights, [{name, dtype, shape, quantization?, bytes,
  // ...}] (read_graph_model.h); kept by the caller.
  TfjsGraphSource(const tf::TfModel* model, const nlohmann::json* weights);
  nlohmann::json NodeDetails(uint32_t node) override;

 protected:
  uint64_t WeightBytes(const tensorflow::NodeDef& node) const override;
  bool OverridesWeights() const override { return true; }

 private:
  const nlohmann::json* weights_;
  std::unordered_map<std::string, size_t> by_name_;  // into *weights_
};

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_GRAPH_SOURCE_H_
