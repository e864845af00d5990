// Shared by the freeze tests: small graphs written as text, real SavedModels read whole.
#ifndef GRAPHPORT_TESTS_CPP_TF_FREEZE_FREEZE_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_TF_FREEZE_FREEZE_TEST_UTIL_H_

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "api/model.h"
#include "core/input_set.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "test_util.h"
#include "tf/freeze/variable_store.h"

namespace graphport::testing {

inline std::filesystem::path SavedModelsDir() { return GRAPHPORT_SAVEDMODELS_DIR; }

inline const char kHalfPlusTwoTf2[] =
    "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123";
inline const char kHalfPlusTwoTf1[] =
    "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_cpu/00000123";

// The files of a folder (but those whose path starts with `leave_out`) loaded as one model;
// `keep` holds their bytes, which the model reads from.
inline std::unique_ptr<Model> LoadFolder(const std::filesystem::path& dir,
                                         std::map<std::string, std::string>* keep,
                                         const std::string& leave_out = "") {
  namespace fs = std::filesystem;
  auto inputs = std::make_unique<MemoryInputSet>(dir.string());
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string name = fs::relative(entry.path(), dir).generic_string();
    if (!leave_out.empty() && name.rfind(leave_out, 0) == 0) continue;
    (*keep)[name] = ReadFile(entry.path());
  }
  for (const auto& [name, bytes] : *keep) inputs->Add(name, bytes);
  return Model::Load(std::move(inputs), nlohmann::json::object());
}

inline tensorflow::SavedModel ReadSavedModel(const std::filesystem::path& folder) {
  tensorflow::SavedModel model;
  std::string bytes = ReadFile(folder / "saved_model.pb");
  if (!model.ParseFromString(bytes)) throw std::runtime_error("cannot parse " + folder.string());
  return model;
}

// The node of `graph` named `name`, or null.
inline const tensorflow::NodeDef* NodeNamed(const tensorflow::GraphDef& graph,
                                            const std::string& name) {
  for (const auto& node : graph.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

// Values by checkpoint key, and the object graph a TF2 SavedModel also keeps in saved_model.pb
// (the string Const "Const" its save function writes): the freeze alone, apart from how a
// checkpoint stores its bytes.
class MapStore : public tf::VariableStore {
 public:
  std::map<std::string, float> scalars;
  std::string object_graph;  // serialized TrackableObjectGraph, "" for none
  std::vector<std::string> reads;

  bool Has(const std::string& key) override { return scalars.count(key) != 0; }
  void Read(const std::string& key, tensorflow::TensorProto* out) override {
    reads.push_back(key);
    out->set_dtype(tensorflow::DT_FLOAT);
    out->mutable_tensor_shape();
    float v = scalars.at(key);
    out->set_tensor_content(std::string(reinterpret_cast<const char*>(&v), sizeof v));
  }
  bool ReadObjectGraph(tensorflow::TrackableObjectGraph* out) override {
    return !object_graph.empty() && out->ParseFromString(object_graph);
  }
  std::string label() const override { return "test store"; }
};

// The object graph a TF2 SavedModel's save function writes into its string Const "Const".
inline std::string TopLevelObjectGraph(const tensorflow::GraphDef& graph) {
  const tensorflow::NodeDef* node = NodeNamed(graph, "Const");
  if (node == nullptr) return "";
  return node->attr().at("value").tensor().string_val(0);
}

// half_plus_two TF2's checkpoint as TF Serving's testdata holds it (a = 0.5, b = 2, c = 3),
// with the object graph its saved_model.pb keeps.
inline MapStore HalfPlusTwoTf2Store(const tensorflow::MetaGraphDef& meta) {
  MapStore store;
  store.scalars = {{"a/.ATTRIBUTES/VARIABLE_VALUE", 0.5f},
                   {"b/.ATTRIBUTES/VARIABLE_VALUE", 2.0f},
                   {"c/.ATTRIBUTES/VARIABLE_VALUE", 3.0f}};
  store.object_graph = TopLevelObjectGraph(meta.graph_def());
  return store;
}

inline std::map<std::string, int> OpHistogram(const tensorflow::GraphDef& graph) {
  std::map<std::string, int> ops;
  for (const auto& node : graph.node()) ++ops[node.op()];
  return ops;
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_TF_FREEZE_FREEZE_TEST_UTIL_H_
