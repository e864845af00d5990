// Small graphs and functions built in code for the freeze tests (the generated classes are
// lite: no text format).
#ifndef GRAPHPORT_TESTS_CPP_TF_FREEZE_TEST_GRAPHS_H_
#define GRAPHPORT_TESTS_CPP_TF_FREEZE_TEST_GRAPHS_H_

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/function.pb.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/op_def.pb.h"

namespace graphport::testing {

inline tensorflow::NodeDef Node(const std::string& name, const std::string& op,
                                std::initializer_list<std::string> inputs = {}) {
  tensorflow::NodeDef node;
  node.set_name(name);
  node.set_op(op);
  for (const auto& input : inputs) node.add_input(input);
  return node;
}

inline tensorflow::NodeDef& AddNode(tensorflow::GraphDef* graph, const std::string& name,
                                    const std::string& op,
                                    std::initializer_list<std::string> inputs = {}) {
  *graph->add_node() = Node(name, op, inputs);
  return *graph->mutable_node(graph->node_size() - 1);
}

inline void SetType(tensorflow::NodeDef* node, const std::string& attr, tensorflow::DataType type) {
  (*node->mutable_attr())[attr].set_type(type);
}

inline void SetFunction(tensorflow::NodeDef* node, const std::string& attr,
                        const std::string& function) {
  (*node->mutable_attr())[attr].mutable_func()->set_name(function);
}

inline void SetTypeList(tensorflow::NodeDef* node, const std::string& attr,
                        std::initializer_list<tensorflow::DataType> types) {
  auto* list = (*node->mutable_attr())[attr].mutable_list();
  for (auto t : types) list->add_type(t);
}

// An OpDef with the named single outputs, plus list outputs given as {name, number_attr} or
// {name, type_list_attr} by `kind` ("n" or "t").
struct OutputSpec {
  std::string name;
  std::string kind;  // "", "n" (number_attr), "t" (type_list_attr)
  std::string attr;
};
inline tensorflow::OpDef Op(const std::string& name, std::vector<OutputSpec> outputs) {
  tensorflow::OpDef op;
  op.set_name(name);
  for (const auto& o : outputs) {
    auto* arg = op.add_output_arg();
    arg->set_name(o.name);
    if (o.kind == "n") arg->set_number_attr(o.attr);
    if (o.kind == "t") arg->set_type_list_attr(o.attr);
    if (o.kind.empty()) arg->set_type(tensorflow::DT_FLOAT);
  }
  return op;
}

// The OpDefs the tests' functions use.
inline tensorflow::OpList TestOps() {
  tensorflow::OpList ops;
  *ops.add_op() = Op("Neg", {{"y", "", ""}});
  *ops.add_op() = Op("Identity", {{"output", "", ""}});
  *ops.add_op() = Op("IdentityN", {{"output", "t", "T"}});
  *ops.add_op() = Op("Split", {{"output", "n", "num_split"}});
  *ops.add_op() = Op("StatefulPartitionedCall", {{"output", "t", "Tout"}});
  *ops.add_op() = Op("PartitionedCall", {{"output", "t", "Tout"}});
  *ops.add_op() = Op("ReadVariableOp", {{"value", "", ""}});
  *ops.add_op() = Op("Mul", {{"z", "", ""}});
  *ops.add_op() = Op("NoOp", {});
  return ops;
}

// A function of float inputs and outputs; `rets` maps each output to its body tensor.
inline tensorflow::FunctionDef Function(
    const std::string& name, std::initializer_list<std::string> inputs,
    std::initializer_list<std::pair<std::string, std::string>> rets,
    std::initializer_list<tensorflow::NodeDef> body) {
  tensorflow::FunctionDef f;
  f.mutable_signature()->set_name(name);
  for (const auto& input : inputs) {
    auto* arg = f.mutable_signature()->add_input_arg();
    arg->set_name(input);
    arg->set_type(tensorflow::DT_FLOAT);
  }
  for (const auto& [output, tensor] : rets) {
    auto* arg = f.mutable_signature()->add_output_arg();
    arg->set_name(output);
    arg->set_type(tensorflow::DT_FLOAT);
    (*f.mutable_ret())[output] = tensor;
  }
  for (const auto& node : body) *f.add_node_def() = node;
  return f;
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_TF_FREEZE_TEST_GRAPHS_H_
