// Running exports in the end-to-end export tests (export_*_test.cc): options as a struct
// and as JSON, loading, exporting and checking an output against export_reference.h.
#ifndef GRAPHPORT_TESTS_CPP_TF_META_GRAPH_EXPORT_TEST_HELPERS_H_
#define GRAPHPORT_TESTS_CPP_TF_META_GRAPH_EXPORT_TEST_HELPERS_H_

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/model.h"
#include "core/byte_stream.h"
#include "core/error.h"
#include "core/option_schema.h"
#include "core/output_set.h"
#include "export_reference.h"
#include "meta_graph_test_util.h"
#include "tensorflow/control_flow.pb.h"
#include "tensorflow/graph_debug_info.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tensorflow/variable.pb.h"
#include "tf/export.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf/meta_graph/export_meta_graph.h"
#include "tf/tf_model.h"
#include "tf_test_graphs.h"

namespace graphport::tf::export_test {

// ---------------------------------------------------------------------------------------------
// Running exports.

inline std::string OpsPbtxt() { return mgtest::ReadCorpus(mgtest::kOpsPbtxt); }

inline const tensorflow::OpList& RegistryOption() { return mgtest::TfOps(); }

inline TfExportOptions StructOptions(const ref::Options& o) {
  TfExportOptions t;
  t.to = TfKind::kMetaGraphDef;
  t.export_scope = o.scope;
  t.clear_devices = o.clear_devices;
  t.clear_extraneous_savers = o.clear_savers;
  t.strip_default_attrs = o.strip;
  t.save_debug_info = o.debug_info;
  if (o.with_registry) t.op_registry = &RegistryOption();
  t.collection_list = o.collections;
  if (o.saver_def) t.saver_def = &*o.saver_def;
  return t;
}

inline json JsonOptions(const ref::Options& o) {
  json j = json::object();
  j["to"] = "meta-graph";
  if (!o.scope.empty()) j["exportScope"] = o.scope;
  if (o.clear_devices) j["clearDevices"] = true;
  if (o.clear_savers) j["clearExtraneousSavers"] = true;
  if (o.strip) j["stripDefaultAttrs"] = true;
  if (o.debug_info) j["saveDebugInfo"] = true;
  if (o.with_registry) j["opRegistry"] = BytesOption(OpsPbtxt());  // the text OpList as given
  if (o.collections) j["collectionList"] = *o.collections;
  if (o.saver_def) {
    j["saverDef"] = {
        {"filenameTensorName", o.saver_def->filename_tensor_name()},
        {"saveTensorName", o.saver_def->save_tensor_name()},
        {"restoreOpName", o.saver_def->restore_op_name()},
        {"maxToKeep", o.saver_def->max_to_keep()},
        {"keepCheckpointEveryNHours", o.saver_def->keep_checkpoint_every_n_hours()},
        {"version", tensorflow::SaverDef::CheckpointFormatVersion_Name(o.saver_def->version())}};
  }
  return j;
}

struct Loaded {
  std::string bytes;
  std::unique_ptr<MemorySource> source;
  std::unique_ptr<TfModel> model;
};

inline std::unique_ptr<Loaded> LoadBytes(std::string bytes, const std::string& format) {
  auto l = std::make_unique<Loaded>();
  l->bytes = std::move(bytes);
  l->source = std::make_unique<MemorySource>(l->bytes);
  TfLoadOptions options;
  options.format = format;
  l->model = TfModel::Load(l->source.get(), options);
  return l;
}

inline std::unique_ptr<Loaded> LoadMeta(const tensorflow::MetaGraphDef& mg) {
  return LoadBytes(mg.SerializeAsString(), "meta-graph-binary");
}

inline std::unique_ptr<google::protobuf::MessageLite> Snapshot(const TfModel& model) {
  std::unique_ptr<google::protobuf::MessageLite> copy(model.root().New());
  copy->CheckTypeAndMergeFrom(model.root());
  return copy;
}

struct Output {
  std::vector<MemoryOutputSet::File> files;
  json info;
  tensorflow::MetaGraphDef meta_graph;  // files[0] parsed (binary or text)
  bool parsed = false;
};

inline Output RunExport(TfModel* model, const TfExportOptions& options) {
  auto before = Snapshot(*model);
  MemoryOutputSet out;
  Output o;
  o.info = Export(model, options, &out);
  o.files = out.files();
  EXPECT_TRUE(MessagesEqual(*before, model->root())) << "the export changed the loaded model";
  if (!o.files.empty()) {
    o.parsed = options.as_text
                   ? graphport::testing::ParseTextReference(o.files[0].bytes, &o.meta_graph)
                   : o.meta_graph.ParseFromString(o.files[0].bytes);
  }
  return o;
}

inline std::string ChooseScope(const tensorflow::GraphDef& g) {
  for (const auto& n : g.node()) {
    if (ref::StartsWith(n.name(), "save/")) return "save";
  }
  for (const auto& n : g.node()) {
    size_t slash = n.name().find('/');
    if (slash != std::string::npos) return n.name().substr(0, slash);
  }
  return g.node_size() > 0 ? g.node(0).name() : "";
}

// Compares an export with the expectation, node by node first for readable failures.
inline void ExpectMetaGraph(const ref::Expected& expected, const Output& out) {
  ASSERT_TRUE(out.parsed) << "the export does not parse as a MetaGraphDef";
  const tensorflow::GraphDef& want = expected.meta_graph.graph_def();
  const tensorflow::GraphDef& got = out.meta_graph.graph_def();
  EXPECT_EQ(mgtest::NodeNames(got), mgtest::NodeNames(want));
  if (got.node_size() == want.node_size()) {
    for (int i = 0; i < want.node_size(); ++i) {
      SCOPED_TRACE("node " + want.node(i).name());
      EXPECT_TRUE(MessagesEqual(want.node(i), got.node(i)));
    }
  }
  EXPECT_TRUE(MessagesEqual(want.library(), got.library()));
  EXPECT_TRUE(MessagesEqual(expected.meta_graph.meta_info_def(), out.meta_graph.meta_info_def()));
  auto keys = [](const tensorflow::MetaGraphDef& mg) {
    Strings k;
    for (const auto& [key, v] : mg.collection_def()) k.push_back(key);
    std::sort(k.begin(), k.end());
    return k;
  };
  EXPECT_EQ(keys(out.meta_graph), keys(expected.meta_graph));
  EXPECT_TRUE(MessagesEqual(expected.meta_graph, out.meta_graph));
  EXPECT_EQ(out.info["nodeCount"], want.node_size());
  EXPECT_EQ(out.info["unboundInputs"].get<Strings>(), expected.unbound);
  EXPECT_EQ(out.info["excludedNodes"].get<Strings>(),
            Strings(expected.excluded.begin(), expected.excluded.end()));
}

// Attrs of every node, top-level and in functions.
inline int AttrCount(const tensorflow::GraphDef& g) {
  int n = 0;
  for (const auto& node : g.node()) n += node.attr_size();
  for (const auto& f : g.library().function()) {
    for (const auto& node : f.node_def()) n += node.attr_size();
  }
  return n;
}
// ---------------------------------------------------------------------------------------------
// TensorFlow's tests, rebuilt.

inline Output ExportBuilt(const tensorflow::MetaGraphDef& mg, const ref::Options& o) {
  std::unique_ptr<Loaded> loaded = LoadMeta(mg);
  Output out = RunExport(loaded->model.get(), StructOptions(o));
  ExpectMetaGraph(ref::ExpectedExport(mg, o), out);
  return out;
}

inline Strings CollectionValues(const tensorflow::MetaGraphDef& mg, const std::string& key) {
  if (!mg.collection_def().count(key)) return {};
  const auto& c = mg.collection_def().at(key);
  return c.has_node_list() ? ToVector(c.node_list().value()) : ToVector(c.bytes_list().value());
}

inline Strings VariableNames(const tensorflow::MetaGraphDef& mg,
                             const std::string& key = "variables") {
  Strings names;
  for (const auto& bytes : CollectionValues(mg, key)) {
    tensorflow::VariableDef v;
    EXPECT_TRUE(v.ParseFromString(bytes));
    names.push_back(v.variable_name());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// meta_graph_test.py testScopedExportAndImport, hidden1.

}  // namespace graphport::tf::export_test

#endif  // GRAPHPORT_TESTS_CPP_TF_META_GRAPH_EXPORT_TEST_HELPERS_H_
