// Small graphs built in code for the optimization tests (the generated classes are lite: no
// text format), after tests/cpp/tf/freeze/test_graphs.h, with float Consts and readers.
#ifndef GRAPHPORT_TESTS_CPP_TF_OPTIMIZE_OPTIMIZE_TEST_GRAPHS_H_
#define GRAPHPORT_TESTS_CPP_TF_OPTIMIZE_OPTIMIZE_TEST_GRAPHS_H_

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::testing {

inline tensorflow::NodeDef& AddNode(tensorflow::GraphDef* graph, const std::string& name,
                                    const std::string& op,
                                    std::initializer_list<std::string> inputs = {}) {
  tensorflow::NodeDef* node = graph->add_node();
  node->set_name(name);
  node->set_op(op);
  for (const auto& input : inputs) node->add_input(input);
  return *node;
}

// A node of `op` with attr T = float.
inline tensorflow::NodeDef& AddFloatOp(tensorflow::GraphDef* graph, const std::string& name,
                                       const std::string& op,
                                       std::initializer_list<std::string> inputs) {
  tensorflow::NodeDef& node = AddNode(graph, name, op, inputs);
  (*node.mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  return node;
}

// A float32 Const of `shape` holding `values` in tensor_content.
inline tensorflow::NodeDef& AddConst(tensorflow::GraphDef* graph, const std::string& name,
                                     const std::vector<int64_t>& shape,
                                     const std::vector<float>& values) {
  tensorflow::NodeDef& node = AddNode(graph, name, "Const");
  (*node.mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
  auto* tensor = (*node.mutable_attr())["value"].mutable_tensor();
  tensor->set_dtype(tensorflow::DT_FLOAT);
  for (int64_t size : shape) tensor->mutable_tensor_shape()->add_dim()->set_size(size);
  tensor->set_tensor_content(
      std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  return node;
}

inline void SetInts(tensorflow::NodeDef* node, const std::string& attr,
                    std::initializer_list<int64_t> values) {
  auto* list = (*node->mutable_attr())[attr].mutable_list();
  for (int64_t v : values) list->add_i(v);
}

// A Conv2D (or DepthwiseConv2dNative) of float, NHWC, stride 1, SAME.
inline tensorflow::NodeDef& AddConv(tensorflow::GraphDef* graph, const std::string& name,
                                    const std::string& op, const std::string& input,
                                    const std::string& filter) {
  tensorflow::NodeDef& node = AddFloatOp(graph, name, op, {input, filter});
  SetInts(&node, "strides", {1, 1, 1, 1});
  SetInts(&node, "dilations", {1, 1, 1, 1});
  (*node.mutable_attr())["padding"].set_s("SAME");
  (*node.mutable_attr())["data_format"].set_s("NHWC");
  return node;
}

inline const tensorflow::NodeDef* Named(const tensorflow::GraphDef& graph,
                                        const std::string& name) {
  for (const auto& node : graph.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

inline std::vector<std::string> NodeNames(const tensorflow::GraphDef& graph) {
  std::vector<std::string> names;
  for (const auto& node : graph.node()) names.push_back(node.name());
  return names;
}

inline std::vector<std::string> Inputs(const tensorflow::NodeDef& node) {
  return {node.input().begin(), node.input().end()};
}

inline std::map<std::string, int> Ops(const tensorflow::GraphDef& graph) {
  std::map<std::string, int> ops;
  for (const auto& node : graph.node()) ++ops[node.op()];
  return ops;
}

// The float32 values of a Const (from tensor_content).
inline std::vector<float> FloatValues(const tensorflow::NodeDef& node) {
  const std::string& content = node.attr().at("value").tensor().tensor_content();
  std::vector<float> values(content.size() / sizeof(float));
  std::memcpy(values.data(), content.data(), values.size() * sizeof(float));
  return values;
}

inline std::vector<std::string> StringList(const tensorflow::NodeDef& node,
                                           const std::string& attr) {
  const auto& list = node.attr().at(attr).list().s();
  return {list.begin(), list.end()};
}

// The graph's bytes, map entries sorted, to check that a pass left a graph it cannot apply
// to unchanged.
inline std::string Bytes(const tensorflow::GraphDef& graph) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    graph.SerializeToCodedStream(&out);
  }
  return bytes;
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_TF_OPTIMIZE_OPTIMIZE_TEST_GRAPHS_H_
