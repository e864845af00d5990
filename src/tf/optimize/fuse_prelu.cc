#include "tf/optimize/fuse_prelu.h"

#include <map>
#include <set>

#include "tf/optimize/graph_edit.h"
#include "tf/optimize/tensor_values.h"

namespace graphport::tf {
namespace {

// The node whose output 0 `input` reads; null otherwise.
tensorflow::NodeDef* Producer(tensorflow::GraphDef* graph, const GraphDefIndex& index,
                              const std::string& input) {
  tensorflow::NodeDef* node = index.Find(graph, InputNodeName(input));
  return node != nullptr && ReadsOutput0(input, node->name()) ? node : nullptr;
}

bool ReadOnlyOnce(const GraphDefIndex& index, const std::set<std::string>& fixed,
                  const tensorflow::NodeDef& node) {
  return index.DataConsumers(node.name()) == 1 && index.ControlConsumers(node.name()) == 0 &&
         fixed.count(node.name()) == 0;
}

}  // namespace

int FuseOpsForPrelu(tensorflow::GraphDef* graph, const std::vector<std::string>& inputs,
                    std::vector<std::string>* outputs) {
  std::set<std::string> fixed = NodeNamesOf(inputs);
  std::set<std::string> outputs_named = NodeNamesOf(*outputs);
  GraphDefIndex index(*graph);
  Fusions fusions;
  for (auto& add : *graph->mutable_node()) {
    if ((add.op() != "Add" && add.op() != "AddV2") || add.input_size() != 2 ||
        fixed.count(add.name()) != 0 || fusions.gone.count(add.name()) != 0 ||
        index.ReadPastOutput0(add.name())) {
      continue;
    }
    tensorflow::NodeDef* relu = Producer(graph, index, add.input(0));
    tensorflow::NodeDef* mul = Producer(graph, index, add.input(1));
    if (relu == nullptr || relu->op() != "Relu" || mul == nullptr || mul->op() != "Mul" ||
        mul->input_size() != 2 || DataInputCount(*relu) != 1) {
      continue;
    }
    tensorflow::NodeDef* alpha = nullptr;
    tensorflow::NodeDef* relu_of_neg = nullptr;
    for (const auto& input : mul->input()) {
      tensorflow::NodeDef* node = Producer(graph, index, input);
      if (node != nullptr && node->op() == "Const" && alpha == nullptr) alpha = node;
      if (node != nullptr && node->op() == "Relu" && relu_of_neg == nullptr) relu_of_neg = node;
    }
    if (alpha == nullptr || relu_of_neg == nullptr || relu_of_neg->input_size() != 1) continue;
    tensorflow::NodeDef* neg = Producer(graph, index, relu_of_neg->input(0));
    if (neg == nullptr || neg->op() != "Neg" || neg->input_size() != 1 ||
        neg->input(0) != relu->input(0)) {
      continue;
    }
    if (!ReadOnlyOnce(index, fixed, *relu) || !ReadOnlyOnce(index, fixed, *mul) ||
        !ReadOnlyOnce(index, fixed, *relu_of_neg) || !ReadOnlyOnce(index, fixed, *neg) ||
        !ReadOnlyOnce(index, fixed, *alpha) || outputs_named.count(relu->name()) != 0 ||
        outputs_named.count(mul->name()) != 0) {
      continue;
    }
    FloatTensor values;
    auto value = alpha->attr().find("value");
    if (value == alpha->attr().end() || !ReadFloatTensor(value->second.tensor(), &values)) {
      continue;
    }
    for (double& v : values.values) v = -v;
    WriteFloatTensor(values, (*alpha->mutable_attr())["value"].mutable_tensor());

    relu->set_op("Prelu");
    relu->mutable_attr()->erase("T");
    AddDataInput(relu, alpha->name());
    fusions.gone.insert({add.name(), mul->name(), relu_of_neg->name(), neg->name()});
    fusions.renamed[add.name()] = relu->name();
    ++fusions.count;
  }
  return fusions.Apply(graph, outputs);
}

int FusePreluIntoContraction(tensorflow::GraphDef* graph, const std::vector<std::string>& inputs,
                             std::vector<std::string>* outputs) {
  std::set<std::string> fixed = NodeNamesOf(inputs);
  std::set<std::string> outputs_named = NodeNamesOf(*outputs);
  GraphDefIndex index(*graph);
  Fusions fusions;
  for (auto& prelu : *graph->mutable_node()) {
    if (prelu.op() != "Prelu" || DataInputCount(prelu) != 2 || fixed.count(prelu.name()) != 0 ||
        index.ReadPastOutput0(prelu.name())) {
      continue;
    }
    tensorflow::NodeDef* contraction = Producer(graph, index, prelu.input(0));
    if (contraction == nullptr ||
        (contraction->op() != "_FusedConv2D" && contraction->op() != "_FusedMatMul" &&
         contraction->op() != "FusedDepthwiseConv2dNative") ||
        !ReadOnlyOnce(index, fixed, *contraction) ||
        outputs_named.count(contraction->name()) != 0) {
      continue;
    }
    auto& attrs = *contraction->mutable_attr();
    if (attrs["fused_ops"].list().s_size() > 1) continue;
    AddDataInput(contraction, prelu.input(1));
    attrs["fused_ops"].mutable_list()->add_s("Prelu");
    attrs["num_args"].set_i(attrs["num_args"].i() + 1);
    fusions.Absorb(prelu, contraction);
    ++fusions.count;
  }
  return fusions.Apply(graph, outputs);
}

}  // namespace graphport::tf
