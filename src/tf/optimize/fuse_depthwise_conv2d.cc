#include "tf/optimize/fuse_depthwise_conv2d.h"

#include <map>
#include <set>

#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

bool IsDepthwiseActivation(const std::string& op) {
  return op == "Relu" || op == "Relu6" || op == "Elu";
}

}  // namespace

int FuseDepthwiseConv2d(tensorflow::GraphDef* graph, const std::vector<std::string>& inputs,
                        std::vector<std::string>* outputs) {
  std::set<std::string> kept_intermediate = NodeNamesOf(inputs);
  for (const auto& name : NodeNamesOf(*outputs)) kept_intermediate.insert(name);
  GraphDefIndex index(*graph);
  std::map<std::string, int> sole_consumer;
  {
    std::map<std::string, std::vector<int>> consumers;
    for (int i = 0; i < graph->node_size(); ++i) {
      for (const auto& input : graph->node(i).input()) {
        consumers[InputNodeName(input)].push_back(i);
      }
    }
    for (const auto& [name, list] : consumers) {
      const tensorflow::NodeDef& next = graph->node(list[0]);
      if (list.size() == 1 && ReadsOutput0(next.input(0), name) &&
          !index.ReadPastOutput0(next.name())) {
        sole_consumer[name] = list[0];
      }
    }
  }
  // The node after `name` when it is its only consumer and `name` may go.
  auto follower = [&](const std::string& name) -> tensorflow::NodeDef* {
    auto it = sole_consumer.find(name);
    return it == sole_consumer.end() ? nullptr : graph->mutable_node(it->second);
  };

  Fusions fusions;
  for (auto& node : *graph->mutable_node()) {
    if (node.op() != "DepthwiseConv2dNative" || kept_intermediate.count(node.name()) != 0) {
      continue;
    }
    tensorflow::NodeDef* bias_add = follower(node.name());
    tensorflow::NodeDef* activation = nullptr;
    if (bias_add != nullptr && bias_add->op() == "BiasAdd" && bias_add->input_size() >= 2 &&
        !IsControlInput(bias_add->input(1))) {
      tensorflow::NodeDef* next =
          kept_intermediate.count(bias_add->name()) != 0 ? nullptr : follower(bias_add->name());
      if (next != nullptr && IsDepthwiseActivation(next->op())) activation = next;
    } else {
      activation =
          bias_add != nullptr && IsDepthwiseActivation(bias_add->op()) ? bias_add : nullptr;
      bias_add = nullptr;
    }
    if (bias_add == nullptr && activation == nullptr) continue;

    std::vector<tensorflow::NodeDef*> absorbed;
    if (bias_add != nullptr) absorbed.push_back(bias_add);
    if (activation != nullptr) absorbed.push_back(activation);
    node.set_op("FusedDepthwiseConv2dNative");
    AddConvolutionDefaults(&node, false);
    auto& attrs = *node.mutable_attr();
    attrs["num_args"].set_i(bias_add != nullptr ? 1 : 0);
    auto* fused_ops = attrs["fused_ops"].mutable_list();
    fused_ops->add_s(bias_add != nullptr ? "BiasAdd" : "NoOp");
    if (activation != nullptr) fused_ops->add_s(activation->op());
    if (bias_add != nullptr) AddDataInput(&node, bias_add->input(1));
    for (auto* next : absorbed) fusions.Absorb(*next, &node);
    ++fusions.count;
  }
  return fusions.Apply(graph, outputs);
}

}  // namespace graphport::tf
