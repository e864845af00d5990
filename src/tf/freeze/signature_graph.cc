#include "tf/freeze/signature_graph.h"

#include <map>
#include <set>

#include "core/error.h"
#include "tf/freeze/function_body.h"
#include "tf/freeze/inline_calls.h"
#include "tf/freeze/node_location.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

std::string WithIndex(const std::string& tensor) {
  std::string node;
  int index = 0;
  SplitGraphInput(tensor, &node, &index);
  return node + ":" + std::to_string(index);
}

// A signature's map in key order: protobuf maps iterate in no fixed order.
std::map<std::string, tensorflow::TensorInfo> Sorted(
    const google::protobuf::Map<std::string, tensorflow::TensorInfo>& map) {
  return std::map<std::string, tensorflow::TensorInfo>(map.begin(), map.end());
}

tensorflow::NodeDef MakePlaceholder(const std::string& name, tensorflow::DataType dtype,
                                    const tensorflow::TensorShapeProto* shape) {
  tensorflow::NodeDef node;
  node.set_name(name);
  node.set_op("Placeholder");
  (*node.mutable_attr())["dtype"].set_type(dtype);
  if (shape != nullptr) *(*node.mutable_attr())["shape"].mutable_shape() = *shape;
  return node;
}

// The call node that computes every output of the signature, when there is one.
const tensorflow::NodeDef* SignatureCall(const tensorflow::GraphDef& graph,
                                         const tensorflow::SignatureDef& signature) {
  std::string call;
  for (const auto& [key, info] : signature.outputs()) {
    std::string node;
    int index = 0;
    SplitGraphInput(info.name(), &node, &index);
    if (!call.empty() && node != call) return nullptr;
    call = node;
  }
  if (call.empty()) return nullptr;
  const tensorflow::NodeDef* node = FindNode(graph, call);
  if (node == nullptr || CalledFunction(*node, graph.library()) == nullptr) return nullptr;
  return node;
}

SignatureGraph FromFunction(const tensorflow::MetaGraphDef& meta_graph,
                            const tensorflow::GraphDef& graph,
                            const tensorflow::SignatureDef& signature,
                            const tensorflow::NodeDef& call, const OpRegistry& registry) {
  const tensorflow::FunctionDef& function = *CalledFunction(call, graph.library());
  const auto& args = function.signature().input_arg();
  SignatureGraph out;
  out.function = function.signature().name();
  *out.graph.mutable_library() = graph.library();
  *out.graph.mutable_versions() = graph.versions();

  std::vector<int> bound;
  auto concrete = meta_graph.object_graph_def().concrete_functions().find(out.function);
  if (concrete != meta_graph.object_graph_def().concrete_functions().end()) {
    bound.assign(concrete->second.bound_inputs().begin(), concrete->second.bound_inputs().end());
  }
  std::vector<std::string> call_inputs;
  for (const auto& input : call.input()) {
    if (input.rfind('^', 0) != 0) call_inputs.push_back(input);
  }
  // Captured resources are the last arguments: bound_inputs lists their objects in order.
  int captured = static_cast<int>(bound.size());
  if (bound.empty()) {
    for (const auto& arg : args) captured += arg.type() == tensorflow::DT_RESOURCE ? 1 : 0;
  }
  int user = args.size() - captured;
  if (user < 0) {
    throw Error(ErrorCode::kParseError,
                "function '" + out.function + "' has " + std::to_string(args.size()) +
                    " arguments but the object graph binds " + std::to_string(captured),
                AtNode(out.function));
  }
  const tensorflow::AttrValue* input_shapes = nullptr;
  auto shapes = function.attr().find("_input_shapes");
  if (shapes != function.attr().end()) input_shapes = &shapes->second;

  std::map<std::string, std::string> arguments;
  for (int k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    const tensorflow::TensorShapeProto* shape = nullptr;
    if (input_shapes != nullptr && k < input_shapes->list().shape_size()) {
      shape = &input_shapes->list().shape(k);
    }
    *out.graph.add_node() = MakePlaceholder(arg.name(), arg.type(), k < user ? shape : nullptr);
    arguments[arg.name()] = arg.name();
    if (k >= user) {
      SignatureGraph::Capture capture;
      capture.node = arg.name();
      if (!bound.empty()) capture.object_id = bound[k - user];
      if (static_cast<size_t>(k) < call_inputs.size()) {
        int index = 0;
        SplitGraphInput(call_inputs[k], &capture.outer, &index);
      }
      out.captures.push_back(capture);
    }
  }
  FunctionBodyCopy body =
      CopyFunctionBody(function, "", arguments, "", "", registry, graph.library(), &out.graph);

  // The signature's inputs are the call's user inputs, in order.
  for (const auto& [key, info] : Sorted(signature.inputs())) {
    std::string wanted = WithIndex(info.name());
    int k = 0;
    while (k < user &&
           (static_cast<size_t>(k) >= call_inputs.size() || WithIndex(call_inputs[k]) != wanted)) {
      ++k;
    }
    if (k == user) {
      throw Error(ErrorCode::kUnsupported,
                  "signature input '" + key + "' (" + info.name() + ") is not an input of '" +
                      call.name() + "', the call that computes the signature",
                  AtNode(call.name()));
    }
    tensorflow::TensorInfo placeholder = info;
    placeholder.set_name(args[k].name() + ":0");
    out.inputs.emplace_back(key, placeholder);
  }
  for (const auto& [key, info] : Sorted(signature.outputs())) {
    std::string node;
    int index = 0;
    SplitGraphInput(info.name(), &node, &index);
    if (index < 0 || static_cast<size_t>(index) >= body.outputs.size()) {
      throw Error(ErrorCode::kParseError,
                  "signature output '" + key + "' (" + info.name() + ") is no output of '" +
                      out.function + "'",
                  AtNode(call.name()));
    }
    tensorflow::TensorInfo output = info;
    output.set_name(body.outputs[index]);
    out.outputs.emplace_back(key, output);
  }
  return out;
}

SignatureGraph FromGraph(const tensorflow::GraphDef& graph,
                         const tensorflow::SignatureDef& signature) {
  SignatureGraph out;
  out.graph = graph;
  std::map<std::string, tensorflow::NodeDef> placeholders;
  for (const auto& [key, info] : Sorted(signature.inputs())) {
    std::string node;
    int index = 0;
    SplitGraphInput(info.name(), &node, &index);
    if (index != 0 || FindNode(graph, node) == nullptr) {
      throw Error(ErrorCode::kUnsupported,
                  "signature input '" + key + "' (" + info.name() +
                      ") is not the first output of a node of the graph, so it cannot be fed",
                  AtNode(node));
    }
    placeholders[node] = MakePlaceholder(node, info.dtype(),
                                         info.has_tensor_shape() ? &info.tensor_shape() : nullptr);
    tensorflow::TensorInfo input = info;
    input.set_name(node + ":0");
    out.inputs.emplace_back(key, input);
  }
  for (auto& node : *out.graph.mutable_node()) {
    auto placeholder = placeholders.find(node.name());
    if (placeholder == placeholders.end()) continue;
    if (node.op() == "Placeholder") continue;
    std::string device = node.device();
    node = placeholder->second;
    node.set_device(device);
  }
  for (const auto& [key, info] : Sorted(signature.outputs())) {
    out.outputs.emplace_back(key, info);
  }
  return out;
}

}  // namespace

SignatureGraph BuildSignatureGraph(const tensorflow::MetaGraphDef& meta_graph,
                                   const tensorflow::GraphDef& graph, const std::string& key,
                                   const OpRegistry& registry) {
  auto found = meta_graph.signature_def().find(key);
  if (found == meta_graph.signature_def().end()) {
    std::set<std::string> keys;
    for (const auto& [name, def] : meta_graph.signature_def()) {
      if (name.rfind("__", 0) != 0) keys.insert(name);
    }
    std::string have;
    for (const auto& name : keys) have += (have.empty() ? "" : ", ") + name;
    throw Error(ErrorCode::kNotFound,
                "the model has no signature '" + key + "'" +
                    (have.empty() ? std::string(" (it has none)") : " (it has " + have + ")"));
  }
  const tensorflow::SignatureDef& signature = found->second;
  if (signature.outputs().empty()) {
    throw Error(ErrorCode::kUnsupported, "signature '" + key + "' has no outputs to freeze");
  }
  const tensorflow::NodeDef* call = SignatureCall(graph, signature);
  SignatureGraph out = call != nullptr ? FromFunction(meta_graph, graph, signature, *call, registry)
                                       : FromGraph(graph, signature);
  out.method_name = signature.method_name();
  return out;
}

}  // namespace graphport::tf
