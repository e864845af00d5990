// A loaded TensorFlow graph, kept in its native protobuf form so a round trip loses nothing
// (fields graphport does not know survive as unknown fields).
#ifndef GRAPHPORT_TF_TF_MODEL_H_
#define GRAPHPORT_TF_TF_MODEL_H_

#include <google/protobuf/arena.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "core/limits.h"
#include "proto/memory_budget.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tf/tf_format.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

struct TfLoadOptions {
  // "auto", or a kind name ("graph-def", "meta-graph", "saved-model") with an optional
  // "-text" / "-binary" suffix; without the suffix the encoding is detected.
  std::string format = "auto";
  // Which MetaGraphDef of a SavedModel to select, by its exact tag set (TensorFlow's rule).
  std::vector<std::string> tags = {"serve"};
  // True when the caller chose the tags; with the default ones a single MetaGraphDef is
  // selected whatever its tags, as a converter user expects.
  bool tags_explicit = false;
  // The input's name in error messages.
  std::string name = "input";
  // Why `format` was chosen, when a detector outside chose it; empty: "given by the caller".
  std::string detection_reason;
  // Memory the loaded model may take, checked as the parse grows (TOO_LARGE past it); the
  // same natively and in WebAssembly. 0 means no limit.
  uint64_t max_memory_bytes = kDefaultMaxMemoryBytes;
};

class TfModel {
 public:
  static std::unique_ptr<TfModel> Load(ByteSource* source, const TfLoadOptions& options);
  // A model that another reader builds in memory (TensorFlow.js model.json + shards): `build`
  // fills the MetaGraphDef, which lives on the model's arena. `format` says how it is exported
  // by default; `reason` and `input_bytes` are what inspect() reports.
  static std::unique_ptr<TfModel> Build(
      TfFormat format, std::string reason, uint64_t input_bytes,
      const std::function<void(google::protobuf::Arena*, tensorflow::MetaGraphDef*)>& build);

  TfFormat format() const { return format_; }
  const std::string& detection_reason() const { return detection_reason_; }
  uint64_t input_bytes() const { return input_bytes_; }

  // The root matching format().kind is set; meta_graph() is also set for a SavedModel.
  const tensorflow::SavedModel* saved_model() const { return saved_model_; }
  // The selected MetaGraphDef. While wire_graph() is set, its graph_def holds every field but
  // the nodes; graph() and root() give them.
  const tensorflow::MetaGraphDef* meta_graph() const { return meta_graph_; }
  // The parsed graph. A GraphDef kept as wire bytes (wire_graph()) is parsed on the first
  // call, and then kept parsed: what needs every node as a message pays for it once.
  const tensorflow::GraphDef& graph() const {
    if (wire_ != nullptr) Materialize();
    return meta_graph_ != nullptr ? meta_graph_->graph_def() : *graph_;
  }
  // The graph's nodes while they are still the input's bytes (a binary GraphDef, or the one
  // GraphDef of a binary MetaGraphDef or SavedModel), else null. Exports and inspect() that
  // only need node names, ops and bytes use it instead of graph(); the rest of the input is
  // parsed (the nodes' graph_def holds every field but the nodes).
  const WireGraph* wire_graph() const { return wire_.get(); }
  // Before an export writes the wire nodes: see WireGraph::RewriteCanonically (once).
  void PrepareWireGraphForExport() {
    if (wire_ != nullptr) wire_->RewriteCanonically();
  }
  // The message as read: the SavedModel, the MetaGraphDef or the GraphDef.
  const google::protobuf::MessageLite& root() const {
    if (wire_ != nullptr) Materialize();
    if (saved_model_ != nullptr) return *saved_model_;
    if (meta_graph_ != nullptr) return *meta_graph_;
    return graph();
  }
  // Index of the selected MetaGraphDef in a SavedModel, else -1.
  int selected_meta_graph() const { return selected_; }

  // Writers borrow subtrees (the GraphDef with its weights) into scratch messages instead of
  // copying them, which needs non-const access. They restore what they borrow before
  // returning; the model is never changed by an export.
  tensorflow::MetaGraphDef* mutable_meta_graph() {
    if (wire_ != nullptr) Materialize();
    return meta_graph_;
  }
  tensorflow::SavedModel* mutable_saved_model() {
    if (wire_ != nullptr) Materialize();
    return saved_model_;
  }
  tensorflow::GraphDef* mutable_graph() {  // only for a GraphDef input
    if (wire_ != nullptr) Materialize();
    return graph_;
  }

 private:
  TfModel();
  void Select(const TfLoadOptions& options);
  // Parses the wire graph's nodes into their graph and lets the bytes go.
  void Materialize() const;
  // The wire graph of a MetaGraphDef's or SavedModel's one GraphDef; everything else of
  // `held` is parsed into `root`. Null (and `held`, `root` as they were) when it cannot be.
  std::unique_ptr<WireGraph> IndexNestedGraph(std::string* held,
                                              google::protobuf::MessageLite* root,
                                              const proto::MemoryBudget* budget);

  // An arena: a graph is many small messages, and one arena frees them all at once.
  mutable google::protobuf::Arena arena_;
  TfFormat format_;
  std::string detection_reason_;
  uint64_t input_bytes_ = 0;
  tensorflow::SavedModel* saved_model_ = nullptr;
  tensorflow::MetaGraphDef* meta_graph_ = nullptr;
  // A GraphDef input; else the graph is in meta_graph_. Mutable: Materialize() fills it.
  mutable tensorflow::GraphDef* graph_ = nullptr;
  mutable std::unique_ptr<WireGraph> wire_;
  std::string name_;               // the input's name, for errors of a late parse
  uint64_t max_memory_bytes_ = 0;  // the budget of a late parse
  int selected_ = -1;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_TF_MODEL_H_
