#include "tf/optimize/fold_batch_norms.h"

#include <cmath>
#include <set>

#include "tf/freeze/function_body.h"
#include "tf/optimize/graph_edit.h"
#include "tf/optimize/tensor_values.h"

namespace graphport::tf {
namespace {

// Where each batch-norm op takes its operands, and its epsilon attr.
struct BatchNormInputs {
  int x, mean, variance, beta, gamma;
  const char* epsilon;
};

bool InputsOf(const std::string& op, BatchNormInputs* inputs) {
  if (op == "BatchNormWithGlobalNormalization") {
    *inputs = {0, 1, 2, 3, 4, "variance_epsilon"};
    return true;
  }
  if (op == "FusedBatchNorm" || op == "FusedBatchNormV3") {
    *inputs = {0, 3, 4, 2, 1, "epsilon"};
    return true;
  }
  return false;
}

bool IsConv(const tensorflow::NodeDef* node) {
  return node != nullptr && (node->op() == "Conv2D" || node->op() == "DepthwiseConv2dNative") &&
         node->input_size() >= 2;
}

bool ScalesAfterNormalization(const tensorflow::NodeDef& bn) {
  if (bn.op() != "BatchNormWithGlobalNormalization") return true;
  auto it = bn.attr().find("scale_after_normalization");
  return it != bn.attr().end() && it->second.b();
}

// The batch norm's epsilon. FusedBatchNorm(V3)'s OpDef default is 0.0001: a SavedModel with
// stripped default attrs lacks it, and the converter's import through TensorFlow restores it.
float Epsilon(const tensorflow::NodeDef& bn, const char* key) {
  auto it = bn.attr().find(key);
  if (it != bn.attr().end()) return it->second.f();
  return bn.op() == "BatchNormWithGlobalNormalization" ? 0.0f : 0.0001f;
}

// One fold, checked and computed before the graph changes.
struct Fold {
  std::string bn;
  const tensorflow::NodeDef* conv = nullptr;
  const tensorflow::NodeDef* add = nullptr;
  const tensorflow::NodeDef* weights_node = nullptr;
  const tensorflow::NodeDef* mean_node = nullptr;
  FloatTensor weights;
  FloatTensor offset;
};

class Folder {
 public:
  Folder(const tensorflow::GraphDef& graph, const std::set<std::string>& keep)
      : graph_(graph), index_(graph), keep_(keep) {
    for (const auto& node : graph.node()) {
      for (const auto& input : node.input()) {
        std::string name;
        int output = 0;
        SplitGraphInput(input, &name, &output);
        if (output > 0) read_past_output0_.insert(name);
      }
    }
  }

  // Fills `fold` for the batch norm `bn`; returns the reason it cannot fold, or "".
  std::string Plan(const tensorflow::NodeDef& bn, const BatchNormInputs& at, Fold* fold) {
    if (bn.input_size() < 5) return "fewer than 5 inputs";
    for (int i = 0; i < 5; ++i) {
      if (IsControlInput(bn.input(i))) return "fewer than 5 data inputs";
    }
    const tensorflow::NodeDef* conv = Node(bn.input(at.x));
    const tensorflow::NodeDef* bias = nullptr;
    if (conv != nullptr &&
        (conv->op() == "BiasAdd" || conv->op() == "Add" || conv->op() == "AddV2") &&
        conv->input_size() >= 2) {
      fold->add = conv;
      conv = Node(fold->add->input(0));
      bias = Node(fold->add->input(1));
      if (!IsConv(conv)) {
        conv = Node(fold->add->input(1));
        bias = Node(fold->add->input(0));
      }
      if (bias == nullptr || bias->op() != "Const") return "the bias before it is not a Const";
    }
    if (!IsConv(conv)) return "no Conv2D or DepthwiseConv2dNative before it";
    fold->conv = conv;
    if (read_past_output0_.count(bn.name()) != 0) return "its statistics outputs are read";
    if (index_.DataConsumers(conv->name()) != 1 || index_.ControlConsumers(conv->name()) != 0) {
      return "its convolution has other consumers";
    }
    if (fold->add != nullptr) {
      if (index_.Consumers(fold->add->name()) != 1) return "its bias add has other consumers";
      if (keep_.count(fold->add->name()) != 0) return "its bias add is an output";
    }
    if (index_.Find(graph_, conv->name() + "_weights") != nullptr ||
        index_.Find(graph_, conv->name() + "_bn_offset") != nullptr) {
      return "the names the fold makes are taken";
    }
    fold->weights_node = ConstInput(graph_, index_, conv->input(1));
    if (fold->weights_node == nullptr || !Values(*fold->weights_node, &fold->weights) ||
        fold->weights.shape.size() != 4) {
      return "the filter is not a 4-D float Const";
    }
    const std::vector<int64_t>& filter_shape = fold->weights.shape;
    int64_t channels = conv->op() == "Conv2D" ? filter_shape[3] : filter_shape[2] * filter_shape[3];

    FloatTensor mean, variance, beta, gamma, bias_values;
    const char* missing = Operand(bn.input(at.mean), channels, &mean, "mean");
    if (missing == nullptr) missing = Operand(bn.input(at.variance), channels, &variance, "var");
    if (missing == nullptr) missing = Operand(bn.input(at.beta), channels, &beta, "beta");
    if (missing == nullptr) missing = Operand(bn.input(at.gamma), channels, &gamma, "gamma");
    if (missing != nullptr) return std::string("its ") + missing + " is not a Const of [channels]";
    fold->mean_node = Node(bn.input(at.mean));
    if (bias != nullptr) {
      if (!Values(*bias, &bias_values) || bias_values.shape.size() > 1 ||
          (bias_values.values.size() != 1 &&
           static_cast<int64_t>(bias_values.values.size()) != channels)) {
        return "the bias before it is not a float Const of [channels]";
      }
    }

    // The converter's NumPy arithmetic, element by element (see the header).
    double epsilon = Epsilon(bn, at.epsilon);
    bool scaled = ScalesAfterNormalization(bn);
    tensorflow::DataType difference_type =
        bias == nullptr || bias_values.dtype == mean.dtype ? mean.dtype : tensorflow::DT_DOUBLE;
    std::vector<double> scale(channels);
    fold->offset.dtype = mean.dtype;
    fold->offset.shape = {channels};
    fold->offset.values.resize(channels);
    for (int64_t c = 0; c < channels; ++c) {
      double shifted = RoundTo(variance.dtype, variance.values[c] + epsilon);
      scale[c] = 1.0 / std::sqrt(shifted);
      if (scaled) scale[c] *= gamma.values[c];
      double centred = mean.values[c];
      if (bias != nullptr) {
        double b = bias_values.values[bias_values.values.size() == 1 ? 0 : c];
        centred = RoundTo(difference_type, centred - b);
      }
      fold->offset.values[c] = RoundTo(mean.dtype, -centred * scale[c] + beta.values[c]);
    }
    int64_t inner = conv->op() == "Conv2D" ? filter_shape[3] : channels;
    for (size_t i = 0; i < fold->weights.values.size(); ++i) {
      double& w = fold->weights.values[i];
      w = RoundTo(fold->weights.dtype, w * scale[static_cast<int64_t>(i) % inner]);
    }
    fold->bn = bn.name();
    return "";
  }

 private:
  const tensorflow::NodeDef* Node(const std::string& input) const {
    return IsControlInput(input) ? nullptr : index_.Find(graph_, InputNodeName(input));
  }

  bool Values(const tensorflow::NodeDef& constant, FloatTensor* out) const {
    auto it = constant.attr().find("value");
    return it != constant.attr().end() && ReadFloatTensor(it->second.tensor(), out);
  }

  // Null when `input` is a float Const of shape [channels]; else what is wrong, by name.
  const char* Operand(const std::string& input, int64_t channels, FloatTensor* out,
                      const char* what) const {
    const tensorflow::NodeDef* node = ConstInput(graph_, index_, input);
    if (node == nullptr || !Values(*node, out) || out->shape != std::vector<int64_t>{channels}) {
      return what;
    }
    return nullptr;
  }

  const tensorflow::GraphDef& graph_;
  GraphDefIndex index_;
  const std::set<std::string>& keep_;
  std::set<std::string> read_past_output0_;
};

// A Const like `like` (its dtype attr, or its value's dtype when it has none) holding `values`.
tensorflow::NodeDef MakeFoldedConst(const std::string& name, const tensorflow::NodeDef& like,
                                    const FloatTensor& values) {
  tensorflow::NodeDef node;
  node.set_name(name);
  node.set_op("Const");
  auto dtype = like.attr().find("dtype");
  if (dtype != like.attr().end()) {
    (*node.mutable_attr())["dtype"] = dtype->second;
  } else {
    (*node.mutable_attr())["dtype"].set_type(values.dtype);
  }
  WriteFloatTensor(values, (*node.mutable_attr())["value"].mutable_tensor());
  return node;
}

}  // namespace

BatchNormFolding FoldBatchNorms(tensorflow::GraphDef* graph, const std::vector<std::string>& keep) {
  BatchNormFolding result;
  std::set<std::string> kept = NodeNamesOf(keep);
  std::vector<tensorflow::NodeDef> appended;
  std::set<std::string> gone;
  std::set<std::string> old_weights;
  {
    Folder folder(*graph, kept);
    std::set<std::string> convs;
    for (const auto& bn : graph->node()) {
      BatchNormInputs at;
      if (!InputsOf(bn.op(), &at)) continue;
      Fold fold;
      std::string why = folder.Plan(bn, at, &fold);
      if (why.empty() && !convs.insert(fold.conv->name()).second) why = "its conv is folded twice";
      if (!why.empty()) {
        result.skipped.push_back(bn.name() + ": " + why);
        continue;
      }
      const tensorflow::NodeDef& conv = *fold.conv;
      tensorflow::NodeDef weights =
          MakeFoldedConst(conv.name() + "_weights", *fold.weights_node, fold.weights);
      tensorflow::NodeDef new_conv = conv;
      new_conv.set_input(1, weights.name());
      tensorflow::NodeDef offset =
          MakeFoldedConst(conv.name() + "_bn_offset", *fold.mean_node, fold.offset);
      tensorflow::NodeDef bias_add;
      bias_add.set_name(fold.bn);
      bias_add.set_op("BiasAdd");
      for (const char* attr : {"T", "data_format"}) {
        auto it = conv.attr().find(attr);
        if (it != conv.attr().end()) (*bias_add.mutable_attr())[attr] = it->second;
      }
      // The conv's default data_format, as the converter's import would have set it.
      if (bias_add.attr().count("data_format") == 0) {
        (*bias_add.mutable_attr())["data_format"].set_s("NHWC");
      }
      bias_add.add_input(new_conv.name());
      bias_add.add_input(offset.name());
      gone.insert({fold.bn, conv.name()});
      if (fold.add != nullptr) gone.insert(fold.add->name());
      old_weights.insert(fold.weights_node->name());
      appended.push_back(std::move(weights));
      appended.push_back(std::move(new_conv));
      appended.push_back(std::move(offset));
      appended.push_back(std::move(bias_add));
      ++result.folded;
    }
  }
  if (result.folded == 0) return result;
  EraseNodes(graph, gone);
  for (auto& node : appended) *graph->add_node() = std::move(node);
  // The old filters nothing reads any more go (the converter drops them even when read).
  GraphDefIndex index(*graph);
  std::set<std::string> unread;
  for (const auto& name : old_weights) {
    if (index.Consumers(name) == 0 && kept.count(name) == 0) unread.insert(name);
  }
  EraseNodes(graph, unread);
  return result;
}

}  // namespace graphport::tf
