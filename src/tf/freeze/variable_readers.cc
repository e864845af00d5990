#include "tf/freeze/variable_readers.h"

#include <algorithm>

#include "core/error.h"
#include "tf/freeze/prune.h"
#include "tf/freeze/signature_graph.h"
#include "tf/freeze/variable_values.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {
namespace {

// The checkpoint as far as keys go: the freeze's lookups run on it, and no data file is read.
class KeysOnly : public VariableStore {
 public:
  explicit KeysOnly(VariableStore* store) : store_(*store) {}
  bool Has(const std::string& key) override { return store_.Has(key); }
  void Read(const std::string&, tensorflow::TensorProto*) override {}
  bool ReadObjectGraph(tensorflow::TrackableObjectGraph* out) override {
    if (!objects_read_) {
      has_objects_ = store_.ReadObjectGraph(&objects_);
      objects_read_ = true;
    }
    if (has_objects_) *out = objects_;
    return has_objects_;
  }
  std::string label() const override { return store_.label(); }

 private:
  VariableStore& store_;
  bool objects_read_ = false;
  bool has_objects_ = false;
  tensorflow::TrackableObjectGraph objects_;  // read once for every signature
};

}  // namespace

std::map<std::string, std::vector<VariableReader>> VariableReaders(
    const tensorflow::MetaGraphDef& meta_graph, const tensorflow::GraphDef& graph,
    VariableStore* store) {
  OpRegistry registry;
  registry.AddLayer(&meta_graph.meta_info_def().stripped_op_list(), "the model's stripped_op_list",
                    true);
  KeysOnly keys(store);
  std::map<std::string, std::vector<VariableReader>> readers;
  std::vector<std::string> signatures;  // in key order (a map's own order is unspecified)
  for (const auto& [signature, def] : meta_graph.signature_def()) {
    // __saved_model_init_op and the like are no signatures a person exports.
    if (signature.rfind("__", 0) != 0) signatures.push_back(signature);
  }
  std::sort(signatures.begin(), signatures.end());
  for (const std::string& signature : signatures) {
    std::map<std::string, VariableValue> values;
    try {
      SignatureGraph start = BuildSignatureGraph(meta_graph, graph, signature, registry);
      if (!start.function.empty()) {
        values = CapturedValues(start, meta_graph, graph, &keys);
      } else {
        std::vector<std::string> fetches;
        for (const auto& [key, info] : start.outputs) fetches.push_back(info.name());
        PruneToOutputs(&start.graph, fetches);
        values = GraphVariableValues(start.graph, graph, &keys);
      }
    } catch (const Error&) {
      continue;
    }
    for (const auto& [node, value] : values) {
      if (!value.key.empty()) readers[value.key].push_back({signature, node});
    }
  }
  return readers;
}

}  // namespace graphport::tf
