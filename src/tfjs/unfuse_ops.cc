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

// The output arg of each op a rewrite emits: a function body names a node's output
// "<node>:<output arg>:<index>".
const char* OutputArg(const std::string& op) {
  if (op == "MatMul") return "product";
  if (op == "FusedBatchNormV3" || op == "Sigmoid" || op == "Tanh" || op == "Neg") return "y";
  if (op == "AddV2" || op == "Mul" || op == "Sub") return "z";
  if (op == "Relu" || op == "Relu6" || op == "Elu" || op == "LeakyRelu") return "activations";
  return "output";  // Conv2D, DepthwiseConv2dNative, BiasAdd
}

std::string Parent(const std::string& name) {
  size_t slash = name.find_last_of('/');
  return slash == std::string::npos ? "" : name.substr(0, slash);
}

class Unfuser {
 public:
  // `function` is the name of the function whose body `nodes` is, or empty for a graph.
  Unfuser(google::protobuf::RepeatedPtrField<NodeDef>* nodes, std::string function)
      : nodes_(nodes), function_(std::move(function)) {
    for (const NodeDef& node : *nodes) {
      names_.insert(node.name());
      if (node.op() == "Const") {
        auto dtype = node.attr().find("dtype");
        if (dtype != node.attr().end()) const_dtype_[node.name()] = dtype->second.type();
      }
    }
  }

  std::vector<UnfuseRewrite> Run() {
    for (const NodeDef& node : *nodes_) {
      if (IsFused(node.op()) || node.op() == "Prelu") Plan(node);
    }
    google::protobuf::RepeatedPtrField<NodeDef> old;
    old.Swap(nodes_);
    for (NodeDef& node : old) {
      const std::string& op = node.op();
      if (IsFused(op)) {
        SplitContraction(node);
      } else if (op == "Prelu") {
        SplitPrelu(node);
      } else if (op == "DepthwiseConv2d") {
        UnfuseRewrite rewrite{
            node.name(), op, {}, {{node.name(), "DepthwiseConv2dNative"}}, function_};
        node.set_op("DepthwiseConv2dNative");
        nodes_->Add()->Swap(&node);
        rewrites_.push_back(std::move(rewrite));
      } else {
        nodes_->Add()->Swap(&node);
      }
    }
    for (const UnfuseRewrite& r : rewrites_) final_op_[r.node] = r.into.back().second;
    if (!function_.empty()) {
      for (NodeDef& node : *nodes_) {
        for (std::string& input : *node.mutable_input()) input = Reference(input);
      }
    }
    return std::move(rewrites_);
  }

  // In a function body, a reference to a rewritten node's output as its new last node's
  // output arg names it ("conv:output:0" becomes "conv:activations:0" after a Relu).
  std::string Reference(const std::string& input) const {
    size_t first = input.find(':');
    if (input.empty() || input[0] == '^' || first == std::string::npos) return input;
    size_t second = input.find(':', first + 1);
    if (second == std::string::npos) return input;
    std::string node = input.substr(0, first);
    auto rewritten = final_op_.find(node);
    if (rewritten == final_op_.end()) return input;
    return node + ":" + OutputArg(rewritten->second) + input.substr(second);
  }

 private:
  [[noreturn]] void Fail(const NodeDef& node, const std::string& what) {
    ErrorLocation location;
    location.node = node.name();
    std::string where = function_.empty() ? "" : "function '" + function_ + "': ";
    throw Error(ErrorCode::kUnsupported,
                "unfuseOps: " + where + "node '" + node.name() + "' (" + node.op() + ") " + what,
                location);
  }

  // A fresh name under `base` ("base/Op", then "base/Op_1", ...).
  std::string Fresh(const std::string& base, const std::string& op) {
    std::string name = base + "/" + op;
    for (int i = 1; names_.count(name) != 0; ++i) name = base + "/" + op + "_" + std::to_string(i);
    names_.insert(name);
    return name;
  }

  NodeDef* Emit(const std::string& name, const std::string& op, const NodeDef& from) {
    NodeDef* node = nodes_->Add();
    node->set_name(name);
    node->set_op(op);
    if (from.device() != kConverterDevice) node->set_device(from.device());
    current_->into.emplace_back(name, op);
    return node;
  }

  // How an emitted node reads the output of another: by name in a graph, by name and output
  // arg in a function body.
  std::string Ref(const NodeDef* node) const {
    return function_.empty() ? node->name() : node->name() + ":" + OutputArg(node->op()) + ":0";
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
    relu_neg->add_input(Ref(neg));
    NodeDef* mul = Emit(Fresh(base, "Mul"), "Mul", from);
    mul->add_input(alpha);
    mul->add_input(Ref(relu_neg));
    NodeDef* sub = Emit(final_name, "Sub", from);
    sub->add_input(Ref(relu));
    sub->add_input(Ref(mul));
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
    rewrites_.push_back({node.name(), node.op(), {}, {}, function_});
    current_ = &rewrites_.back();
    // TF.js's Prelu carries no T: the alpha Const's dtype says it, float32 otherwise.
    tensorflow::DataType type = tensorflow::DT_FLOAT;
    auto t = node.attr().find("T");
    if (t != node.attr().end()) {
      type = t->second.type();
    } else if (auto c = const_dtype_.find(data[1].substr(0, data[1].find(':')));
               c != const_dtype_.end()) {
      type = c->second;
    }
    names_.erase(node.name());  // the last new node takes it
    EmitPrelu(data[0], data[1], type, node.name(), node, control);
    KeepPrivateAttrs(node, nodes_->Mutable(nodes_->size() - 1));
  }

  void SplitContraction(const NodeDef& node) {
    std::vector<std::string> data, control;
    SplitInputs(node, &data, &control);
    std::vector<std::string> fused;
    if (auto f = node.attr().find("fused_ops"); f != node.attr().end()) {
      for (const std::string& s : f->second.list().s()) fused.push_back(s);
    }
    rewrites_.push_back({node.name(), node.op(), fused, {}, function_});
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

    std::string previous = Ref(contraction);
    for (size_t s = 0; s < steps.size(); ++s) {
      const Step& step = steps[s];
      bool last = s + 1 == steps.size();
      if (step.op == "Prelu") {
        std::string name = last ? node.name() : Fresh(node.name(), "Prelu");
        EmitPrelu(previous, data[step.first_arg], type, name, node, {});
        previous = Ref(nodes_->Mutable(nodes_->size() - 1));
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
      previous = Ref(n);
    }
    KeepPrivateAttrs(node, nodes_->Mutable(nodes_->size() - 1));
  }

  google::protobuf::RepeatedPtrField<NodeDef>* nodes_;
  std::string function_;
  std::set<std::string> names_;
  std::map<std::string, tensorflow::DataType> const_dtype_;
  std::vector<UnfuseRewrite> rewrites_;
  std::map<std::string, std::string> final_op_;  // rewritten node -> the op that took its name
  UnfuseRewrite* current_ = nullptr;
};

}  // namespace

std::vector<UnfuseRewrite> UnfuseOps(tensorflow::GraphDef* graph) {
  // Every body is planned and rewritten on a copy first, so a refused graph is left as it was.
  tensorflow::GraphDef copy = *graph;
  std::vector<UnfuseRewrite> rewrites = Unfuser(copy.mutable_node(), "").Run();
  for (auto& f : *copy.mutable_library()->mutable_function()) {
    Unfuser body(f.mutable_node_def(), f.signature().name());
    std::vector<UnfuseRewrite> in_body = body.Run();
    for (auto& [key, value] : *f.mutable_ret()) value = body.Reference(value);
    for (auto& r : in_body) rewrites.push_back(std::move(r));
  }
  graph->Swap(&copy);
  return rewrites;
}

nlohmann::json RewritesToJson(const std::vector<UnfuseRewrite>& rewrites) {
  nlohmann::json out = nlohmann::json::array();
  for (const UnfuseRewrite& r : rewrites) {
    nlohmann::json into = nlohmann::json::array();
    for (const auto& [name, op] : r.into) into.push_back({{"name", name}, {"op", op}});
    nlohmann::json entry = {{"node", r.node}, {"op", r.op}, {"fusedOps", r.fused_ops}};
    if (!r.function.empty()) entry["function"] = r.function;
    entry["into"] = std::move(into);
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace graphport::tfjs
