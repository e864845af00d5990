#include "tf/optimize/fuse_contractions.h"

#include <map>
#include <set>

#include "tf/freeze/function_body.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

bool IsFusedActivation(const std::string& op) {
  return op == "Relu" || op == "Relu6" || op == "Elu" || op == "LeakyRelu";
}

tensorflow::DataType TypeAttr(const tensorflow::NodeDef& node) {
  auto it = node.attr().find("T");
  return it == node.attr().end() ? tensorflow::DT_INVALID : it->second.type();
}

bool OnCpu(const tensorflow::NodeDef& node) {
  return node.device().find("CPU") != std::string::npos ||
         node.device().find("cpu") != std::string::npos;
}

// The remapper's CPU conditions on the contraction itself.
bool Fusable(const tensorflow::NodeDef& node) {
  if (!OnCpu(node) || node.input_size() < 2 || IsControlInput(node.input(1))) return false;
  tensorflow::DataType type = TypeAttr(node);
  if (node.op() == "Conv2D") {
    return (type == tensorflow::DT_FLOAT || type == tensorflow::DT_DOUBLE) && IsNhwc(node);
  }
  return node.op() == "MatMul" && type == tensorflow::DT_FLOAT;
}

// The consumers of each node's output 0 and its control consumers, by node index.
std::map<std::string, std::vector<int>> ConsumersOf(const tensorflow::GraphDef& graph) {
  std::map<std::string, std::vector<int>> consumers;
  for (int i = 0; i < graph.node_size(); ++i) {
    for (const auto& input : graph.node(i).input()) {
      consumers[InputNodeName(input)].push_back(i);
    }
  }
  return consumers;
}

// The fused node for `contraction` feeding a BiasAdd (+ `activation`), named `name`.
tensorflow::NodeDef Fused(const tensorflow::NodeDef& contraction,
                          const tensorflow::NodeDef& bias_add,
                          const tensorflow::NodeDef* activation, const std::string& name) {
  bool conv = contraction.op() == "Conv2D";
  tensorflow::NodeDef fused;
  fused.set_name(name);
  fused.set_op(conv ? "_FusedConv2D" : "_FusedMatMul");
  fused.set_device(contraction.device());
  fused.add_input(contraction.input(0));
  fused.add_input(contraction.input(1));
  fused.add_input(bias_add.input(1));
  for (const auto* node : {&contraction, &bias_add, activation}) {
    if (node == nullptr) continue;
    for (const auto& input : node->input()) {
      if (IsControlInput(input)) AddControlInput(&fused, InputNodeName(input));
    }
  }
  auto& attrs = *fused.mutable_attr();
  std::vector<const char*> copied = {"T", "transpose_a", "transpose_b"};
  if (conv) {
    copied = {"T",           "strides",   "padding",         "explicit_paddings",
              "data_format", "dilations", "use_cudnn_on_gpu"};
  }
  for (const char* key : copied) {
    auto it = contraction.attr().find(key);
    if (it != contraction.attr().end()) attrs[key] = it->second;
  }
  if (conv) {
    AddConvolutionDefaults(&fused, true);
  } else {
    for (const char* key : {"transpose_a", "transpose_b"}) {
      if (attrs.count(key) == 0) attrs[key].set_b(false);
    }
  }
  auto* fused_ops = attrs["fused_ops"].mutable_list();
  fused_ops->add_s("BiasAdd");
  if (activation != nullptr) fused_ops->add_s(activation->op());
  attrs["num_args"].set_i(1);
  attrs["epsilon"].set_f(0.0f);
  if (activation != nullptr && activation->op() == "LeakyRelu") {
    auto alpha = activation->attr().find("alpha");
    attrs["leakyrelu_alpha"].set_f(alpha == activation->attr().end() ? 0.2f : alpha->second.f());
  }
  return fused;
}

bool SqueezesChannels(const tensorflow::NodeDef& squeeze) {
  auto it = squeeze.attr().find("squeeze_dims");
  if (it == squeeze.attr().end() || it->second.list().i_size() == 0) return true;
  for (int64_t dim : it->second.list().i()) {
    if (dim == 3 || dim == -1) return true;
  }
  return false;
}

}  // namespace

int PlaceContractionsOnCpu(tensorflow::GraphDef* graph) {
  int placed = 0;
  for (auto& node : *graph->mutable_node()) {
    if (node.op() == "Conv2D" || node.op() == "MatMul") {
      node.set_device("/device:CPU:0");
      ++placed;
    }
  }
  return placed;
}

ContractionFusion FuseContractions(tensorflow::GraphDef* graph,
                                   const std::vector<std::string>& keep) {
  ContractionFusion result;
  std::set<std::string> kept = NodeNamesOf(keep);
  GraphDefIndex index(*graph);
  std::map<std::string, std::vector<int>> consumers = ConsumersOf(*graph);
  // The only consumer of `name`'s output, reading it as its input 0; -1 when there is none,
  // or another, or `name` must stay.
  auto sole_consumer = [&](const std::string& name) {
    auto it = consumers.find(name);
    if (kept.count(name) != 0 || it == consumers.end() || it->second.size() != 1) return -1;
    const tensorflow::NodeDef& next = graph->node(it->second[0]);
    return ReadsOutput0(next.input(0), name) ? it->second[0] : -1;
  };

  std::map<int, tensorflow::NodeDef> replaced;
  std::set<std::string> gone;
  for (int i = 0; i < graph->node_size(); ++i) {
    const tensorflow::NodeDef& bias_add = graph->node(i);
    if (bias_add.op() != "BiasAdd" || bias_add.input_size() < 2 ||
        IsControlInput(bias_add.input(0)) || IsControlInput(bias_add.input(1)) ||
        !IsNhwc(bias_add)) {
      continue;
    }
    std::string producer_name = InputNodeName(bias_add.input(0));
    const tensorflow::NodeDef* producer = index.Find(*graph, producer_name);
    if (producer == nullptr || gone.count(producer_name) != 0) continue;

    if (producer->op() == "Squeeze" && sole_consumer(producer_name) == i &&
        !SqueezesChannels(*producer) && producer->input_size() >= 1) {
      std::string conv_name = InputNodeName(producer->input(0));
      const tensorflow::NodeDef* conv = index.Find(*graph, conv_name);
      if (conv == nullptr || conv->op() != "Conv2D" || !Fusable(*conv) ||
          sole_consumer(conv_name) < 0 ||
          graph->node(sole_consumer(conv_name)).name() != producer_name) {
        continue;
      }
      replaced[index.IndexOf(conv_name)] = Fused(*conv, bias_add, nullptr, conv_name);
      tensorflow::NodeDef squeeze = *producer;
      squeeze.set_name(bias_add.name());
      for (const auto& input : bias_add.input()) {
        if (IsControlInput(input)) AddControlInput(&squeeze, InputNodeName(input));
      }
      replaced[i] = std::move(squeeze);
      gone.insert(producer_name);
      ++result.conv1d;
      continue;
    }

    if ((producer->op() != "Conv2D" && producer->op() != "MatMul") || !Fusable(*producer) ||
        sole_consumer(producer_name) != i) {
      continue;
    }
    int last = i;
    const tensorflow::NodeDef* activation = nullptr;
    int next = sole_consumer(bias_add.name());
    if (next >= 0 && IsFusedActivation(graph->node(next).op()) &&
        TypeAttr(graph->node(next)) == TypeAttr(*producer)) {
      last = next;
      activation = &graph->node(next);
    }
    replaced[last] = Fused(*producer, bias_add, activation, graph->node(last).name());
    gone.insert(producer_name);
    if (activation != nullptr) {
      gone.insert(bias_add.name());
      ++result.activations;
    }
    ++(producer->op() == "Conv2D" ? result.conv2d : result.matmul);
  }
  for (auto& [at, node] : replaced) *graph->mutable_node(at) = std::move(node);
  EraseNodes(graph, gone);
  return result;
}

}  // namespace graphport::tf
