// Copies a function's body into a graph: each body node under `prefix` + its name, its inputs
// turned from the function form ("node:output_arg:i", bare argument names) into the graph
// form ("prefix/node:flat"), arguments replaced by the graph tensors bound to them. Both the
// freeze's starting graph (a signature's function, arguments bound to placeholders) and every
// inlined call (arguments bound to the call's inputs) are made this way.
#ifndef GRAPHPORT_TF_FREEZE_FUNCTION_BODY_H_
#define GRAPHPORT_TF_FREEZE_FUNCTION_BODY_H_

#include <map>
#include <string>
#include <vector>

#include "tensorflow/function.pb.h"
#include "tensorflow/graph.pb.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

// "node" for output 0, "node:i" otherwise: how a graph names a tensor.
std::string GraphTensorName(const std::string& node, int index);
// Splits a graph input ("node", "node:3", "^node") into its node and index (-1 for control).
void SplitGraphInput(const std::string& input, std::string* node, int* index);

struct FunctionBodyCopy {
  // The graph names of the body's nodes, in body order (the prefix applied).
  std::vector<std::string> nodes;
  // The graph tensor of each output arg, in signature order.
  std::vector<std::string> outputs;
  // The graph names of the control_ret nodes.
  std::vector<std::string> control_outputs;
};

// Appends `function`'s body to `graph`. `arguments` binds each input arg's name to a graph
// tensor. `device` fills the device of body nodes that have none. `entry_control`, when not
// empty, is made a control input of every body node without inputs. Throws Error
// (kParseError, kUnsupported) naming the function and node.
FunctionBodyCopy CopyFunctionBody(const tensorflow::FunctionDef& function,
                                  const std::string& prefix,
                                  const std::map<std::string, std::string>& arguments,
                                  const std::string& device, const std::string& entry_control,
                                  const OpRegistry& registry,
                                  const tensorflow::FunctionDefLibrary& library,
                                  tensorflow::GraphDef* graph);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_FUNCTION_BODY_H_
