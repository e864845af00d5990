// Graphs rebuilt from TensorFlow's own export_meta_graph tests (meta_graph_test.py and
// saver_test.py, tensorflow.md §3.6), with the node names TensorFlow 1.x gives them. Built
// here, as protos, because graphport has no Python graph to export from.
#ifndef GRAPHPORT_TESTS_CPP_TF_META_GRAPH_TF_TEST_GRAPHS_H_
#define GRAPHPORT_TESTS_CPP_TF_META_GRAPH_TF_TEST_GRAPHS_H_

#include <google/protobuf/any.pb.h>

#include <string>
#include <vector>

#include "meta_graph_test_util.h"
#include "tensorflow/control_flow.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/queue_runner.pb.h"
#include "tensorflow/saver.pb.h"
#include "tensorflow/variable.pb.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf::mgtest {

inline tensorflow::NodeDef* AddNode(tensorflow::GraphDef* graph, const std::string& name,
                                    const std::string& op,
                                    const std::vector<std::string>& inputs = {},
                                    const std::string& device = "") {
  tensorflow::NodeDef* node = graph->add_node();
  node->set_name(name);
  node->set_op(op);
  for (const auto& input : inputs) node->add_input(input);
  node->set_device(device);
  return node;
}

// Sets attr `key` from AttrValue text, e.g. SetAttr(n, "T", "type: DT_FLOAT").
inline void SetAttr(tensorflow::NodeDef* node, const std::string& key, const std::string& text) {
  (*node->mutable_attr())[key] = Text<tensorflow::AttrValue>(text);
}

inline tensorflow::NodeDef* AddConst(tensorflow::GraphDef* graph, const std::string& name,
                                     float value, const std::vector<std::string>& inputs = {}) {
  tensorflow::NodeDef* node = AddNode(graph, name, "Const", inputs);
  SetAttr(node, "dtype", "type: DT_FLOAT");
  SetAttr(node, "value",
          "tensor { dtype: DT_FLOAT tensor_shape {} float_val: " + std::to_string(value) + " }");
  return node;
}

inline tensorflow::NodeDef* AddStringConst(tensorflow::GraphDef* graph, const std::string& name,
                                           const std::string& value) {
  tensorflow::NodeDef* node = AddNode(graph, name, "Const");
  SetAttr(node, "dtype", "type: DT_STRING");
  SetAttr(
      node, "value",
      "tensor { dtype: DT_STRING tensor_shape { dim { size: 1 } } string_val: \"" + value + "\" }");
  return node;
}

inline void AddCollectionBytes(tensorflow::MetaGraphDef* mg, const std::string& key,
                               const std::string& bytes) {
  (*mg->mutable_collection_def())[key].mutable_bytes_list()->add_value(bytes);
}

inline void AddCollectionNode(tensorflow::MetaGraphDef* mg, const std::string& key,
                              const std::string& name) {
  (*mg->mutable_collection_def())[key].mutable_node_list()->add_value(name);
}

// A TF 1.x Variable: `name` (VariableV2), name/Assign from `initial_value`, name/read; recorded
// in the variables and trainable_variables collections as TensorFlow's to_proto writes it.
inline tensorflow::VariableDef AddVariable(tensorflow::MetaGraphDef* mg, const std::string& name,
                                           const std::string& initial_value,
                                           const std::string& device = "",
                                           const std::string& colocate_with = "") {
  tensorflow::GraphDef* graph = mg->mutable_graph_def();
  const std::string group = "loc:@" + (colocate_with.empty() ? name : colocate_with);
  tensorflow::NodeDef* var = AddNode(graph, name, "VariableV2", {}, device);
  SetAttr(var, "dtype", "type: DT_FLOAT");
  SetAttr(var, "shape", "shape {}");
  SetAttr(var, "container", "s: \"\"");
  SetAttr(var, "shared_name", "s: \"\"");
  if (!colocate_with.empty()) SetAttr(var, "_class", "list { s: \"" + group + "\" }");
  tensorflow::NodeDef* assign =
      AddNode(graph, name + "/Assign", "Assign", {name, initial_value}, device);
  SetAttr(assign, "T", "type: DT_FLOAT");
  SetAttr(assign, "use_locking", "b: true");
  SetAttr(assign, "validate_shape", "b: true");
  SetAttr(assign, "_class", "list { s: \"" + group + "\" }");
  tensorflow::NodeDef* read = AddNode(graph, name + "/read", "Identity", {name}, device);
  SetAttr(read, "T", "type: DT_FLOAT");
  SetAttr(read, "_class", "list { s: \"" + group + "\" }");

  tensorflow::VariableDef def;
  def.set_variable_name(name + ":0");
  def.set_initial_value_name(initial_value + ":0");
  def.set_initializer_name(name + "/Assign");
  def.set_snapshot_name(name + "/read:0");
  def.set_trainable(true);
  AddCollectionBytes(mg, "variables", def.SerializeAsString());
  AddCollectionBytes(mg, "trainable_variables", def.SerializeAsString());
  return def;
}

// TF 1.x Saver (write_version V2) named `scope` for one variable: the 10 nodes it adds.
inline tensorflow::SaverDef AddV2Saver(tensorflow::GraphDef* graph, const std::string& scope,
                                       const std::string& variable, const std::string& key) {
  const std::string s = scope + "/";
  AddStringConst(graph, s + "Const", "model");
  AddStringConst(graph, s + "SaveV2/tensor_names", key);
  AddStringConst(graph, s + "SaveV2/shape_and_slices", "");
  SetAttr(
      AddNode(graph, s + "SaveV2", "SaveV2",
              {s + "Const", s + "SaveV2/tensor_names", s + "SaveV2/shape_and_slices", variable}),
      "dtypes", "list { type: DT_FLOAT }");
  tensorflow::NodeDef* dep =
      AddNode(graph, s + "control_dependency", "Identity", {s + "Const", "^" + s + "SaveV2"});
  SetAttr(dep, "T", "type: DT_STRING");
  SetAttr(dep, "_class", "list { s: \"loc:@" + s + "Const\" }");
  AddStringConst(graph, s + "RestoreV2/tensor_names", key);
  AddStringConst(graph, s + "RestoreV2/shape_and_slices", "");
  SetAttr(AddNode(graph, s + "RestoreV2", "RestoreV2",
                  {s + "Const", s + "RestoreV2/tensor_names", s + "RestoreV2/shape_and_slices"}),
          "dtypes", "list { type: DT_FLOAT }");
  tensorflow::NodeDef* assign = AddNode(graph, s + "Assign", "Assign", {variable, s + "RestoreV2"});
  SetAttr(assign, "T", "type: DT_FLOAT");
  SetAttr(assign, "_class", "list { s: \"loc:@" + variable + "\" }");
  AddNode(graph, s + "restore_all", "NoOp", {"^" + s + "Assign"});

  tensorflow::SaverDef def;
  def.set_filename_tensor_name(s + "Const:0");
  def.set_save_tensor_name(s + "control_dependency:0");
  def.set_restore_op_name(s + "restore_all");
  def.set_max_to_keep(5);
  def.set_keep_checkpoint_every_n_hours(10000);
  def.set_version(tensorflow::SaverDef::V2);
  return def;
}

inline constexpr int kSaverNodes = 10;

struct TwoSaverGraph {
  tensorflow::MetaGraphDef meta_graph;  // saver_def unset, as the module-level export writes it
  tensorflow::SaverDef saver0, saver1;
  std::vector<std::string> saver0_nodes, saver1_nodes;
};

// saver_test.py testClearExtraneousSavers: v0 and v1, saver0 for v0 and saver1 for v1, both in
// the "savers" collection. TensorFlow counts 29 nodes, 19 once saver0 is cleared.
inline TwoSaverGraph MakeTwoSaverGraph() {
  TwoSaverGraph g;
  tensorflow::MetaGraphDef* mg = &g.meta_graph;
  mg->mutable_meta_info_def()->set_tensorflow_version("1.15.0");
  mg->mutable_meta_info_def()->set_tensorflow_git_version("unknown");
  tensorflow::GraphDef* graph = mg->mutable_graph_def();
  graph->mutable_versions()->set_producer(134);
  AddConst(graph, "v0/initial_value", 1.0f);
  AddVariable(mg, "v0", "v0/initial_value");
  AddConst(graph, "v1/initial_value", 11.0f);
  AddVariable(mg, "v1", "v1/initial_value");
  AddNode(graph, "init", "NoOp", {"^v0/Assign", "^v1/Assign"});
  int before = graph->node_size();
  g.saver0 = AddV2Saver(graph, "saver0", "v0", "v0");
  for (int i = before; i < graph->node_size(); ++i) g.saver0_nodes.push_back(graph->node(i).name());
  before = graph->node_size();
  g.saver1 = AddV2Saver(graph, "saver1", "v1", "v1");
  for (int i = before; i < graph->node_size(); ++i) g.saver1_nodes.push_back(graph->node(i).name());
  AddCollectionBytes(mg, "savers", g.saver0.SerializeAsString());
  AddCollectionBytes(mg, "savers", g.saver1.SerializeAsString());
  AddCollectionNode(mg, "init_op", "init");
  return g;
}

// meta_graph_test.py _testScopedExport: hidden1 (a cond, weights colocated with "constraint"),
// hidden2 (a while loop), softmax_linear, and user-defined collections in three encodings.
inline tensorflow::MetaGraphDef MakeHiddenLayersGraph() {
  tensorflow::MetaGraphDef mg;
  mg.mutable_meta_info_def()->set_tensorflow_version("1.15.0");
  tensorflow::GraphDef* g = mg.mutable_graph_def();
  g->mutable_versions()->set_producer(134);
  AddConst(g, "constraint", 1.2f);
  AddConst(g, "images", 1.2f);

  // hidden1
  AddNode(g, "hidden1/truncated_normal/shape", "Const");
  SetAttr(
      AddNode(g, "hidden1/truncated_normal", "TruncatedNormal", {"hidden1/truncated_normal/shape"}),
      "dtype", "type: DT_FLOAT");
  AddVariable(&mg, "hidden1/weights", "hidden1/truncated_normal", "",
              /*colocate_with=*/"constraint");
  AddConst(g, "hidden1/Less/x", 0.3f);
  AddConst(g, "hidden1/Less/y", 0.5f);
  AddNode(g, "hidden1/Less", "Less", {"hidden1/Less/x", "hidden1/Less/y"});
  AddNode(g, "hidden1/cond/Switch", "Switch", {"hidden1/Less", "hidden1/Less"});
  AddNode(g, "hidden1/cond/switch_t", "Identity", {"hidden1/cond/Switch:1"});
  AddNode(g, "hidden1/cond/switch_f", "Identity", {"hidden1/cond/Switch"});
  AddNode(g, "hidden1/cond/pred_id", "Identity", {"hidden1/Less"});
  AddConst(g, "hidden1/cond/ones", 1.0f, {"^hidden1/cond/switch_t"});
  AddConst(g, "hidden1/cond/zeros", 0.0f, {"^hidden1/cond/switch_f"});
  AddNode(g, "hidden1/cond/Merge", "Merge", {"hidden1/cond/zeros", "hidden1/cond/ones"});
  AddVariable(&mg, "hidden1/biases", "hidden1/cond/Merge");
  AddNode(g, "hidden1/MatMul", "MatMul", {"images", "hidden1/weights/read"});
  AddNode(g, "hidden1/add", "Add", {"hidden1/MatMul", "hidden1/biases/read"});
  AddNode(g, "hidden1/Relu", "Relu", {"hidden1/add"});
  for (int branch : {1, 0}) {
    tensorflow::CondContextDef cond = Text<tensorflow::CondContextDef>(R"pb(
      pred_name: "hidden1/cond/pred_id:0"
      values_def { values: "hidden1/cond/pred_id:0" }
    )pb");
    cond.set_context_name(branch ? "hidden1/cond/cond_text" : "hidden1/cond/cond_text_1");
    cond.set_pivot_name(branch ? "hidden1/cond/switch_t:0" : "hidden1/cond/switch_f:0");
    cond.set_branch(branch);
    cond.mutable_values_def()->add_values(branch ? "hidden1/cond/ones:0" : "hidden1/cond/zeros:0");
    AddCollectionBytes(&mg, "cond_context", cond.SerializeAsString());
  }

  // hidden2
  AddNode(g, "hidden2/truncated_normal/shape", "Const");
  AddNode(g, "hidden2/truncated_normal", "TruncatedNormal", {"hidden2/truncated_normal/shape"});
  AddVariable(&mg, "hidden2/weights", "hidden2/truncated_normal");
  AddConst(g, "hidden2/Const", 0.0f);
  AddConst(g, "hidden2/zeros", 0.0f);
  for (const char* suffix : {"", "_1"}) {
    std::string s(suffix);
    tensorflow::NodeDef* enter = AddNode(g, "hidden2/while/Enter" + s, "Enter",
                                         {s.empty() ? "hidden2/Const" : "hidden2/zeros"});
    SetAttr(enter, "frame_name", "s: \"hidden2/while/while_context\"");
    SetAttr(enter, "is_constant", "b: false");
    SetAttr(enter, "parallel_iterations", "i: 10");
    AddNode(g, "hidden2/while/Merge" + s, "Merge",
            {"hidden2/while/Enter" + s, "hidden2/while/NextIteration" + s});
  }
  AddConst(g, "hidden2/while/Less/y", 2.0f, {"^hidden2/while/Merge"});
  AddNode(g, "hidden2/while/Less", "Less", {"hidden2/while/Merge", "hidden2/while/Less/y"});
  AddNode(g, "hidden2/while/LoopCond", "LoopCond", {"hidden2/while/Less"});
  for (const char* suffix : {"", "_1"}) {
    std::string s(suffix);
    AddNode(g, "hidden2/while/Switch" + s, "Switch",
            {"hidden2/while/Merge" + s, "hidden2/while/LoopCond"});
    AddNode(g, "hidden2/while/Identity" + s, "Identity", {"hidden2/while/Switch" + s + ":1"});
  }
  AddConst(g, "hidden2/while/add/y", 1.0f, {"^hidden2/while/Identity"});
  AddNode(g, "hidden2/while/add", "Add", {"hidden2/while/Identity", "hidden2/while/add/y"});
  AddConst(g, "hidden2/while/Const", 0.1f, {"^hidden2/while/Identity"});
  AddNode(g, "hidden2/while/add_1", "Add", {"hidden2/while/Identity_1", "hidden2/while/Const"});
  AddNode(g, "hidden2/while/NextIteration", "NextIteration", {"hidden2/while/add"});
  AddNode(g, "hidden2/while/NextIteration_1", "NextIteration", {"hidden2/while/add_1"});
  AddNode(g, "hidden2/while/Exit", "Exit", {"hidden2/while/Switch"});
  AddNode(g, "hidden2/while/Exit_1", "Exit", {"hidden2/while/Switch_1"});
  AddVariable(&mg, "hidden2/biases", "hidden2/while/Exit_1");
  AddNode(g, "hidden2/MatMul", "MatMul", {"hidden1/Relu", "hidden2/weights/read"});
  AddNode(g, "hidden2/add", "Add", {"hidden2/MatMul", "hidden2/biases/read"});
  AddNode(g, "hidden2/Relu", "Relu", {"hidden2/add"});
  AddCollectionBytes(&mg, "while_context",
                     Text<tensorflow::WhileContextDef>(R"pb(
                       context_name: "hidden2/while/while_context"
                       parallel_iterations: 10
                       back_prop: true
                       pivot_name: "hidden2/while/LoopCond:0"
                       pivot_for_pred_name: "hidden2/while/Merge:0"
                       pivot_for_body_name: "hidden2/while/Identity:0"
                       loop_exit_names: "hidden2/while/Exit:0"
                       loop_exit_names: "hidden2/while/Exit_1:0"
                       loop_enter_names: "hidden2/while/Enter:0"
                       loop_enter_names: "hidden2/while/Enter_1:0"
                       values_def {
                         values: "hidden2/while/Identity:0"
                         values: "hidden2/while/Const:0"
                         external_values { key: "hidden2/zeros:0" value: "hidden2/while/Enter_1:0" }
                       }
                     )pb")
                         .SerializeAsString());

  // softmax_linear
  AddNode(g, "softmax_linear/truncated_normal/shape", "Const");
  AddNode(g, "softmax_linear/truncated_normal", "TruncatedNormal",
          {"softmax_linear/truncated_normal/shape"});
  AddVariable(&mg, "softmax_linear/weights", "softmax_linear/truncated_normal");
  AddConst(g, "softmax_linear/zeros", 0.0f);
  AddVariable(&mg, "softmax_linear/biases", "softmax_linear/zeros");
  AddNode(g, "softmax_linear/MatMul", "MatMul", {"hidden2/Relu", "softmax_linear/weights/read"});
  AddNode(g, "softmax_linear/add", "Add", {"softmax_linear/MatMul", "softmax_linear/biases/read"});
  AddCollectionNode(&mg, "logits", "softmax_linear/add:0");

  // A user proto as a string, as bytes and as Any: only Any has no name to filter by.
  tensorflow::QueueRunnerDef queue_runner;
  queue_runner.set_queue_name("test_queue");
  AddCollectionBytes(&mg, "user_defined_string_collection", "queue_name: \"test_queue\"\n");
  AddCollectionBytes(&mg, "user_defined_bytes_collection", queue_runner.SerializeAsString());
  // What Any.PackFrom writes: the type's URL and the message's bytes.
  auto* any =
      (*mg.mutable_collection_def())["user_defined_any_collection"].mutable_any_list()->add_value();
  any->set_type_url("type.googleapis.com/tensorflow.QueueRunnerDef");
  any->set_value(queue_runner.SerializeAsString());
  return mg;
}

// meta_graph_test.py testExportNestedNames: everything under hidden1/hidden2/hidden3.
inline tensorflow::MetaGraphDef MakeNestedNamesGraph() {
  tensorflow::MetaGraphDef mg;
  tensorflow::GraphDef* g = mg.mutable_graph_def();
  const std::string p = "hidden1/hidden2/hidden3/";
  AddConst(g, p + "images", 1.0f);
  AddConst(g, p + "weights/initial_value", 1.0f);
  AddVariable(&mg, p + "weights", p + "weights/initial_value");
  AddConst(g, p + "biases/initial_value", 0.1f);
  AddVariable(&mg, p + "biases", p + "biases/initial_value");
  AddNode(g, p + "MatMul", "MatMul", {p + "images", p + "weights/read"});
  AddNode(g, p + "add", "Add", {p + "MatMul", p + "biases/read"});
  AddNode(g, p + "relu", "Relu", {p + "add"});
  return mg;
}

// meta_graph_test.py testPotentialCycle: hidden1/Relu reads the top-level MatMul, and hidden1
// has a MatMul of its own.
inline tensorflow::MetaGraphDef MakePotentialCycleGraph() {
  tensorflow::MetaGraphDef mg;
  tensorflow::GraphDef* g = mg.mutable_graph_def();
  AddConst(g, "Const", 1.0f);
  AddConst(g, "Const_1", 2.0f);
  AddNode(g, "MatMul", "MatMul", {"Const", "Const_1"});
  AddNode(g, "hidden1/Relu", "Relu", {"MatMul"});
  AddConst(g, "hidden1/Const", 3.0f);
  AddNode(g, "hidden1/MatMul", "MatMul", {"hidden1/Relu", "hidden1/Const"});
  return mg;
}

// meta_graph_test.py testClearDevices: a and b pinned to three device spellings, plus a
// library function whose body has a device (clear_devices leaves functions alone).
inline tensorflow::MetaGraphDef MakeClearDevicesGraph() {
  tensorflow::MetaGraphDef mg;
  tensorflow::GraphDef* g = mg.mutable_graph_def();
  AddConst(g, "a/Initializer/ones", 1.0f)->set_device("/device:CPU:0");
  AddVariable(&mg, "a", "a/Initializer/ones", "/device:CPU:0");
  AddConst(g, "b/Initializer/ones", 1.0f)->set_device("/job:ps/replica:0/task:0/device:CPU:0");
  AddVariable(&mg, "b", "b/Initializer/ones", "/job:ps/replica:0/task:0/device:CPU:0");
  AddNode(g, "Add", "Add", {"a/read", "b/read"}, "/job:localhost/replica:0/task:0/cpu:0");
  AddNode(g, "call", "f", {"Add"}, "/device:GPU:0");
  *g->mutable_library()->add_function() = Text<tensorflow::FunctionDef>(R"pb(
    signature {
      name: "f"
      input_arg { name: "x" type: DT_FLOAT }
      output_arg { name: "y" type: DT_FLOAT }
    }
    node_def {
      name: "sq"
      op: "Square"
      input: "x"
      device: "/device:GPU:0"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    ret { key: "y" value: "sq:y:0" }
  )pb");
  return mg;
}

// TensorFlow's own op registry as an OpRegistry of one layer (ops.pbtxt).
inline OpRegistry TfOpsRegistry() {
  OpRegistry registry;
  registry.AddLayer(&TfOps(), "ops.pbtxt", true);
  return registry;
}

// meta_graph_test.py testDefaultAttrStripping's graph: Complex of two variables, with the
// input and output dtypes given.
inline tensorflow::GraphDef DefaultAttrComplexGraph(const char* input_type,
                                                    const char* output_type) {
  tensorflow::GraphDef graph;
  for (const char* name : {"real", "imag"}) {
    tensorflow::NodeDef* v = AddNode(&graph, name, "VariableV2");
    SetAttr(v, "dtype", std::string("type: ") + input_type);
    SetAttr(v, "shape", "shape {}");
  }
  tensorflow::NodeDef* c = AddNode(&graph, "complex", "Complex", {"real/read", "imag/read"});
  SetAttr(c, "T", std::string("type: ") + input_type);
  SetAttr(c, "Tout", std::string("type: ") + output_type);
  return graph;
}

}  // namespace graphport::tf::mgtest

#endif  // GRAPHPORT_TESTS_CPP_TF_META_GRAPH_TF_TEST_GRAPHS_H_
