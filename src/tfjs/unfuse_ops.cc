#include "tfjs/unfuse_ops.h"

#include <set>

#include "core/error.h"

namespace graphport::tfjs {
namespace {

using tensorflow::AttrValue;
using tensorflow::NodeDef;

// tfjs-converter pins Conv2D and MatMul to this device only so Grappler's remapper fuses them
// (its CPU-only rule); it means nothing to the unfused graph, and TensorFlow's own frozen
// graph of the same model has no device.
constexpr char kConverterDevice[] = "/device:CPU:0";

const char* const kConv2DAttrs[] = {
    "T", "strides", "padding", "explicit_paddings", "data_format", "dilations", "use_cudnn_on_gpu"};
// DepthwiseConv2dNative has no use_cudnn_on_gpu: TensorFlow refuses an attr its op lacks.
const char* const kDepthwiseAttrs[] = {"T",           "strides",  "padding", "explicit_paddings",
                                       "data_format", "dilations"};
const char* const kMatMulAttrs[] = {"T", "transpose_a", "transpose_b"};

std::string Parent(const std::string& name) {
  size_t slash = name.find_last_of('/');
  return slash == std::string::npos ? "" : name.substr(0, slash);
}

class Unfuser {
 public:
  explicit Unfuser(tensorflow::GraphDef* graph) : graph_(graph) {
    for (const NodeDef& node : graph->node()) {
      names_.insert(node.name());
      if (node.op() == "Const") {
        auto dtype = node.attr().find("dtype");
        if (dtype != node.attr().end()) const_dtype_[node.name()] = dtype->second.type();
      }
    }
  }

  std::vector<UnfuseRewrite> Run() {
    for (const NodeDef& node : graph_->node()) {
      if (IsFused(node.op()) || node.op() == "Prelu") Plan(node);
    }
    google::protobuf::RepeatedPtrField<NodeDef> old;
    old.Swap(graph_->mutable_node());
    for (NodeDef& node : old) {
      const std::string& op = node.op();
      if (IsFused(op)) {
        SplitContraction(node);
      } else if (op == "Prelu") {
        SplitPrelu(node);
      } else if (op == "DepthwiseConv2d") {
        UnfuseRewrite rewrite{node.name(), op, {}, {{node.name(), "DepthwiseConv2dNative"}}};
        node.set_op("DepthwiseConv2dNative");
        graph_->add_node()->Swap(&node);
        rewrites_.push_back(std::move(rewrite));
      } else {
        graph_->add_node()->Swap(&node);
      }
    }
    return std::move(rewrites_);
  }

 private:
  [[noreturn]] void Fail(const NodeDef& node, const std::string& what) {
    ErrorLocation location;
    location.node = node.name();
    throw Error(ErrorCode::kUnsupported,
                "unfuseOps: node '" + node.name() + "' (" + node.op() + ") " + what, location);
  }

  // A fresh name under `base` ("base/Op", then "base/Op_1", ...).
  std::string Fresh(const std::string& base, const std::string& op) {
    std::string name = base + "/" + op;
    for (int i = 1; names_.count(name) != 0; ++i) name = base + "/" + op + "_" + std::to_string(i);
    names_.insert(name);
    return name;
  }

  NodeDef* Emit(const std::string& name, const std::string& op, const NodeDef& from) {
    NodeDef* node = graph_->add_node();
    node->set_name(name);
    node->set_op(op);
    if (from.device() != kConverterDevice) node->set_device(from.device());
    current_->into.emplace_back(name, op);
    return node;
  }

  static void SetType(NodeDef* node, const char* attr, tensorflow::DataType type) {
    (*node->mutable_attr())[attr].set_type(type);
  }

  static void CopyAttrs(const NodeDef& from, NodeDef* to, const char* const* begin,
                        const char* const* end) {
    for (const char* const* a = begin; a != end; ++a) {
      auto it = from.attr().find(*a);
      if (it != from.attr().end()) (*to->mutable_attr())[*a] = it->second;
    }
  }

  // Relu(x) - alpha * Relu(-x): x where x >= 0, alpha * x where x < 0, which is TF.js's Prelu
  // (alpha broadcast against x), using alpha as it is stored (no negated copy needed).
  void EmitPrelu(const std::string& x, const std::string& alpha, tensorflow::DataType type,
                 const std::string& final_name, const NodeDef& from,
                 const std::vector<std::string>& control) {
    std::string base = final_name;
    NodeDef* relu = Emit(Fresh(base, "Relu"), "Relu", from);
    relu->add_input(x);
    NodeDef* neg = Emit(Fresh(base, "Neg"), "Neg", from);
    neg->add_input(x);
    for (const std::string& c : control) {
      relu->add_input(c);
      neg->add_input(c);
    }
    NodeDef* relu_neg = Emit(Fresh(base, "Relu"), "Relu", from);
    relu_neg->add_input(neg->name());
    NodeDef* mul = Emit(Fresh(base, "Mul"), "Mul", from);
    mul->add_input(alpha);
    mul->add_input(relu_neg->name());
    NodeDef* sub = Emit(final_name, "Sub", from);
    sub->add_input(relu->name());
    sub->add_input(mul->name());
    for (NodeDef* n : {relu, neg, relu_neg, mul, sub}) SetType(n, "T", type);
  }

  static void SplitInputs(const NodeDef& node, std::vector<std::string>* data,
                          std::vector<std::string>* control) {
    for (const std::string& input : node.input()) {
      (!input.empty() && input[0] == '^' ? control : data)->push_back(input);
    }
  }

  static void KeepPrivateAttrs(const NodeDef& from, NodeDef* to) {
    for (const auto& [name, value] : from.attr()) {
      if (!name.empty() && name[0] == '_') (*to->mutable_attr())[name] = value;
    }
  }

  struct Step {
    std::string op;
    size_t first_arg;
    size_t args;
  };

  // What each fused step consumes; throws when the fusion cannot be split. Run() plans every
  // node before it changes any, so a refused graph is left as it was.
  std::vector<Step> Plan(const NodeDef& node) {
    std::vector<std::string> data, control;
    SplitInputs(node, &data, &control);
    if (node.op() == "Prelu") {
      if (data.size() != 2) Fail(node, "has " + std::to_string(data.size()) + " inputs, not 2");
      return {};
    }
    if (data.size() < 2) Fail(node, "has fewer than 2 data inputs");
    std::vector<std::string> fused;
    if (auto f = node.attr().find("fused_ops"); f != node.attr().end()) {
      for (const std::string& s : f->second.list().s()) fused.push_back(s);
    }
    std::vector<Step> steps;
    size_t next_arg = 2;
    for (const std::string& f : fused) {
      size_t args = 0;
      if (f == "BiasAdd" || f == "BiasAddV1" || f == "Prelu" || f == "Add") {
        args = 1;
      } else if (f == "FusedBatchNorm") {
        args = 4;
      } else if (f == "NoOp") {
        continue;
      } else if (f != "Relu" && f != "Relu6" && f != "Elu" && f != "LeakyRelu" && f != "Sigmoid" &&
                 f != "Tanh") {
        Fail(node, "fuses '" + f + "', which graphport cannot split");
      }
      steps.push_back({f, next_arg, args});
      next_arg += args;
    }
    auto num_args = node.attr().find("num_args");
    if (next_arg != data.size() ||
        (num_args != node.attr().end() &&
         num_args->second.i() != static_cast<int64_t>(data.size() - 2))) {
      Fail(node, "has " + std::to_string(data.size() - 2) + " fused arguments, but its fused_ops " +
                     "need " + std::to_string(next_arg - 2));
    }
    return steps;
  }

  static bool IsFused(const std::string& op) {
    return op == "_FusedConv2D" || op == "_FusedMatMul" || op == "FusedDepthwiseConv2dNative";
  }

  void SplitPrelu(const NodeDef& node) {
    std::vector<std::string> data, control;
    SplitInputs(node, &data, &control);
    rewrites_.push_back({node.name(), node.op(), {}, {}});
    current_ = &rewrites_.back();
    // TF.js's Prelu carries no T: the alpha Const's dtype says it, float32 otherwise.
    tensorflow::DataType type = tensorflow::DT_FLOAT;
    auto t = node.attr().find("T");
    if (t != node.attr().end()) {
      type = t->second.type();
    } else if (auto c = const_dtype_.find(data[1]); c != const_dtype_.end()) {
      type = c->second;
    }
    names_.erase(node.name());  // the last new node takes it
    EmitPrelu(data[0], data[1], type, node.name(), node, control);
    KeepPrivateAttrs(node, graph_->mutable_node(graph_->node_size() - 1));
  }

  void SplitContraction(const NodeDef& node) {
    std::vector<std::string> data, control;
    SplitInputs(node, &data, &control);
    std::vector<std::string> fused;
    if (auto f = node.attr().find("fused_ops"); f != node.attr().end()) {
      for (const std::string& s : f->second.list().s()) fused.push_back(s);
    }
    rewrites_.push_back({node.name(), node.op(), fused, {}});
    current_ = &rewrites_.back();

    std::vector<Step> steps = Plan(node);
    tensorflow::DataType type = tensorflow::DT_FLOAT;
    if (auto t = node.attr().find("T"); t != node.attr().end()) type = t->second.type();
    AttrValue data_format;
    data_format.set_s("NHWC");
    if (auto d = node.attr().find("data_format"); d != node.attr().end()) data_format = d->second;

    names_.erase(node.name());
    const char* contraction_op = node.op() == "_FusedConv2D"   ? "Conv2D"
                                 : node.op() == "_FusedMatMul" ? "MatMul"
                                                               : "DepthwiseConv2dNative";
    // The contraction keeps the name TensorFlow gave it before Grappler fused it where that is
    // free (a Keras layer's "dense/MatMul" beside "dense/BiasAdd"), else goes under the node.
    std::string contraction_name = node.name();
    if (!steps.empty()) {
      std::string sibling =
          Parent(node.name()).empty() ? contraction_op : Parent(node.name()) + "/" + contraction_op;
      if (names_.count(sibling) == 0) {
        names_.insert(sibling);
        contraction_name = sibling;
      } else {
        contraction_name = Fresh(node.name(), contraction_op);
      }
    }
    NodeDef* contraction = Emit(contraction_name, contraction_op, node);
    contraction->add_input(data[0]);
    contraction->add_input(data[1]);
    for (const std::string& c : control) contraction->add_input(c);
    if (node.op() == "_FusedConv2D") {
      CopyAttrs(node, contraction, std::begin(kConv2DAttrs), std::end(kConv2DAttrs));
    } else if (node.op() == "_FusedMatMul") {
      CopyAttrs(node, contraction, std::begin(kMatMulAttrs), std::end(kMatMulAttrs));
    } else {
      CopyAttrs(node, contraction, std::begin(kDepthwiseAttrs), std::end(kDepthwiseAttrs));
    }
    SetType(contraction, "T", type);

    std::string previous = contraction_name;
    for (size_t s = 0; s < steps.size(); ++s) {
      const Step& step = steps[s];
      bool last = s + 1 == steps.size();
      if (step.op == "Prelu") {
        std::string name = last ? node.name() : Fresh(node.name(), "Prelu");
        EmitPrelu(previous, data[step.first_arg], type, name, node, {});
        previous = name;
        continue;
      }
      std::string op = step.op == "BiasAddV1"        ? "BiasAdd"
                       : step.op == "FusedBatchNorm" ? "FusedBatchNormV3"
                       : step.op == "Add"            ? "AddV2"
                                                     : step.op;
      std::string name = last ? node.name() : Fresh(node.name(), op);
      NodeDef* n = Emit(name, op, node);
      n->add_input(previous);
      for (size_t a = 0; a < step.args; ++a) n->add_input(data[step.first_arg + a]);
      SetType(n, "T", type);
      if (op == "BiasAdd") {
        (*n->mutable_attr())["data_format"] = data_format;
      } else if (op == "FusedBatchNormV3") {
        SetType(n, "U", tensorflow::DT_FLOAT);
        (*n->mutable_attr())["data_format"] = data_format;
        (*n->mutable_attr())["is_training"].set_b(false);  // the op's default is true
        float epsilon = 0.0001f;
        if (auto e = node.attr().find("epsilon"); e != node.attr().end()) epsilon = e->second.f();
        (*n->mutable_attr())["epsilon"].set_f(epsilon);
      } else if (op == "LeakyRelu") {
        float alpha = 0.2f;  // the op's default, when the fused node does not say
        if (auto a = node.attr().find("leakyrelu_alpha"); a != node.attr().end()) {
          alpha = a->second.f();
        }
        (*n->mutable_attr())["alpha"].set_f(alpha);
      }
      previous = name;
    }
    KeepPrivateAttrs(node, graph_->mutable_node(graph_->node_size() - 1));
  }

  tensorflow::GraphDef* graph_;
  std::set<std::string> names_;
  std::map<std::string, tensorflow::DataType> const_dtype_;
  std::vector<UnfuseRewrite> rewrites_;
  UnfuseRewrite* current_ = nullptr;
};

}  // namespace

std::vector<UnfuseRewrite> UnfuseOps(tensorflow::GraphDef* graph) { return Unfuser(graph).Run(); }

nlohmann::json RewritesToJson(const std::vector<UnfuseRewrite>& rewrites) {
  nlohmann::json out = nlohmann::json::array();
  for (const UnfuseRewrite& r : rewrites) {
    nlohmann::json into = nlohmann::json::array();
    for (const auto& [name, op] : r.into) into.push_back({{"name", name}, {"op", op}});
    out.push_back({{"node", r.node}, {"op", r.op}, {"fusedOps", r.fused_ops}, {"into", into}});
  }
  return out;
}

}  // namespace graphport::tfjs
