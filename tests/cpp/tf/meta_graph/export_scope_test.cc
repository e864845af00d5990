// export_scope: TensorFlow's scoped-export tests rebuilt on graphs made here, each exported
// from both forms of the loaded model (nodes held as bytes, and parsed) to the same bytes, and
// a GraphDef given as an option with a scope.
#include "export_test_helpers.h"

namespace graphport::tf {
namespace {

using namespace export_test;  // NOLINT: the shared helpers of these tests

// ExportBuilt from both forms of the loaded model: its nodes held as wire bytes, and parsed
// whole. Both must write the same files and info; returns the first.
Output ExportBothForms(const tensorflow::MetaGraphDef& mg, const ref::Options& o) {
  std::unique_ptr<Loaded> wire = LoadMeta(mg);
  std::unique_ptr<Loaded> parsed = LoadMeta(mg);
  parsed->model->graph();  // parses it whole
  EXPECT_NE(wire->model->wire_graph(), nullptr);
  EXPECT_EQ(parsed->model->wire_graph(), nullptr);
  Output out = RunExport(wire->model.get(), StructOptions(o));
  ExpectMetaGraph(ref::ExpectedExport(mg, o), out);
  Output from_parsed = RunExport(parsed->model.get(), StructOptions(o));
  EXPECT_EQ(out.info, from_parsed.info);
  EXPECT_EQ(out.files.size(), from_parsed.files.size());
  for (size_t i = 0; i < out.files.size() && i < from_parsed.files.size(); ++i) {
    EXPECT_TRUE(out.files[i].bytes == from_parsed.files[i].bytes) << out.files[i].name;
  }
  return out;
}

TEST(TfScopedExportTest, Hidden1) {
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  ref::Options o;
  o.scope = "hidden1";
  Output out = ExportBothForms(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  for (const auto& n : g.node()) EXPECT_EQ(n.name().find("hidden1"), std::string::npos) << n.name();
  const tensorflow::NodeDef* matmul = mgtest::FindNode(g, "MatMul");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(ToVector(matmul->input()), (Strings{"$unbound_inputs_images", "weights/read"}));
  // Import needs input_map {"$unbound_inputs_images": ...} and nothing else.
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_images"}));
  // var_list keys ["biases:0", "weights:0"].
  EXPECT_EQ(VariableNames(out.meta_graph), (Strings{"biases:0", "weights:0"}));
  EXPECT_EQ(VariableNames(out.meta_graph, "trainable_variables"),
            (Strings{"biases:0", "weights:0"}));
  // The weights were colocated with "constraint", outside the scope: the entry goes, the attr
  // stays.
  const tensorflow::NodeDef* weights = mgtest::FindNode(g, "weights");
  ASSERT_NE(weights, nullptr);
  EXPECT_EQ(weights->attr().at("_class").list().s_size(), 0);
  EXPECT_EQ(ToVector(mgtest::NodeOrFail(g, "biases/read").attr().at("_class").list().s()),
            (Strings{"loc:@biases"}));
  // The cond contexts are scoped; the while context, logits and the string and bytes user
  // collections (filtered as node names) are not in hidden1; the Any one passes.
  std::vector<std::string> contexts;
  for (const auto& bytes : CollectionValues(out.meta_graph, "cond_context")) {
    tensorflow::CondContextDef c;
    ASSERT_TRUE(c.ParseFromString(bytes));
    contexts.push_back(c.context_name() + " " + c.pred_name() + " " + c.pivot_name());
  }
  EXPECT_EQ(contexts, (Strings{"cond/cond_text cond/pred_id:0 cond/switch_t:0",
                               "cond/cond_text_1 cond/pred_id:0 cond/switch_f:0"}));
  for (const char* gone : {"while_context", "logits", "user_defined_string_collection",
                           "user_defined_bytes_collection"}) {
    EXPECT_EQ(out.meta_graph.collection_def().count(gone), 0u) << gone;
  }
  EXPECT_TRUE(MessagesEqual(mg.collection_def().at("user_defined_any_collection"),
                            out.meta_graph.collection_def().at("user_defined_any_collection")));
}

// ... hidden2: the while loop's frame and context are scoped.
TEST(TfScopedExportTest, Hidden2) {
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  ref::Options o;
  o.scope = "hidden2";
  Output out = ExportBothForms(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_hidden1/Relu"}));
  EXPECT_EQ(ToVector(mgtest::NodeOrFail(g, "MatMul").input()),
            (Strings{"$unbound_inputs_hidden1/Relu", "weights/read"}));
  EXPECT_EQ(VariableNames(out.meta_graph), (Strings{"biases:0", "weights:0"}));
  for (const char* enter : {"while/Enter", "while/Enter_1"}) {
    const tensorflow::NodeDef* n = mgtest::FindNode(g, enter);
    ASSERT_NE(n, nullptr) << enter;
    EXPECT_EQ(n->attr().at("frame_name").s(), "while/while_context");
  }
  Strings loops = CollectionValues(out.meta_graph, "while_context");
  ASSERT_EQ(loops.size(), 1u);
  tensorflow::WhileContextDef w;
  ASSERT_TRUE(w.ParseFromString(loops[0]));
  EXPECT_EQ(w.context_name(), "while/while_context");
  EXPECT_EQ(ToVector(w.loop_exit_names()), (Strings{"while/Exit:0", "while/Exit_1:0"}));
  EXPECT_EQ(w.values_def().external_values().at("zeros:0"), "while/Enter_1:0");
  EXPECT_EQ(out.meta_graph.collection_def().count("cond_context"), 0u);
}

// ... softmax_linear: logits survive, stripped.
TEST(TfScopedExportTest, SoftmaxLinear) {
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  ref::Options o;
  o.scope = "softmax_linear";
  Output out = ExportBothForms(mg, o);
  EXPECT_EQ(CollectionValues(out.meta_graph, "logits"), (Strings{"add:0"}));
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_hidden2/Relu"}));
  EXPECT_EQ(VariableNames(out.meta_graph), (Strings{"biases:0", "weights:0"}));
}

// graphport's difference from TensorFlow (issue #10250): one outside tensor used twice is
// listed once, so TensorFlow's importer accepts the input_map that supplies it.
TEST(TfScopedExportTest, AnUnboundInputUsedTwiceIsListedOnce) {
  tensorflow::MetaGraphDef mg;
  mgtest::AddConst(mg.mutable_graph_def(), "x", 1.0f);
  mgtest::AddNode(mg.mutable_graph_def(), "s/a", "Neg", {"x"});
  mgtest::AddNode(mg.mutable_graph_def(), "s/b", "Add", {"x", "x:0", "^x"});
  ref::Options o;
  o.scope = "s";
  Output out = ExportBothForms(mg, o);
  EXPECT_EQ(ToVector(mgtest::NodeOrFail(out.meta_graph.graph_def(), "b").input()),
            (Strings{"$unbound_inputs_x", "$unbound_inputs_x:0", "^$unbound_inputs_x"}));
  // The control form drops out (TensorFlow's collection filter); "x" and "x:0" are two names.
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_x", "$unbound_inputs_x:0"}));
}

// meta_graph_test.py testExportNestedNames.
TEST(TfScopedExportTest, NestedNames) {
  tensorflow::MetaGraphDef mg = mgtest::MakeNestedNamesGraph();
  ref::Options o;
  o.scope = "hidden1/hidden2";
  Output out = ExportBothForms(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  ASSERT_EQ(g.node_size(), mg.graph_def().node_size());
  for (const auto& n : g.node()) EXPECT_EQ(n.name().rfind("hidden3/", 0), 0u) << n.name();
  EXPECT_EQ(VariableNames(out.meta_graph), (Strings{"hidden3/biases:0", "hidden3/weights:0"}));
  EXPECT_EQ(
      ToVector(mgtest::NodeOrFail(g, "hidden3/weights/Assign").attr().at("_class").list().s()),
      (Strings{"loc:@hidden3/weights"}));
  EXPECT_EQ(out.meta_graph.collection_def().count("unbound_inputs"), 0u);
}

// meta_graph_test.py testPotentialCycle: the outside MatMul becomes $unbound_inputs_MatMul,
// distinct from hidden1's own MatMul.
TEST(TfScopedExportTest, PotentialCycle) {
  tensorflow::MetaGraphDef mg = mgtest::MakePotentialCycleGraph();
  ref::Options o;
  o.scope = "hidden1";
  Output out = ExportBothForms(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  EXPECT_EQ(mgtest::NodeNames(g), (Strings{"Relu", "Const", "MatMul"}));
  EXPECT_EQ(ToVector(mgtest::NodeOrFail(g, "Relu").input()), (Strings{"$unbound_inputs_MatMul"}));
  EXPECT_EQ(ToVector(mgtest::NodeOrFail(g, "MatMul").input()), (Strings{"Relu", "Const"}));
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_MatMul"}));
}

// An export's unbound inputs are still unbound when that export is exported again with a node
// option: the collection that tells an importer to map them must not be lost.
TEST(TfScopedExportTest, ReexportKeepsTheUnboundInputs) {
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  ref::Options o;
  o.scope = "hidden2";
  Output first = ExportBothForms(mg, o);
  std::unique_ptr<Loaded> reloaded = LoadBytes(first.files[0].bytes, "meta-graph-binary");
  for (bool clear_savers : {false, true}) {
    TfExportOptions again;
    again.clear_devices = !clear_savers;
    again.clear_extraneous_savers = clear_savers;
    Output second = RunExport(reloaded->model.get(), again);
    EXPECT_EQ(CollectionValues(second.meta_graph, "unbound_inputs"),
              (Strings{"$unbound_inputs_hidden1/Relu"}));
    EXPECT_EQ(second.info["unboundInputs"].get<Strings>(),
              (Strings{"$unbound_inputs_hidden1/Relu"}));
    EXPECT_TRUE(second.files[0].bytes == first.files[0].bytes);
  }
}

// meta_graph_test.py testClearDevices, through the graph and the graph_def path.

TEST(TfGraphDefWithScopeTest, Accepted) {
  tensorflow::MetaGraphDef nested = mgtest::MakeNestedNamesGraph();
  std::string bytes = mgtest::MakePotentialCycleGraph().SerializeAsString();
  MemorySource source(bytes);
  std::unique_ptr<Model> model =
      Model::Load(&source, LoadOptions{"meta-graph-binary", {}, "m.meta"});
  json options = {{"graphDef", BytesOption(nested.graph_def().SerializeAsString())},
                  {"exportScope", "hidden1/hidden2/hidden3"}};
  MemoryOutputSet out;
  json info = model->Export(options, &out);
  tensorflow::MetaGraphDef mg;
  ASSERT_TRUE(mg.ParseFromString(out.files().at(0).bytes));
  ASSERT_EQ(mg.graph_def().node_size(), nested.graph_def().node_size());
  for (int i = 0; i < nested.graph_def().node_size(); ++i) {
    tensorflow::NodeDef expected = nested.graph_def().node(i);
    Strings unused;
    expected = ref::RewriteNode(expected, "hidden1/hidden2/hidden3", false, &unused);
    EXPECT_TRUE(MessagesEqual(expected, mg.graph_def().node(i)));
    EXPECT_TRUE(unused.empty());
  }
  EXPECT_EQ(mg.graph_def().node(0).name(), "images");
  // The given graph_def as a protobuf-JSON object works the same.
  std::string json_graph;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(
                  *graphport::testing::ReferenceCopy(nested.graph_def()), &json_graph)
                  .ok());
  options["graphDef"] = json::parse(json_graph);
  MemoryOutputSet out2;
  model->Export(options, &out2);
  EXPECT_TRUE(out2.files().at(0).bytes == out.files().at(0).bytes);
}

// save_debug_info keeps the traces of the exported top-level nodes, keyed by their names
// before stripping; the rebuilt GraphDef itself has no debug_info (TensorFlow drops it).

}  // namespace
}  // namespace graphport::tf
