// A function body names tensors as "node:output_arg:index" (TensorFlow's function form); a graph
// names them "node:flat_index". Turning one into the other needs each op's output args and the
// sizes its attrs give them (a list output's length is in a number or type-list attr).
#ifndef GRAPHPORT_TF_FREEZE_FUNCTION_TENSORS_H_
#define GRAPHPORT_TF_FREEZE_FUNCTION_TENSORS_H_

#include <map>
#include <string>

#include "tensorflow/function.pb.h"
#include "tensorflow/graph.pb.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

class FunctionTensors {
 public:
  // `function` and `registry` must outlive this. Library functions called by name are found in
  // `library`, whose signatures give their outputs.
  FunctionTensors(const tensorflow::FunctionDef& function, const OpRegistry& registry,
                  const tensorflow::FunctionDefLibrary& library);

  // The graph form of a data input of a body node: "node:output_arg:i" -> {node, flat index};
  // a bare name is an argument of the function ({name, -1}) or, for "node:arg" without an
  // index, output 0 of that arg. Throws Error(kUnsupported) when the op's OpDef is unknown and
  // Error(kParseError) for a reference to a node or output arg the body does not have.
  struct Tensor {
    std::string node;  // a body node's name, or the argument's name when `index` is -1
    int index = -1;
  };
  Tensor Resolve(const std::string& reference) const;

  // The flat index of output arg `arg`, element `i`, of `node` (its OpDef from the registry
  // or the library).
  int FlatIndex(const tensorflow::NodeDef& node, const std::string& arg, int i) const;

 private:
  const tensorflow::FunctionDef& function_;
  const OpRegistry& registry_;
  std::map<std::string, const tensorflow::FunctionDef*> library_;
  std::map<std::string, const tensorflow::NodeDef*> nodes_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_FUNCTION_TENSORS_H_
