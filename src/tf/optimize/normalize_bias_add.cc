#include "tf/optimize/normalize_bias_add.h"

#include "tf/optimize/graph_edit.h"

namespace graphport::tf {

int NormalizeBiasAdd(tensorflow::GraphDef* graph) {
  GraphDefIndex index(*graph);
  int changed = 0;
  for (auto& node : *graph->mutable_node()) {
    if ((node.op() != "Add" && node.op() != "AddV2") || node.input_size() < 2 ||
        IsControlInput(node.input(0)) || IsControlInput(node.input(1))) {
      continue;
    }
    std::string producer = InputNodeName(node.input(0));
    const tensorflow::NodeDef* contraction = index.Find(*graph, producer);
    if (contraction == nullptr ||
        (contraction->op() != "Conv2D" && contraction->op() != "DepthwiseConv2dNative" &&
         contraction->op() != "MatMul") ||
        index.Consumers(producer) != 1 || !IsNhwc(*contraction)) {
      continue;
    }
    const tensorflow::NodeDef* bias = ConstInput(*graph, index, node.input(1));
    if (bias == nullptr) continue;
    auto value = bias->attr().find("value");
    if (value == bias->attr().end() || value->second.tensor().tensor_shape().dim_size() != 1) {
      continue;
    }
    node.set_op("BiasAdd");
    (*node.mutable_attr())["data_format"].set_s("NHWC");
    ++changed;
  }
  return changed;
}

}  // namespace graphport::tf
