#include "tf/export.h"

#include "core/error.h"
#include "tf/proto_io.h"

namespace graphport::tf {
namespace {

// Lends `graph` to `holder` as its graph_def for the lifetime of this object; the holder
// never owns it. The scratch messages around a graph are small, the graph is not: borrowing
// it keeps one copy of the weights in memory however the model is exported.
class BorrowedGraph {
 public:
  BorrowedGraph(tensorflow::MetaGraphDef* holder, tensorflow::GraphDef* graph) : holder_(holder) {
    if (graph != nullptr) holder_->unsafe_arena_set_allocated_graph_def(graph);
  }
  ~BorrowedGraph() { holder_->unsafe_arena_release_graph_def(); }
  BorrowedGraph(const BorrowedGraph&) = delete;
  BorrowedGraph& operator=(const BorrowedGraph&) = delete;

 private:
  tensorflow::MetaGraphDef* holder_;
};

// Same for one MetaGraphDef lent as the only entry of a SavedModel.
class BorrowedMetaGraph {
 public:
  BorrowedMetaGraph(tensorflow::SavedModel* holder, tensorflow::MetaGraphDef* meta_graph)
      : holder_(holder) {
    holder_->mutable_meta_graphs()->UnsafeArenaAddAllocated(meta_graph);
  }
  ~BorrowedMetaGraph() { holder_->mutable_meta_graphs()->UnsafeArenaReleaseLast(); }
  BorrowedMetaGraph(const BorrowedMetaGraph&) = delete;
  BorrowedMetaGraph& operator=(const BorrowedMetaGraph&) = delete;

 private:
  tensorflow::SavedModel* holder_;
};

void WriteMessage(const google::protobuf::Message& message, bool as_text, const std::string& name,
                  OutputSet* out) {
  ByteSink* sink = out->Open(name);
  if (as_text) {
    WriteText(message, sink);
  } else {
    WriteBinary(message, sink);
  }
  out->Close();
}

// The MetaGraphDef of a GraphDef-only input: the graph and nothing else, as TensorFlow's
// export_meta_graph(graph_def=...) gives before options apply.
void WriteGraphAsMetaGraph(TfModel* model, const TfExportOptions& options, const std::string& name,
                           OutputSet* out, bool as_saved_model) {
  tensorflow::MetaGraphDef meta_graph;
  BorrowedGraph borrowed(&meta_graph, model->mutable_graph());
  if (!as_saved_model) {
    WriteMessage(meta_graph, options.as_text, name, out);
    return;
  }
  // A SavedModel loader selects by tags, so a lone graph gets TensorFlow's serving tag.
  meta_graph.mutable_meta_info_def()->add_tags("serve");
  tensorflow::SavedModel saved_model;
  saved_model.set_saved_model_schema_version(1);
  BorrowedMetaGraph lent(&saved_model, &meta_graph);
  WriteMessage(saved_model, options.as_text, name, out);
}

}  // namespace

std::string DefaultFileName(TfKind kind, bool as_text) {
  switch (kind) {
    case TfKind::kGraphDef: return as_text ? "graph.pbtxt" : "graph.pb";
    case TfKind::kMetaGraphDef: return as_text ? "model.pbtxt" : "model.meta";
    case TfKind::kSavedModel: return as_text ? "saved_model.pbtxt" : "saved_model.pb";
  }
  return "graph.pb";
}

nlohmann::json Export(TfModel* model, const TfExportOptions& options, OutputSet* out) {
  std::string name = options.filename.empty() ? DefaultFileName(options.to, options.as_text)
                                              : options.filename;
  TfKind from = model->format().kind;
  switch (options.to) {
    case TfKind::kGraphDef:
      WriteMessage(model->graph(), options.as_text, name, out);
      break;
    case TfKind::kMetaGraphDef:
      if (from == TfKind::kGraphDef) {
        WriteGraphAsMetaGraph(model, options, name, out, /*as_saved_model=*/false);
      } else {
        WriteMessage(*model->meta_graph(), options.as_text, name, out);
      }
      break;
    case TfKind::kSavedModel:
      if (from == TfKind::kSavedModel) {
        WriteMessage(*model->saved_model(), options.as_text, name, out);
      } else if (from == TfKind::kMetaGraphDef) {
        tensorflow::SavedModel saved_model;
        saved_model.set_saved_model_schema_version(1);
        BorrowedMetaGraph lent(&saved_model, model->mutable_meta_graph());
        WriteMessage(saved_model, options.as_text, name, out);
      } else {
        WriteGraphAsMetaGraph(model, options, name, out, /*as_saved_model=*/true);
      }
      break;
  }
  nlohmann::json info;
  info["format"] = KindName(options.to);
  info["encoding"] = options.as_text ? "text" : "binary";
  info["nodeCount"] = model->graph().node_size();
  return info;
}

}  // namespace graphport::tf
