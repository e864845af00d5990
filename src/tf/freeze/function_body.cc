#include "tf/freeze/function_body.h"

#include "core/error.h"
#include "tf/freeze/function_tensors.h"
#include "tf/freeze/node_location.h"

namespace graphport::tf {

std::string GraphTensorName(const std::string& node, int index) {
  return index == 0 ? node : node + ":" + std::to_string(index);
}

void SplitGraphInput(const std::string& input, std::string* node, int* index) {
  if (!input.empty() && input[0] == '^') {
    *node = input.substr(1);
    *index = -1;
    return;
  }
  size_t colon = input.rfind(':');
  if (colon != std::string::npos && colon + 1 < input.size() &&
      input.find_first_not_of("0123456789", colon + 1) == std::string::npos &&
      input.size() - colon <= 10) {
    *node = input.substr(0, colon);
    *index = std::stoi(input.substr(colon + 1));
    return;
  }
  *node = input;
  *index = 0;
}

FunctionBodyCopy CopyFunctionBody(const tensorflow::FunctionDef& function,
                                  const std::string& prefix,
                                  const std::map<std::string, std::string>& arguments,
                                  const std::string& device, const std::string& entry_control,
                                  const OpRegistry& registry,
                                  const tensorflow::FunctionDefLibrary& library,
                                  tensorflow::GraphDef* graph) {
  const std::string& name = function.signature().name();
  FunctionTensors tensors(function, registry, library);
  auto graph_tensor = [&](const std::string& reference, const std::string& node) {
    FunctionTensors::Tensor t = tensors.Resolve(reference);
    if (t.index >= 0) return GraphTensorName(prefix + t.node, t.index);
    auto bound = arguments.find(t.node);
    if (bound == arguments.end()) {
      throw Error(ErrorCode::kParseError,
                  "function '" + name + "': node '" + node + "' reads '" + reference +
                      "', which is neither an argument nor an output of a body node",
                  AtNode(node));
    }
    return bound->second;
  };

  FunctionBodyCopy copy;
  for (const auto& body : function.node_def()) {
    tensorflow::NodeDef* node = graph->add_node();
    *node = body;
    node->set_name(prefix + body.name());
    node->clear_input();
    for (const auto& input : body.input()) {
      if (!input.empty() && input[0] == '^') {
        node->add_input("^" + prefix + input.substr(1));
      } else {
        node->add_input(graph_tensor(input, body.name()));
      }
    }
    if (body.input().empty() && !entry_control.empty()) node->add_input("^" + entry_control);
    if (node->device().empty()) node->set_device(device);
    copy.nodes.push_back(node->name());
  }
  for (const auto& output : function.signature().output_arg()) {
    auto ret = function.ret().find(output.name());
    if (ret == function.ret().end()) {
      throw Error(ErrorCode::kParseError,
                  "function '" + name + "' has no ret for its output '" + output.name() + "'",
                  AtNode(name));
    }
    copy.outputs.push_back(graph_tensor(ret->second, name));
  }
  for (const auto& control : function.signature().control_output()) {
    auto ret = function.control_ret().find(control);
    copy.control_outputs.push_back(prefix +
                                   (ret == function.control_ret().end() ? control : ret->second));
  }
  return copy;
}

}  // namespace graphport::tf
