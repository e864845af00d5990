#include "tf/freeze/variables_to_consts.h"

#include <gtest/gtest.h>

#include "freeze_test_util.h"
#include "test_graphs.h"

namespace graphport::testing {
namespace {

tensorflow::TensorProto FloatTensor(std::vector<float> values, std::vector<int64_t> shape) {
  tensorflow::TensorProto t;
  t.set_dtype(tensorflow::DT_FLOAT);
  for (int64_t d : shape) t.mutable_tensor_shape()->add_dim()->set_size(d);
  t.set_tensor_content(
      std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  return t;
}

TEST(VariablesToConsts, AResourceBecomesAConstAndItsReadsIdentities) {
  tensorflow::GraphDef graph;
  tensorflow::NodeDef& v = AddNode(&graph, "v", "Placeholder");
  SetType(&v, "dtype", tensorflow::DT_RESOURCE);
  v.set_device("/device:CPU:0");
  tensorflow::NodeDef& pass = AddNode(&graph, "pass", "Identity", {"v"});
  SetType(&pass, "T", tensorflow::DT_RESOURCE);
  tensorflow::NodeDef& read = AddNode(&graph, "read", "ReadVariableOp", {"pass", "^ctl"});
  SetType(&read, "dtype", tensorflow::DT_FLOAT);
  AddNode(&graph, "idx", "Placeholder");
  tensorflow::NodeDef& gather = AddNode(&graph, "gather", "ResourceGather", {"v", "idx", "^ctl"});
  SetType(&gather, "Tindices", tensorflow::DT_INT64);
  SetType(&gather, "dtype", tensorflow::DT_FLOAT);
  AddNode(&graph, "ctl", "NoOp");
  AddNode(&graph, "other", "Neg", {"read"});

  std::map<std::string, tf::VariableValue> values;
  values["v"].key = "v/.ATTRIBUTES/VARIABLE_VALUE";
  values["v"].value = FloatTensor({1.5f, -2.0f, 3.25f}, {3});
  tf::VariablesToConstsResult result = tf::VariablesToConsts(&graph, &values);
  EXPECT_EQ(result.variables, 1);
  EXPECT_EQ(result.reads, 1);
  EXPECT_EQ(result.gathers, 1);
  EXPECT_EQ(result.value_bytes, 12u);

  const tensorflow::NodeDef* c = NodeNamed(graph, "v");
  EXPECT_EQ(c->op(), "Const");
  EXPECT_EQ(c->device(), "/device:CPU:0");
  EXPECT_EQ(c->attr().at("dtype").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(c->attr().at("value").tensor().tensor_content().size(), 12u);
  EXPECT_EQ(NodeNamed(graph, "pass")->attr().at("T").type(), tensorflow::DT_FLOAT);
  const tensorflow::NodeDef* identity = NodeNamed(graph, "read");
  EXPECT_EQ(identity->op(), "Identity");
  EXPECT_EQ(identity->attr().at("T").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(identity->attr().count("dtype"), 0u);
  ASSERT_EQ(identity->input_size(), 2);
  EXPECT_EQ(identity->input(1), "^ctl");

  const tensorflow::NodeDef* g = NodeNamed(graph, "gather");
  EXPECT_EQ(g->op(), "GatherV2");
  ASSERT_EQ(g->input_size(), 4);
  EXPECT_EQ(g->input(2), "gather/axis");
  EXPECT_EQ(g->input(3), "^ctl");
  EXPECT_EQ(g->attr().at("Tparams").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(g->attr().at("Taxis").type(), tensorflow::DT_INT64);
  const tensorflow::NodeDef* axis = NodeNamed(graph, "gather/axis");
  ASSERT_NE(axis, nullptr);
  EXPECT_EQ(axis->op(), "Const");
  EXPECT_EQ(axis->attr().at("value").tensor().int64_val(0), 0);
  EXPECT_EQ(NodeNamed(graph, "other")->op(), "Neg");
}

TEST(VariablesToConsts, AValueForANodeTheGraphLacksChangesNothing) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "x", "Placeholder");
  tensorflow::GraphDef before = graph;
  std::map<std::string, tf::VariableValue> values;
  values["gone"].value = FloatTensor({1}, {});
  EXPECT_EQ(tf::VariablesToConsts(&graph, &values).variables, 0);
  EXPECT_EQ(graph.SerializeAsString(), before.SerializeAsString());
}

}  // namespace
}  // namespace graphport::testing
