#include "tf/export.h"

#include <google/protobuf/arena.h>

#include <algorithm>

#include "core/error.h"
#include "proto/graph_arena.h"
#include "proto/proto_io.h"
#include "tensorflow/schemas.h"
#include "tf/meta_graph/export_meta_graph.h"
#include "tf/option_names.h"
#include "tf/options.h"
#include "tf/wire_write.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;

// Text output leaves unknown fields out (see WriteText); what it left out is added to
// `left_out`, for the info record.
// With `wire` set, the graph's nodes are still wire bytes (MetaGraphExport::wire_nodes): they
// are written into the GraphDef that `path` reaches.
struct WireNodes {
  const WireGraph* wire = nullptr;
  const NodePlan* plan = nullptr;
  int meta_graph_index = 0;
};

template <typename Message>
void WriteMessage(const Message& message, bool as_text, const std::string& name, OutputSet* out,
                  proto::UnknownFieldReport* left_out, const WireNodes& nodes = {}) {
  const proto::MessageSchema& type = proto::SchemaOf<Message>();
  ByteSink* sink = out->Open(name);
  if (as_text) {
    // Text's size is only known once printed: a sink that gathers the file counts it first.
    proto::UnknownFieldReport report = WriteSizeFirst(sink, [&](ByteSink* to) {
      if (nodes.wire == nullptr) return proto::WriteText(message, type, to);
      return WriteTextWithNodes(message, type, PathToGraph(type, nodes.meta_graph_index),
                                *nodes.wire, *nodes.plan, to);
    });
    left_out->count += report.count;
    for (auto& field : report.listed) {
      if (left_out->listed.size() < proto::UnknownFieldReport::kMaxListed) {
        left_out->listed.push_back(name + ": " + field);
      }
    }
  } else if (nodes.wire != nullptr) {
    WriteBinaryWithNodes(message, type, PathToGraph(type, nodes.meta_graph_index), *nodes.wire,
                         *nodes.plan, sink);
  } else {
    proto::WriteBinary(message, sink);
  }
  out->Close();
}

// A SavedModel around the exported MetaGraphDef. From a SavedModel, its other MetaGraphDefs
// are lent unchanged; the selected one is replaced by the export.
tensorflow::SavedModel* WrapInSavedModel(const TfModel& model, tensorflow::MetaGraphDef* exported,
                                         Arena* arena) {
  auto* saved_model = Arena::CreateMessage<tensorflow::SavedModel>(arena);
  const tensorflow::SavedModel* loaded = model.saved_model();
  if (loaded == nullptr) {
    saved_model->set_saved_model_schema_version(1);
    // A SavedModel loader selects by tags: a MetaGraphDef without any gets TensorFlow's
    // serving tag, or nothing could load it.
    if (exported->meta_info_def().tags_size() == 0)
      exported->mutable_meta_info_def()->add_tags("serve");
    saved_model->mutable_meta_graphs()->UnsafeArenaAddAllocated(exported);
    return saved_model;
  }
  saved_model->set_saved_model_schema_version(loaded->saved_model_schema_version());
  proto::CopyUnknownFields(*loaded, saved_model);
  for (int i = 0; i < loaded->meta_graphs_size(); ++i) {
    // The scratch arena never frees what it holds, so lending the model's messages is safe.
    auto* meta_graph = i == model.selected_meta_graph()
                           ? exported
                           : const_cast<tensorflow::MetaGraphDef*>(&loaded->meta_graphs(i));
    saved_model->mutable_meta_graphs()->UnsafeArenaAddAllocated(meta_graph);
  }
  return saved_model;
}

}  // namespace

std::string DefaultFileName(TfKind kind, bool as_text) {
  switch (kind) {
    case TfKind::kGraphDef:
      return as_text ? "graph.pbtxt" : "graph.pb";
    case TfKind::kMetaGraphDef:
      return as_text ? "model.pbtxt" : "model.meta";
    case TfKind::kSavedModel:
      return as_text ? "saved_model.pbtxt" : "saved_model.pb";
  }
  return "graph.pb";
}

nlohmann::json Export(TfModel* model, const TfExportOptions& options, OutputSet* out) {
  std::string name =
      options.filename.empty() ? DefaultFileName(options.to, options.as_text) : options.filename;
  // Everything the export builds lives here and dies with it; the model is only read.
  Arena arena(proto::GraphArenaOptions());
  model->PrepareWireGraphForExport();
  MetaGraphExport exported = BuildMetaGraph(*model, options, &arena);
  proto::UnknownFieldReport left_out;
  WireNodes nodes{exported.wire_nodes, exported.node_plan,
                  std::max(model->selected_meta_graph(), 0)};
  switch (options.to) {
    case TfKind::kGraphDef:
      WriteMessage(exported.meta_graph->graph_def(), options.as_text, name, out, &left_out, nodes);
      break;
    case TfKind::kMetaGraphDef:
      WriteMessage(*exported.meta_graph, options.as_text, name, out, &left_out, nodes);
      break;
    case TfKind::kSavedModel:
      WriteMessage(*WrapInSavedModel(*model, exported.meta_graph, &arena), options.as_text, name,
                   out, &left_out, nodes);
      break;
  }
  nlohmann::json files = nlohmann::json::array({name});
  if (exported.debug_info != nullptr) {
    std::string debug_name =
        AddedFileName(TfExportSchema().Find(option::kSaveDebugInfo)->adds_file, name);
    WriteMessage(*exported.debug_info, options.as_text, debug_name, out, &left_out);
    files.push_back(debug_name);
  }
  nlohmann::json info = exported.info;
  info["format"] = KindName(options.to);
  info["encoding"] = options.as_text ? "text" : "binary";
  info["files"] = files;
  if (options.as_text) {
    // Text cannot carry fields the schema does not know (binary output keeps them): say which
    // were dropped, so a user can choose binary instead.
    info["unknownFieldsLeftOut"] = {{"count", left_out.count}, {"fields", left_out.listed}};
  }
  return info;
}

}  // namespace graphport::tf
