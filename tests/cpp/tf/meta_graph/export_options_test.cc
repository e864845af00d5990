// The other export_meta_graph options, from TensorFlow's own tests rebuilt on graphs made
// here: clear_devices, clear_extraneous_savers, strip_default_attrs, save_debug_info, the
// 2 GiB limit and meta_info_def.
#include "export_test_helpers.h"

namespace graphport::tf {
namespace {

using namespace export_test;  // NOLINT: the shared helpers of these tests

TEST(TfClearDevicesTest, GraphAndGraphDefPaths) {
  tensorflow::MetaGraphDef mg = mgtest::MakeClearDevicesGraph();
  ref::Options o;
  o.clear_devices = true;
  Output out = ExportBuilt(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  ASSERT_EQ(g.node_size(), mg.graph_def().node_size());
  for (int i = 0; i < g.node_size(); ++i) {
    EXPECT_EQ(g.node(i).device(), "");
    EXPECT_NE(mg.graph_def().node(i).device(), "") << "the test graph pins every node";
  }
  // _class is untouched without a scope; function bodies keep their devices.
  EXPECT_TRUE(
      MessagesEqual(mg.graph_def().node(2).attr().at("_class"), g.node(2).attr().at("_class")));
  EXPECT_EQ(g.library().function(0).node_def(0).device(), "/device:GPU:0");

  // graph_def given as an option, to a model loaded from a different graph.
  std::unique_ptr<Loaded> other = LoadMeta(mgtest::MakePotentialCycleGraph());
  TfExportOptions options;
  options.clear_devices = true;
  options.graph_def = &mg.graph_def();
  Output via_graph_def = RunExport(other->model.get(), options);
  ASSERT_TRUE(via_graph_def.parsed);
  EXPECT_TRUE(MessagesEqual(g, via_graph_def.meta_graph.graph_def()));
}

// saver_test.py testClearExtraneousSavers: 29 nodes; saver1's export with clearing has 19 and
// a savers collection of one.
TEST(TfClearExtraneousSaversTest, TwoSavers) {
  mgtest::TwoSaverGraph two = mgtest::MakeTwoSaverGraph();
  ref::Options saver0;
  saver0.saver_def = two.saver0;
  Output normal = ExportBuilt(two.meta_graph, saver0);
  EXPECT_EQ(normal.meta_graph.graph_def().node_size(), 29);
  EXPECT_EQ(CollectionValues(normal.meta_graph, "savers").size(), 2u);

  ref::Options saver1;
  saver1.saver_def = two.saver1;
  saver1.clear_savers = true;
  Output cleared = ExportBuilt(two.meta_graph, saver1);
  EXPECT_EQ(cleared.meta_graph.graph_def().node_size(), 19);
  for (const auto& name : two.saver0_nodes)
    EXPECT_EQ(mgtest::FindNode(cleared.meta_graph.graph_def(), name), nullptr);
  for (const auto& name : two.saver1_nodes)
    EXPECT_NE(mgtest::FindNode(cleared.meta_graph.graph_def(), name), nullptr);
  Strings savers = CollectionValues(cleared.meta_graph, "savers");
  ASSERT_EQ(savers.size(), 1u);
  tensorflow::SaverDef kept;
  ASSERT_TRUE(kept.ParseFromString(savers[0]));
  EXPECT_TRUE(MessagesEqual(two.saver1, kept));
  EXPECT_TRUE(MessagesEqual(two.saver1, cleared.meta_graph.saver_def()));
  EXPECT_EQ(cleared.info["excludedNodes"].get<Strings>(), [&] {
    Strings s = two.saver0_nodes;
    std::sort(s.begin(), s.end());
    return s;
  }());
  // The variables collections hold tensor names, which never equal an excluded node name.
  EXPECT_TRUE(MessagesEqual(two.meta_graph.collection_def().at("variables"),
                            cleared.meta_graph.collection_def().at("variables")));

  // With a scope too: the savers collection entry is scoped like the graph.
  ref::Options scoped = saver1;
  scoped.scope = "saver1";
  Output in_scope = ExportBuilt(two.meta_graph, scoped);
  Strings scoped_savers = CollectionValues(in_scope.meta_graph, "savers");
  ASSERT_EQ(scoped_savers.size(), 1u);
  ASSERT_TRUE(kept.ParseFromString(scoped_savers[0]));
  EXPECT_EQ(kept.save_tensor_name(), "control_dependency:0");
  EXPECT_EQ(kept.restore_op_name(), "restore_all");
  EXPECT_EQ(kept.filename_tensor_name(), "Const:0");
  // ... and so is the top-level saver_def (TensorFlow leaves it naming the tensors with the
  // scope, which the export no longer has).
  EXPECT_EQ(in_scope.meta_graph.saver_def().save_tensor_name(), "control_dependency:0");
}

// The module-level export has no saver_def: every saver is extraneous.
TEST(TfClearExtraneousSaversTest, NoSaverDefClearsEverySaver) {
  mgtest::TwoSaverGraph two = mgtest::MakeTwoSaverGraph();
  ref::Options o;
  o.clear_savers = true;
  Output out = ExportBuilt(two.meta_graph, o);
  EXPECT_EQ(out.meta_graph.graph_def().node_size(), 9);
  EXPECT_EQ(out.meta_graph.collection_def().count("savers"), 0u);
}

tensorflow::GraphDef ComplexGraph(const char* in_type, const char* out_type) {
  tensorflow::GraphDef g;
  for (const char* name : {"real", "imag"}) {
    tensorflow::NodeDef* n = mgtest::AddNode(&g, name, "Const");
    mgtest::SetAttr(n, "dtype", std::string("type: ") + in_type);
  }
  tensorflow::NodeDef* c = mgtest::AddNode(&g, "complex", "Complex", {"real", "imag"});
  mgtest::SetAttr(c, "T", std::string("type: ") + in_type);
  mgtest::SetAttr(c, "Tout", std::string("type: ") + out_type);
  return g;
}

// meta_graph_test.py testDefaultAttrStripping, end to end from a GraphDef.
TEST(TfDefaultAttrStrippingTest, ComplexThroughTheFacade) {
  for (bool float64 : {false, true}) {
    SCOPED_TRACE(float64 ? "float64" : "float32");
    tensorflow::GraphDef g = float64 ? ComplexGraph("DT_DOUBLE", "DT_COMPLEX128")
                                     : ComplexGraph("DT_FLOAT", "DT_COMPLEX64");
    std::string bytes = g.SerializeAsString();
    MemorySource source(bytes);
    std::unique_ptr<Model> model =
        Model::Load(&source, LoadOptions{"graph-def-binary", {}, "complex.pb"});
    for (bool strip : {true, false}) {
      SCOPED_TRACE(strip ? "strip" : "no strip");
      json options = {{"stripDefaultAttrs", strip}, {"opRegistry", BytesOption(OpsPbtxt())}};
      MemoryOutputSet out;
      json info = model->Export(options, &out);
      tensorflow::MetaGraphDef mg;
      ASSERT_TRUE(mg.ParseFromString(out.files().at(0).bytes));
      const tensorflow::NodeDef* complex = mgtest::FindNode(mg.graph_def(), "complex");
      ASSERT_NE(complex, nullptr);
      bool removed = strip && !float64;
      EXPECT_EQ(complex->attr().count("T"), removed ? 0u : 1u);
      EXPECT_EQ(complex->attr().count("Tout"), removed ? 0u : 1u);
      // The flag says the option was on, whether or not anything was removed.
      EXPECT_EQ(mg.meta_info_def().stripped_default_attrs(), strip);
      // A GraphDef has no op list of its own; the registry given supplies it.
      EXPECT_EQ(info["strippedOpList"], json::array({"Complex", "Const"}));
      ASSERT_EQ(mg.meta_info_def().stripped_op_list().op_size(), 2);
      EXPECT_TRUE(MessagesEqual(*mgtest::FindOp(mgtest::TfOps(), "Complex"),
                                mg.meta_info_def().stripped_op_list().op(0)));
      if (strip) {
        EXPECT_EQ(info["strippedDefaultAttrs"], removed ? 2 : 0);
      }
    }
  }
}

// testDefaultAttrStrippingUnregisteredOps: graph_def and a pre-filled stripped_op_list given.
TEST(TfDefaultAttrStrippingTest, UnregisteredOpsThroughTheFacade) {
  tensorflow::GraphDef g = Text<tensorflow::GraphDef>(R"pb(node {
                                                             name: "node_with_unreg_op"
                                                             op: "unreg_op"
                                                             attr {
                                                               key: "attr_1"
                                                               value { i: 1 }
                                                             }
                                                           })pb");
  std::string bytes = mgtest::MakePotentialCycleGraph().SerializeAsString();
  MemorySource source(bytes);
  std::unique_ptr<Model> model =
      Model::Load(&source, LoadOptions{"meta-graph-binary", {}, "m.meta"});
  json options = {{"graphDef", BytesOption(g.SerializeAsString())},
                  {"metaInfoDef", {{"strippedOpList", {{"op", json::array({json::object()})}}}}},
                  {"stripDefaultAttrs", true}};
  MemoryOutputSet out;
  json info = model->Export(options, &out);
  tensorflow::MetaGraphDef mg;
  ASSERT_TRUE(mg.ParseFromString(out.files().at(0).bytes));
  ASSERT_EQ(mg.graph_def().node_size(), 1);
  EXPECT_EQ(mg.graph_def().node(0).attr().at("attr_1").i(), 1);
  EXPECT_TRUE(mg.meta_info_def().stripped_default_attrs());
  EXPECT_EQ(info["unknownDefaultOps"], json::array({"unreg_op"}));
  // The caller's op list is kept as given (TensorFlow computes one only when it is empty).
  ASSERT_EQ(mg.meta_info_def().stripped_op_list().op_size(), 1);
  EXPECT_EQ(mg.meta_info_def().stripped_op_list().op(0).ByteSizeLong(), 0u);
}

// ScopedGraphTest.testExportGraphDefWithScope: graph_def and export_scope together.

TEST(TfDebugInfoTest, ScopedExportKeepsTheExportedNodesTraces) {
  tensorflow::MetaGraphDef mg = mgtest::MakePotentialCycleGraph();
  *mg.mutable_graph_def()->mutable_debug_info() = Text<tensorflow::GraphDebugInfo>(R"pb(
    files: "model.py"
    traces {
      key: "MatMul@"
      value { file_line_cols { file_index: 0 line: 3 } }
    }
    traces {
      key: "hidden1/Relu@"
      value { file_line_cols { file_index: 0 line: 5 } }
    }
    traces {
      key: "hidden1/MatMul@"
      value { file_line_cols { file_index: 0 line: 7 } }
    }
    traces {
      key: "hidden1/MatMul@some_function"
      value { file_line_cols { file_index: 0 line: 9 } }
    }
  )pb");
  std::unique_ptr<Loaded> loaded = LoadMeta(mg);
  for (bool as_text : {false, true}) {
    SCOPED_TRACE(as_text ? "text" : "binary");
    TfExportOptions options;
    options.export_scope = "hidden1";
    options.save_debug_info = true;
    options.as_text = as_text;
    options.filename = "out/model.meta";
    Output out = RunExport(loaded->model.get(), options);
    ASSERT_EQ(out.files.size(), 2u);
    EXPECT_EQ(out.files[0].name, "out/model.meta");
    EXPECT_EQ(out.files[1].name, "out/model_debug.meta");
    tensorflow::GraphDebugInfo debug;
    ASSERT_TRUE(as_text ? graphport::testing::ParseTextReference(out.files[1].bytes, &debug)
                        : debug.ParseFromString(out.files[1].bytes));
    EXPECT_TRUE(MessagesEqual(Text<tensorflow::GraphDebugInfo>(R"pb(
                                files: "model.py"
                                traces {
                                  key: "hidden1/Relu@"
                                  value { file_line_cols { file_index: 0 line: 5 } }
                                }
                                traces {
                                  key: "hidden1/MatMul@"
                                  value { file_line_cols { file_index: 0 line: 7 } }
                                }
                              )pb"),
                              debug));
    EXPECT_EQ(out.info["debugInfoNodes"], 2);
    EXPECT_FALSE(out.meta_graph.graph_def().has_debug_info());
  }
  // No node option: the graph passes through with its debug_info, and every top-level trace
  // goes to the debug file.
  TfExportOptions plain;
  plain.save_debug_info = true;
  Output out = RunExport(loaded->model.get(), plain);
  ASSERT_EQ(out.files.size(), 2u);
  tensorflow::GraphDebugInfo debug;
  ASSERT_TRUE(debug.ParseFromString(out.files[1].bytes));
  EXPECT_EQ(debug.traces_size(), 3);
  EXPECT_TRUE(MessagesEqual(mg.graph_def().debug_info(), out.meta_graph.graph_def().debug_info()));
}

// TensorFlow's "GraphDef cannot be larger than 2GB", with the limit lowered.
TEST(TfGraphSizeTest, RebuiltGraphOverTheLimitIsTooLarge) {
  EXPECT_EQ(TfExportOptions{}.max_graph_bytes, (uint64_t{1} << 31) - 1);
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  std::unique_ptr<Loaded> loaded = LoadMeta(mg);
  TfExportOptions options;
  options.export_scope = "hidden1";
  Output fits = RunExport(loaded->model.get(), options);
  ASSERT_TRUE(fits.parsed);
  uint64_t size = fits.meta_graph.graph_def().ByteSizeLong();
  ASSERT_GT(size, 0u);

  options.max_graph_bytes = size;  // exactly at the limit: allowed
  EXPECT_EQ(RunExport(loaded->model.get(), options).files.size(), 1u);

  auto before = Snapshot(*loaded->model);
  for (bool clear_devices_only : {false, true}) {
    TfExportOptions over = options;
    if (clear_devices_only) {
      over.export_scope.clear();
      over.clear_devices = true;
      over.max_graph_bytes = mg.graph_def().ByteSizeLong() - 1;
    } else {
      over.max_graph_bytes = size - 1;
    }
    MemoryOutputSet out;
    try {
      Export(loaded->model.get(), over, &out);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kTooLarge);
      EXPECT_NE(std::string(e.what()).find("GraphDef cannot be larger than 2GB"), std::string::npos)
          << e.what();
    }
    EXPECT_TRUE(out.files().empty()) << "nothing is written when the graph is too large";
    EXPECT_TRUE(MessagesEqual(*before, loaded->model->root()));
  }

  // A graph_def given as an option is measured too.
  TfExportOptions given;
  given.graph_def = &mg.graph_def();
  given.max_graph_bytes = mg.graph_def().ByteSizeLong() - 1;
  MemoryOutputSet out;
  EXPECT_THROW(Export(loaded->model.get(), given, &out), Error);
}

// metaInfoDef: fields it sets replace the loaded ones, the rest stay.
TEST(TfMetaInfoDefTest, MergedIntoTheLoadedOne) {
  tensorflow::MetaGraphDef mg = mgtest::MakePotentialCycleGraph();
  mg.mutable_meta_info_def()->set_tensorflow_version("1.15.0");
  mg.mutable_meta_info_def()->set_tensorflow_git_version("v1.15.0-rc3-22-g590d6ee");
  mg.mutable_meta_info_def()->add_tags("serve");
  std::string bytes = mg.SerializeAsString();
  MemorySource source(bytes);
  std::unique_ptr<Model> model =
      Model::Load(&source, LoadOptions{"meta-graph-binary", {}, "m.meta"});
  MemoryOutputSet out;
  model->Export(
      json({{"metaInfoDef", {{"tags", json::array({"train"})}, {"tensorflowVersion", "2.14.0"}}}}),
      &out);
  tensorflow::MetaGraphDef got;
  ASSERT_TRUE(got.ParseFromString(out.files().at(0).bytes));
  EXPECT_EQ(got.meta_info_def().tensorflow_version(), "2.14.0");
  EXPECT_EQ(got.meta_info_def().tensorflow_git_version(), "v1.15.0-rc3-22-g590d6ee");
  EXPECT_EQ(ToVector(got.meta_info_def().tags()), (Strings{"train"}));
}

}  // namespace
}  // namespace graphport::tf
