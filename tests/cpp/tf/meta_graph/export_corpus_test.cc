// export_meta_graph end to end on every corpus MetaGraphDef and SavedModel: each option alone
// and all together, checked node by node against export_reference.h, plus the facade's JSON
// options and its errors.
#include "export_test_helpers.h"

namespace graphport::tf {
namespace {

using namespace export_test;  // NOLINT: the shared helpers of these tests

// ---------------------------------------------------------------------------------------------
// Every corpus MetaGraphDef and SavedModel.

class CorpusExportTest : public ::testing::TestWithParam<mgtest::CorpusFile> {
 protected:
  void SetUp() override {
    std::string bytes = mgtest::ReadFile(GetParam().path());
    // The input as plain libprotobuf reads it: the reference for every expectation.
    if (GetParam().kind == TfKind::kSavedModel) {
      tensorflow::SavedModel sm;
      ASSERT_TRUE(sm.ParseFromString(bytes));
      ASSERT_EQ(sm.meta_graphs_size(), 1);
      input_ = sm.meta_graphs(0);
    } else {
      ASSERT_TRUE(input_.ParseFromString(bytes));
    }
    ASSERT_GT(input_.graph_def().node_size(), 0);
    loaded_ = LoadBytes(std::move(bytes), "auto");
    ASSERT_EQ(loaded_->model->format().kind, GetParam().kind);
    scope_ = ChooseScope(input_.graph_def());
  }

  // Exports with `o`, checks the result against TensorFlow's rules, that text and binary agree,
  // and that exporting the export again gives the same bytes.
  Output CheckExport(const ref::Options& o) {
    ref::Expected expected = ref::ExpectedExport(input_, o);
    TfExportOptions options = StructOptions(o);
    Output out = RunExport(loaded_->model.get(), options);
    EXPECT_EQ(out.files.size(), o.debug_info ? 2u : 1u);
    if (out.files.empty()) return out;
    EXPECT_EQ(out.files[0].name, "model.meta");
    ExpectMetaGraph(expected, out);

    if (o.debug_info && out.files.size() == 2) {
      EXPECT_EQ(out.files[1].name, "model_debug.meta");
      tensorflow::GraphDebugInfo debug;
      EXPECT_TRUE(debug.ParseFromString(out.files[1].bytes));
      EXPECT_TRUE(MessagesEqual(
          ref::ExpectedDebugInfo(input_.graph_def().debug_info(), expected.exported), debug));
      EXPECT_EQ(out.info["debugInfoNodes"], debug.traces_size() + debug.name_to_trace_id_size());
    }

    // Text and binary carry the same message.
    TfExportOptions text_options = options;
    text_options.as_text = true;
    Output text = RunExport(loaded_->model.get(), text_options);
    EXPECT_TRUE(text.parsed) << "the text export does not parse";
    EXPECT_EQ(text.files.at(0).name, "model.pbtxt");
    EXPECT_TRUE(MessagesEqual(out.meta_graph, text.meta_graph));

    // Exporting the export with the same options changes nothing. The scope is left out the
    // second time: the first export already stripped it, so no node name carries it any more
    // (the same scope would match nothing, or only nodes that happen to share its name). The
    // collection list keeps the keys the first export wrote: the ones it dropped are gone.
    ref::Options again = o;
    again.scope.clear();
    if (again.collections) {
      again.collections->clear();
      for (const auto& [key, value] : out.meta_graph.collection_def())
        again.collections->push_back(key);
    }
    std::unique_ptr<Loaded> reloaded = LoadBytes(out.files[0].bytes, "meta-graph-binary");
    Output second = RunExport(reloaded->model.get(), StructOptions(again));
    EXPECT_TRUE(second.files.at(0).bytes == out.files[0].bytes)
        << "re-export is not byte-identical";
    return out;
  }

  ref::Options AllOptions() const;

  Strings Keys() const {
    Strings keys;
    for (const auto& [k, v] : input_.collection_def()) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  tensorflow::MetaGraphDef input_;
  std::unique_ptr<Loaded> loaded_;
  std::string scope_;
};

TEST_P(CorpusExportTest, NoOptions) {
  Output out = CheckExport({});
  // Nothing asked to change the graph: it is the input's, byte for byte, and so is every
  // collection; tensorflow_version is the producer's (graphport does not overwrite it).
  EXPECT_TRUE(MessagesEqual(input_, out.meta_graph));
  EXPECT_EQ(out.meta_graph.meta_info_def().tensorflow_version(),
            input_.meta_info_def().tensorflow_version());
}

TEST_P(CorpusExportTest, ExportScope) {
  ASSERT_FALSE(scope_.empty());
  SCOPED_TRACE("exportScope " + scope_);
  ref::Options o;
  o.scope = scope_;
  Output out = CheckExport(o);
  const tensorflow::GraphDef& in = input_.graph_def();
  const tensorflow::GraphDef& got = out.meta_graph.graph_def();
  // Kept nodes are exactly those in the scope, in input order, with the scope stripped.
  Strings expected_names;
  std::set<std::string> outside_inputs;
  for (const auto& node : in.node()) {
    bool inside = node.name() == scope_ || node.name().rfind(scope_ + "/", 0) == 0;
    if (!inside) continue;
    expected_names.push_back(node.name() == scope_ ? node.name()
                                                   : node.name().substr(scope_.size() + 1));
    for (const auto& input : node.input()) {
      std::string bare = input[0] == '^' ? input.substr(1) : input;
      std::string node_name = bare.substr(0, bare.find(':'));
      if (node_name != scope_ && node_name.rfind(scope_ + "/", 0) != 0 && input[0] != '^') {
        outside_inputs.insert("$unbound_inputs_" + bare);
      }
    }
  }
  ASSERT_FALSE(expected_names.empty());
  EXPECT_EQ(mgtest::NodeNames(got), expected_names);
  // No input of a kept node names a node outside: they are all unbound now.
  std::set<std::string> kept(expected_names.begin(), expected_names.end());
  for (const auto& node : got.node()) {
    for (const auto& input : node.input()) {
      std::string bare = input[0] == '^' ? input.substr(1) : input;
      std::string node_name = bare.substr(0, bare.find(':'));
      EXPECT_TRUE(kept.count(node_name) || node_name.rfind("$unbound_inputs_", 0) == 0)
          << node.name() << " reads " << input;
    }
  }
  // The unbound_inputs collection is the set of outside data inputs, each once.
  if (outside_inputs.empty()) {
    EXPECT_EQ(out.meta_graph.collection_def().count("unbound_inputs"), 0u);
  } else {
    ASSERT_EQ(out.meta_graph.collection_def().count("unbound_inputs"), 1u);
    Strings values =
        ToVector(out.meta_graph.collection_def().at("unbound_inputs").bytes_list().value());
    EXPECT_EQ(std::set<std::string>(values.begin(), values.end()), outside_inputs);
    EXPECT_EQ(values.size(), outside_inputs.size()) << "an unbound input is listed twice";
  }
  // The saver_def is stripped of the scope when its tensors are in it, and dropped (and listed)
  // when they are not: the export never names a tensor it does not hold.
  if (input_.has_saver_def()) {
    const auto& saver = input_.saver_def();
    bool inside = saver.save_tensor_name().rfind(scope_ + "/", 0) == 0 &&
                  saver.restore_op_name().rfind(scope_ + "/", 0) == 0 &&
                  saver.filename_tensor_name().rfind(scope_ + "/", 0) == 0;
    EXPECT_EQ(out.meta_graph.has_saver_def(), inside);
    if (inside) {
      EXPECT_EQ(out.meta_graph.saver_def().restore_op_name(),
                saver.restore_op_name().substr(scope_.size() + 1));
    }
  }
  EXPECT_TRUE(MessagesEqual(input_.graph_def().versions(), got.versions()));
}

TEST_P(CorpusExportTest, ClearDevices) {
  ref::Options o;
  o.clear_devices = true;
  Output out = CheckExport(o);
  const tensorflow::GraphDef& in = input_.graph_def();
  const tensorflow::GraphDef& got = out.meta_graph.graph_def();
  ASSERT_EQ(got.node_size(), in.node_size());
  for (int i = 0; i < in.node_size(); ++i) {
    SCOPED_TRACE(in.node(i).name());
    EXPECT_EQ(got.node(i).device(), "");
    tensorflow::NodeDef expected = in.node(i);
    expected.clear_device();
    EXPECT_TRUE(MessagesEqual(expected, got.node(i)));
  }
  // Function bodies keep their devices (TensorFlow copies the library verbatim).
  EXPECT_TRUE(MessagesEqual(in.library(), got.library()));
  for (const auto& [key, value] : input_.collection_def()) {
    EXPECT_TRUE(MessagesEqual(value, out.meta_graph.collection_def().at(key))) << key;
  }
}

TEST_P(CorpusExportTest, ClearExtraneousSavers) {
  ref::Options o;
  o.clear_savers = true;
  Output out = CheckExport(o);
  // Each corpus graph holds at most the one saver its saver_def names: nothing is cleared.
  EXPECT_TRUE(out.info["excludedNodes"].empty());
  ASSERT_EQ(out.meta_graph.graph_def().node_size(), input_.graph_def().node_size());
  for (int i = 0; i < input_.graph_def().node_size(); ++i) {
    EXPECT_TRUE(MessagesEqual(input_.graph_def().node(i), out.meta_graph.graph_def().node(i)));
  }
}

// A second saver is added to the corpus graph (the nodes a TF 1.x Saver would add), then cleared.
TEST_P(CorpusExportTest, ClearExtraneousSaversRemovesAnAddedSaver) {
  tensorflow::MetaGraphDef with_extra = input_;
  const std::string variable = input_.graph_def().node(0).name();
  tensorflow::SaverDef extra =
      mgtest::AddV2Saver(with_extra.mutable_graph_def(), "graphport_extra_saver", variable, "k");
  std::unique_ptr<Loaded> loaded = LoadMeta(with_extra);

  // The file's own saver (if any) stays, the added one goes.
  ref::Options o;
  o.clear_savers = true;
  Output out = RunExport(loaded->model.get(), StructOptions(o));
  ref::Expected expected = ref::ExpectedExport(with_extra, o);
  ExpectMetaGraph(expected, out);
  Strings extra_nodes;
  for (const auto& n : with_extra.graph_def().node()) {
    if (n.name().rfind("graphport_extra_saver/", 0) == 0) extra_nodes.push_back(n.name());
  }
  std::sort(extra_nodes.begin(), extra_nodes.end());
  ASSERT_EQ(extra_nodes.size(), size_t{mgtest::kSaverNodes});
  EXPECT_EQ(out.info["excludedNodes"].get<Strings>(), extra_nodes);
  ASSERT_EQ(out.meta_graph.graph_def().node_size(), input_.graph_def().node_size());
  for (int i = 0; i < input_.graph_def().node_size(); ++i) {
    EXPECT_TRUE(MessagesEqual(input_.graph_def().node(i), out.meta_graph.graph_def().node(i)));
  }

  // Exporting the added saver instead (saverDef as protobuf JSON): the file's own saver scopes go.
  ref::Options keep_extra = o;
  keep_extra.saver_def = extra;
  ref::Expected expected_extra = ref::ExpectedExport(with_extra, keep_extra);
  ASSERT_TRUE(loaded->source->Rewind());
  std::unique_ptr<Model> model =
      Model::Load(loaded->source.get(), LoadOptions{"meta-graph-binary", {}, "extra.meta"});
  MemoryOutputSet files;
  json info = model->Export(JsonOptions(keep_extra), &files);
  ASSERT_EQ(files.files().size(), 1u);
  Output via_json;
  via_json.files = files.files();
  via_json.info = info;
  via_json.parsed = via_json.meta_graph.ParseFromString(files.files()[0].bytes);
  ExpectMetaGraph(expected_extra, via_json);
  EXPECT_TRUE(MessagesEqual(extra, via_json.meta_graph.saver_def()));
  for (const auto& name : expected_extra.excluded) {
    EXPECT_NE(name.rfind("graphport_extra_saver/", 0), 0u) << name;
  }
  for (const auto& name : extra_nodes)
    EXPECT_NE(mgtest::FindNode(via_json.meta_graph.graph_def(), name), nullptr);
}

TEST_P(CorpusExportTest, StripDefaultAttrs) {
  ref::Options o;
  o.strip = true;
  Output out = CheckExport(o);
  EXPECT_TRUE(out.meta_graph.meta_info_def().stripped_default_attrs());
  // Every attr that is gone had its default value; the rest are the input's, unchanged.
  const tensorflow::GraphDef& in = input_.graph_def();
  const tensorflow::GraphDef& got = out.meta_graph.graph_def();
  ASSERT_EQ(got.node_size(), in.node_size());
  for (int i = 0; i < in.node_size(); ++i) {
    for (const auto& [key, value] : got.node(i).attr()) {
      EXPECT_TRUE(MessagesEqual(in.node(i).attr().at(key), value))
          << in.node(i).name() << "." << key;
    }
  }
  EXPECT_EQ(out.info["strippedDefaultAttrs"], AttrCount(in) - AttrCount(got));
  EXPECT_EQ(AttrCount(got), AttrCount(ref::ExpectedExport(input_, o).meta_graph.graph_def()));
}

TEST_P(CorpusExportTest, StripDefaultAttrsWithTensorFlowsRegistry) {
  ref::Options o;
  o.strip = true;
  o.with_registry = true;
  Output out = CheckExport(o);
  EXPECT_TRUE(out.meta_graph.meta_info_def().stripped_default_attrs());
  EXPECT_EQ(out.info["strippedDefaultAttrs"],
            AttrCount(input_.graph_def()) - AttrCount(out.meta_graph.graph_def()));
  // Every op of the corpus is registered in TensorFlow: nothing is left unknown.
  EXPECT_TRUE(out.info["unknownDefaultOps"].empty()) << out.info["unknownDefaultOps"].dump();
}

TEST_P(CorpusExportTest, SaveDebugInfo) {
  ref::Options o;
  o.debug_info = true;
  Output out = CheckExport(o);
  // The corpus graphs carry no GraphDef.debug_info: an empty GraphDebugInfo, as TensorFlow's
  // rule gives with no traceback available.
  ASSERT_EQ(out.files.size(), 2u);
  EXPECT_EQ(out.files[1].bytes, "");
  EXPECT_TRUE(MessagesEqual(input_, out.meta_graph));
}

TEST_P(CorpusExportTest, CollectionListSubset) {
  Strings keys = Keys();
  ref::Options o;
  o.collections = Strings(keys.begin(), keys.begin() + keys.size() / 2);
  Output out = CheckExport(o);
  EXPECT_EQ(out.meta_graph.collection_def_size(), static_cast<int>(o.collections->size()));
  for (const auto& key : *o.collections) {
    ASSERT_EQ(out.meta_graph.collection_def().count(key), 1u) << key;
    EXPECT_TRUE(
        MessagesEqual(input_.collection_def().at(key), out.meta_graph.collection_def().at(key)));
  }
  ref::Options none;
  none.collections = Strings{};
  EXPECT_EQ(CheckExport(none).meta_graph.collection_def_size(), 0);
}

// Every option on at once, with the file's own scope and collections.
ref::Options CorpusExportTest::AllOptions() const {
  ref::Options o;
  o.scope = scope_;
  o.clear_devices = true;
  o.clear_savers = true;
  o.strip = true;
  o.with_registry = true;
  o.debug_info = true;
  o.collections = Keys();
  o.collections->push_back("unbound_inputs");
  return o;
}

TEST_P(CorpusExportTest, AllOptionsTogether) {
  ref::Options o = AllOptions();
  Output out = CheckExport(o);
  for (const auto& node : out.meta_graph.graph_def().node())
    EXPECT_EQ(node.device(), "") << node.name();
  EXPECT_TRUE(out.meta_graph.meta_info_def().stripped_default_attrs());
}

// The facade reads the same options from JSON (camelCase, protos as JSON or bytes) and gives
// the same bytes and info as the struct.
TEST_P(CorpusExportTest, JsonOptionsThroughTheFacade) {
  ref::Options o = AllOptions();
  Output direct = RunExport(loaded_->model.get(), StructOptions(o));
  ASSERT_TRUE(loaded_->source->Rewind());
  std::unique_ptr<Model> model = Model::Load(loaded_->source.get(), LoadOptions{});
  MemoryOutputSet files;
  json info = model->Export(JsonOptions(o), &files);
  ASSERT_EQ(files.files().size(), direct.files.size());
  for (size_t i = 0; i < direct.files.size(); ++i) {
    EXPECT_EQ(files.files()[i].name, direct.files[i].name);
    EXPECT_TRUE(files.files()[i].bytes == direct.files[i].bytes) << direct.files[i].name;
  }
  EXPECT_EQ(info, direct.info);
}

// Errors leave the model as it was: the next export gives the same bytes as before.
TEST_P(CorpusExportTest, BadOptionsThroughTheFacade) {
  ASSERT_TRUE(loaded_->source->Rewind());
  std::unique_ptr<Model> model = Model::Load(loaded_->source.get(), LoadOptions{});
  MemoryOutputSet reference;
  model->ExportJson("{}", &reference);
  struct Case {
    json options;
    ErrorCode code;
    Strings mentions;
  };
  const std::vector<Case> cases = {
      {{{"collectionList", json::array({"no_such_key"})}}, ErrorCode::kNotFound, {"no_such_key"}},
      {{{"exportScope", "no_such_scope"}}, ErrorCode::kNotFound, {"no_such_scope"}},
      {{{"saverDef", {{"saveTensorName", 5}}}},
       ErrorCode::kInvalidOption,
       {"saverDef", "save_tensor_name"}},
      {{{"saverDef", {{"bogusField", "x"}}}},
       ErrorCode::kInvalidOption,
       {"saverDef", "bogusField"}},
      {{{"metaInfoDef", {{"tensorflowVersion", "mylib-0.1"}}}},
       ErrorCode::kInvalidOption,
       {"mylib-0.1"}},
      {{{"metaInfoDef", {{"tensorflowVersion", "0.12.head"}}}},
       ErrorCode::kInvalidOption,
       {"0.12.head"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.options.dump());
    MemoryOutputSet out;
    try {
      model->Export(c.options, &out);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), c.code) << ErrorCodeName(e.code()) << ": " << e.what();
      for (const auto& m : c.mentions)
        EXPECT_NE(std::string(e.what()).find(m), std::string::npos) << e.what();
    }
    MemoryOutputSet after;
    model->ExportJson("{}", &after);
    ASSERT_EQ(after.files().size(), 1u);
    EXPECT_TRUE(after.files()[0].bytes == reference.files()[0].bytes);
  }
}

// A SavedModel exported as a SavedModel: the selected MetaGraphDef is the export, the rest
// of the SavedModel is the input's.
TEST_P(CorpusExportTest, SavedModelWrapsTheExport) {
  ref::Options o;
  o.scope = scope_;
  o.clear_devices = true;
  TfExportOptions options = StructOptions(o);
  options.to = TfKind::kSavedModel;
  auto before = Snapshot(*loaded_->model);
  MemoryOutputSet out;
  Export(loaded_->model.get(), options, &out);
  EXPECT_TRUE(MessagesEqual(*before, loaded_->model->root()));
  ASSERT_EQ(out.files().size(), 1u);
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(out.files()[0].bytes));
  ASSERT_EQ(sm.meta_graphs_size(), 1);
  tensorflow::MetaGraphDef expected = ref::ExpectedExport(input_, o).meta_graph;
  if (GetParam().kind == TfKind::kSavedModel) {
    EXPECT_TRUE(MessagesEqual(expected, sm.meta_graphs(0)));
    tensorflow::SavedModel in;
    ASSERT_TRUE(in.ParseFromString(mgtest::ReadFile(GetParam().path())));
    EXPECT_EQ(sm.saved_model_schema_version(), in.saved_model_schema_version());
  } else {
    // A MetaGraphDef without tags gets the serving tag so a SavedModel loader can select it.
    if (expected.meta_info_def().tags_size() == 0)
      expected.mutable_meta_info_def()->add_tags("serve");
    EXPECT_TRUE(MessagesEqual(expected, sm.meta_graphs(0)));
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusExportTest,
                         ::testing::ValuesIn(mgtest::CorpusMetaGraphFiles()),
                         mgtest::CorpusFileTestName);

TEST(CorpusListTest, HoldsEveryMetaGraphAndSavedModelOfTheCorpus) {
  ASSERT_TRUE(mgtest::CorpusPresent()) << mgtest::MissingCorpusMessage();
  std::vector<mgtest::CorpusFile> files = mgtest::CorpusMetaGraphFiles();
  int metas = 0, saved_models = 0;
  for (const auto& f : files) (f.kind == TfKind::kSavedModel ? saved_models : metas)++;
  EXPECT_EQ(metas, 2) << "both export.meta files";
  EXPECT_GE(saved_models, 13);
}

}  // namespace
}  // namespace graphport::tf
