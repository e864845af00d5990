#include "tf/inspect.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "test_util.h"

namespace graphport::tf {
namespace {

using nlohmann::json;
using testing::CorpusGraph;

std::unique_ptr<TfModel> LoadFile(const CorpusGraph& g, std::string* bytes) {
  *bytes = testing::ReadFile(g.path());
  MemorySource source(*bytes);
  return TfModel::Load(&source, TfLoadOptions{});
}

std::string CollectionKindOf(const tensorflow::CollectionDef& c) {
  if (c.has_node_list()) return "node_list";
  if (c.has_bytes_list()) return "bytes_list";
  if (c.has_int64_list()) return "int64_list";
  if (c.has_float_list()) return "float_list";
  if (c.has_any_list()) return "any_list";
  return "none";
}

int CollectionSizeOf(const tensorflow::CollectionDef& c) {
  return c.node_list().value_size() + c.bytes_list().value_size() + c.int64_list().value_size() +
         c.float_list().value_size() + c.any_list().value_size();
}

std::vector<std::string> Tags(const tensorflow::MetaGraphDef& mg) {
  return {mg.meta_info_def().tags().begin(), mg.meta_info_def().tags().end()};
}

class InspectCorpusTest : public ::testing::TestWithParam<CorpusGraph> {};

// Every field checked against the file parsed by plain libprotobuf.
TEST_P(InspectCorpusTest, SummaryMatchesTheParsedProtobuf) {
  const CorpusGraph& g = GetParam();
  std::string bytes;
  auto model = LoadFile(g, &bytes);
  json s = Inspect(*model);

  auto reference = testing::ReferenceParse(g.kind, bytes);
  ASSERT_NE(reference, nullptr);
  const tensorflow::MetaGraphDef* mg = nullptr;
  const tensorflow::SavedModel* sm = nullptr;
  const tensorflow::GraphDef* graph = nullptr;
  if (g.kind == TfKind::kSavedModel) {
    sm = static_cast<const tensorflow::SavedModel*>(reference.get());
    ASSERT_EQ(sm->meta_graphs_size(), 1);  // every SavedModel of the corpus has one
    mg = &sm->meta_graphs(0);
  } else if (g.kind == TfKind::kMetaGraphDef) {
    mg = static_cast<const tensorflow::MetaGraphDef*>(reference.get());
  } else {
    graph = static_cast<const tensorflow::GraphDef*>(reference.get());
  }
  if (mg != nullptr) graph = &mg->graph_def();

  EXPECT_EQ(s["family"], "tensorflow");
  EXPECT_EQ(s["format"], KindName(g.kind));
  EXPECT_EQ(s["encoding"], "binary");
  EXPECT_EQ(s["inputBytes"], bytes.size());
  EXPECT_TRUE(s["detection"].is_string());
  EXPECT_EQ(s["producer"]["graphProducer"], graph->versions().producer());
  EXPECT_EQ(s["producer"]["minConsumer"], graph->versions().min_consumer());
  if (mg != nullptr) {
    EXPECT_EQ(s["producer"]["tensorflowVersion"], mg->meta_info_def().tensorflow_version());
    EXPECT_EQ(s["producer"]["tensorflowGitVersion"], mg->meta_info_def().tensorflow_git_version());
  }

  EXPECT_EQ(s["nodeCount"], graph->node_size());
  std::map<std::string, int> ops;
  int consts = 0;
  for (const auto& node : graph->node()) {
    ++ops[node.op()];
    consts += node.op() == "Const";
  }
  ASSERT_TRUE(s["ops"].is_object());
  EXPECT_EQ((s["ops"].get<std::map<std::string, int>>()), ops);
  int sum = 0;
  for (const auto& [op, count] : s["ops"].items()) sum += count.get<int>();
  EXPECT_EQ(sum, s["nodeCount"].get<int>());
  EXPECT_EQ(s["constants"]["count"], consts);

  ASSERT_EQ(s["functions"].size(), static_cast<size_t>(graph->library().function_size()));
  for (int i = 0; i < graph->library().function_size(); ++i) {
    EXPECT_EQ(s["functions"][i]["name"], graph->library().function(i).signature().name());
    EXPECT_EQ(s["functions"][i]["nodeCount"], graph->library().function(i).node_def_size());
  }

  std::map<std::string, std::pair<std::string, int>> collections;
  std::set<std::string> signatures;
  std::vector<std::string> tags;
  if (mg != nullptr) {
    for (const auto& [k, c] : mg->collection_def()) {
      collections[k] = {CollectionKindOf(c), CollectionSizeOf(c)};
    }
    for (const auto& [k, sig] : mg->signature_def()) signatures.insert(k);
    tags = Tags(*mg);
    EXPECT_EQ(s["hasSaver"], mg->has_saver_def());
  }
  std::map<std::string, std::pair<std::string, int>> got_collections;
  for (const auto& c : s["collections"]) {
    got_collections[c["name"]] = {c["kind"], c["size"]};
  }
  EXPECT_EQ(got_collections, collections);
  EXPECT_EQ(s["collections"].size(), collections.size());  // no duplicates
  std::set<std::string> got_signatures;
  for (const auto& sig : s["signatures"]) got_signatures.insert(sig["name"].get<std::string>());
  EXPECT_EQ(got_signatures, signatures);
  EXPECT_EQ(s["signatures"].size(), signatures.size());
  if (mg != nullptr) {
    for (const auto& sig : s["signatures"]) {
      const auto& def = mg->signature_def().at(sig["name"].get<std::string>());
      EXPECT_EQ(sig["methodName"], def.method_name());
      EXPECT_EQ(sig["inputs"].size(), def.inputs().size());
      EXPECT_EQ(sig["outputs"].size(), def.outputs().size());
      for (const auto& [k, info] : def.inputs()) {
        ASSERT_TRUE(sig["inputs"].contains(k)) << k;
        EXPECT_EQ(sig["inputs"][k]["dtype"], tensorflow::DataType_Name(info.dtype()));
      }
    }
  }
  EXPECT_EQ(s["tags"].get<std::vector<std::string>>(), tags);

  if (sm != nullptr) {
    ASSERT_EQ(s["metaGraphs"].size(), static_cast<size_t>(sm->meta_graphs_size()));
    for (int i = 0; i < sm->meta_graphs_size(); ++i) {
      EXPECT_EQ(s["metaGraphs"][i]["tags"].get<std::vector<std::string>>(),
                Tags(sm->meta_graphs(i)));
      EXPECT_EQ(s["metaGraphs"][i]["nodeCount"], sm->meta_graphs(i).graph_def().node_size());
      EXPECT_EQ(s["metaGraphs"][i]["signatureCount"], sm->meta_graphs(i).signature_def_size());
    }
    EXPECT_EQ(s["selectedMetaGraph"], 0);
  } else {
    EXPECT_TRUE(s["metaGraphs"].empty());
    EXPECT_EQ(s["selectedMetaGraph"], -1);
  }
}

// The constants' byte total, recomputed here from each Const tensor: raw content, string
// lengths, or (typed value fields, possibly one value splatted) element count times width.
TEST_P(InspectCorpusTest, ConstantBytesAreTheConstTensorPayloads) {
  std::string bytes;
  auto model = LoadFile(GetParam(), &bytes);
  json s = Inspect(*model);
  const std::map<tensorflow::DataType, uint64_t> width = {
      {tensorflow::DT_FLOAT, 4},  {tensorflow::DT_INT32, 4}, {tensorflow::DT_INT64, 8},
      {tensorflow::DT_DOUBLE, 8}, {tensorflow::DT_BOOL, 1},  {tensorflow::DT_UINT8, 1}};
  uint64_t expected = 0;
  for (const auto& node : model->graph().node()) {
    if (node.op() != "Const") continue;
    auto it = node.attr().find("value");
    if (it == node.attr().end()) continue;
    const tensorflow::TensorProto& t = it->second.tensor();
    if (!t.tensor_content().empty()) {
      expected += t.tensor_content().size();
    } else if (t.dtype() == tensorflow::DT_STRING) {
      for (const auto& v : t.string_val()) expected += v.size();
    } else {
      int values = t.float_val_size() + t.int_val_size() + t.int64_val_size() +
                   t.double_val_size() + t.bool_val_size();
      if (values == 0) continue;
      ASSERT_TRUE(width.count(t.dtype())) << "extend this test for " << testing::ShortText(t);
      uint64_t elements = 1;
      for (const auto& d : t.tensor_shape().dim()) elements *= d.size();
      expected += elements * width.at(t.dtype());
    }
  }
  EXPECT_EQ(s["constants"]["bytes"], expected);
}

INSTANTIATE_TEST_SUITE_P(Corpus, InspectCorpusTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

// Literal facts from research/tensorflow.md §3.4, found there by decoding the files with
// protoc against TensorFlow's own protos.
struct KnownFacts {
  const char* relative;
  uint64_t bytes;
  const char* tensorflow_version;
  int nodes;
  int distinct_ops;  // the table's "Ops": ops of the stripped_op_list, functions included
  int signatures;    // -1: not stated
};

void PrintTo(const KnownFacts& f, std::ostream* os) { *os << f.relative; }

class InspectKnownFactsTest : public ::testing::TestWithParam<KnownFacts> {};

TEST_P(InspectKnownFactsTest, MatchesTheResearchTable) {
  const KnownFacts& f = GetParam();
  std::string bytes;
  auto model = LoadFile({f.relative, TfKind::kSavedModel}, &bytes);
  json s = Inspect(*model);
  EXPECT_EQ(s["inputBytes"], f.bytes);
  EXPECT_EQ(s["producer"]["tensorflowVersion"], f.tensorflow_version);
  EXPECT_EQ(s["nodeCount"], f.nodes);
  // The graph's own ops are the stripped op list's, minus those used only inside functions.
  ASSERT_NE(model->meta_graph(), nullptr);
  const auto& op_list = model->meta_graph()->meta_info_def().stripped_op_list();
  EXPECT_EQ(op_list.op_size(), f.distinct_ops);
  std::set<std::string> listed;
  for (const auto& op : op_list.op()) listed.insert(op.name());
  for (const auto& [op, n] : s["ops"].items()) EXPECT_TRUE(listed.count(op)) << op;
  if (model->graph().library().function_size() == 0) {
    EXPECT_EQ(s["ops"].size(), static_cast<size_t>(f.distinct_ops));
  }
  if (f.signatures >= 0) {
    EXPECT_EQ(s["signatures"].size(), static_cast<size_t>(f.signatures));
  }
  if (s["format"] == "saved-model") {
    EXPECT_EQ(s["tags"], json::array({"serve"}));
  }
}

#define SERVABLES "tf/serving/servables/tensorflow/testdata/"
INSTANTIATE_TEST_SUITE_P(
    ResearchTable, InspectKnownFactsTest,
    ::testing::Values(
        KnownFacts{testing::kSessionBundleMeta, 13244, "0.12.head", 57, 13, -1},
        KnownFacts{testing::kBadHalfPlusTwoMeta, 4053, "", 26, 10, -1},
        KnownFacts{testing::kMatrixSavedModel, 856, "1.2.0-rc2", 6, 5, 1},
        KnownFacts{SERVABLES "saved_model_counter/00000123/saved_model.pb", 5289, "1.5.0-rc1", 30,
                   13, 4},
        KnownFacts{SERVABLES "saved_model_half_plus_three/00000123/saved_model.pb", 8658,
                   "1.0.0-rc2", 60, 15, 2},
        KnownFacts{SERVABLES "saved_model_half_plus_two_2_versions/00000123/saved_model.pb", 9935,
                   "1.1.0-rc2", 65, 16, 6},
        KnownFacts{SERVABLES "saved_model_half_plus_two_2_versions/00000124/saved_model.pb", 9935,
                   "1.1.0-rc2", 65, 16, 6},
        KnownFacts{SERVABLES "saved_model_half_plus_two_cpu/00000123/saved_model.pb", 12107,
                   "1.14.0", 74, 17, 5},
        KnownFacts{SERVABLES "saved_model_half_plus_two_gpu/00000123/saved_model.pb", 9337, "1.9.0",
                   58, 16, -1},
        KnownFacts{SERVABLES "saved_model_half_plus_two_mkl/00000123/saved_model.pb", 29084,
                   "1.12.0-rc0", 163, 26, -1},
        KnownFacts{SERVABLES "saved_model_half_plus_two_mlmd/00000123/saved_model.pb", 12685,
                   "2.1.0", 78, 19, -1},
        KnownFacts{SERVABLES "saved_model_half_plus_two_gpu_trt/00000123/saved_model.pb", 13043,
                   "2.2.0", 78, 19, -1},
        KnownFacts{SERVABLES
                   "saved_model_half_plus_two_cpu_with_saved_model_config/00000123/saved_model.pb",
                   15176, "2.4.0", 97, 21, -1},
        KnownFacts{
            SERVABLES
            "saved_model_half_plus_two_cpu_with_empty_saved_model_config/00000123/saved_model.pb",
            15176, "2.4.0", 97, 21, -1},
        KnownFacts{testing::kTf2CpuSavedModel, 37987, "2.14.0", 29, 23, -1}),
    [](const ::testing::TestParamInfo<KnownFacts>& info) {
      return testing::CorpusTestName({{info.param.relative, TfKind::kSavedModel}, info.index});
    });
#undef SERVABLES

TEST(InspectTest, SessionBundleHasSevenCollectionsOfTheStatedKinds) {
  std::string bytes;
  auto model = LoadFile({testing::kSessionBundleMeta, TfKind::kMetaGraphDef}, &bytes);
  json s = Inspect(*model);
  std::map<std::string, std::string> kinds;
  for (const auto& c : s["collections"]) kinds[c["name"]] = c["kind"];
  std::map<std::string, std::string> expected = {
      {"asset_filepaths", "node_list"},   {"serving_assets", "any_list"},
      {"serving_graph", "any_list"},      {"serving_init_op", "node_list"},
      {"serving_signatures", "any_list"}, {"trainable_variables", "bytes_list"},
      {"variables", "bytes_list"}};
  EXPECT_EQ(kinds, expected);
  EXPECT_EQ(s["hasSaver"], true);
  EXPECT_EQ(s["format"], "meta-graph");
}

TEST(InspectTest, BadHalfPlusTwoHasOnlyVariableCollections) {
  std::string bytes;
  auto model = LoadFile({testing::kBadHalfPlusTwoMeta, TfKind::kMetaGraphDef}, &bytes);
  json s = Inspect(*model);
  std::set<std::string> names;
  for (const auto& c : s["collections"]) names.insert(c["name"]);
  EXPECT_EQ(names, (std::set<std::string>{"trainable_variables", "variables"}));
}

// research/tensorflow.md §3.4 says "20 library functions" for this file. protoc's decoding
// does show 20 `function {` blocks, but only 14 are FunctionDefs of graph_def.library: the
// other 6 are SavedFunction objects of object_graph_def. Inspect lists the library ones.
TEST(InspectTest, Tf2CpuFunctionsAreTheLibraryOnesAndOnlyTheMainOpCollection) {
  std::string bytes;
  auto model = LoadFile({testing::kTf2CpuSavedModel, TfKind::kSavedModel}, &bytes);
  json s = Inspect(*model);
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(bytes));
  const tensorflow::MetaGraphDef& mg = sm.meta_graphs(0);
  int saved_functions = 0;
  for (const auto& node : mg.object_graph_def().nodes()) saved_functions += node.has_function();
  EXPECT_EQ(s["functions"].size() + saved_functions, 20u);
  ASSERT_EQ(s["functions"].size(), static_cast<size_t>(mg.graph_def().library().function_size()));
  std::set<std::string> library;
  for (const auto& f : mg.graph_def().library().function()) library.insert(f.signature().name());
  for (const auto& f : s["functions"]) EXPECT_TRUE(library.count(f["name"].get<std::string>()));
  EXPECT_TRUE(mg.meta_info_def().stripped_default_attrs());  // also stated in §3.4
  ASSERT_EQ(s["collections"].size(), 1u);
  EXPECT_EQ(s["collections"][0]["name"], "saved_model_main_op");
  bool init_op = false;
  for (const auto& sig : s["signatures"]) init_op |= sig["name"] == "__saved_model_init_op";
  EXPECT_TRUE(init_op);
}

TEST(InspectTest, MatrixHasNoSaverAndNoCollections) {
  std::string bytes;
  auto model = LoadFile({testing::kMatrixSavedModel, TfKind::kSavedModel}, &bytes);
  json s = Inspect(*model);
  EXPECT_EQ(s["hasSaver"], false);
  EXPECT_TRUE(s["collections"].empty());
}

TEST(InspectTest, GraphDefHasNoMetaGraphFields) {
  std::string bytes;
  auto model = LoadFile({testing::kFrozenGraph, TfKind::kGraphDef}, &bytes);
  json s = Inspect(*model);
  EXPECT_EQ(s["format"], "graph-def");
  EXPECT_TRUE(s["tags"].empty());
  EXPECT_TRUE(s["collections"].empty());
  EXPECT_TRUE(s["signatures"].empty());
  EXPECT_EQ(s["hasSaver"], false);
  EXPECT_FALSE(s["producer"].contains("tensorflowVersion"));
}

// --- TensorPayloadBytes ------------------------------------------------------------------------

tensorflow::TensorProto Tensor(tensorflow::DataType dtype, std::initializer_list<int64_t> dims) {
  tensorflow::TensorProto t;
  t.set_dtype(dtype);
  for (int64_t d : dims) t.mutable_tensor_shape()->add_dim()->set_size(d);
  return t;
}

TEST(TensorPayloadBytesTest, TensorContentIsItsLength) {
  auto t = Tensor(tensorflow::DT_FLOAT, {2, 5});
  t.set_tensor_content(std::string(40, '\1'));
  EXPECT_EQ(TensorPayloadBytes(t), 40u);
}

TEST(TensorPayloadBytesTest, SplattedValueCountsTheWholeShape) {
  auto t = Tensor(tensorflow::DT_FLOAT, {2, 3});
  t.add_float_val(1.5f);
  EXPECT_EQ(TensorPayloadBytes(t), 2u * 3u * 4u);
  auto d = Tensor(tensorflow::DT_DOUBLE, {7});
  d.add_double_val(1.0);
  EXPECT_EQ(TensorPayloadBytes(d), 7u * 8u);
  auto scalar = Tensor(tensorflow::DT_INT32, {});
  scalar.add_int_val(3);
  EXPECT_EQ(TensorPayloadBytes(scalar), 4u);
  auto h = Tensor(tensorflow::DT_HALF, {4});
  h.add_half_val(0x3c00);
  EXPECT_EQ(TensorPayloadBytes(h), 8u);
}

TEST(TensorPayloadBytesTest, StringsAreTheirTotalLength) {
  auto t = Tensor(tensorflow::DT_STRING, {3});
  t.add_string_val("ab");
  t.add_string_val("");
  t.add_string_val("cdef");
  EXPECT_EQ(TensorPayloadBytes(t), 6u);
}

TEST(TensorPayloadBytesTest, NoValuesOrUnknownShapeIsZero) {
  EXPECT_EQ(TensorPayloadBytes(Tensor(tensorflow::DT_FLOAT, {3})), 0u);
  auto unknown = Tensor(tensorflow::DT_FLOAT, {-1, 3});
  unknown.add_float_val(1.0f);
  EXPECT_EQ(TensorPayloadBytes(unknown), 0u);
  auto resource = Tensor(tensorflow::DT_RESOURCE, {1});
  resource.add_resource_handle_val();
  EXPECT_EQ(TensorPayloadBytes(resource), 0u);
}

}  // namespace
}  // namespace graphport::tf
