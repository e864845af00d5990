#include "tf/tf_format.h"

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saved_model.pb.h"

namespace graphport::tf {

const char* KindName(TfKind kind) {
  switch (kind) {
    case TfKind::kGraphDef:
      return "graph-def";
    case TfKind::kMetaGraphDef:
      return "meta-graph";
    case TfKind::kSavedModel:
      return "saved-model";
  }
  return "graph-def";
}

const char* MessageName(TfKind kind) {
  switch (kind) {
    case TfKind::kGraphDef:
      return "GraphDef";
    case TfKind::kMetaGraphDef:
      return "MetaGraphDef";
    case TfKind::kSavedModel:
      return "SavedModel";
  }
  return "GraphDef";
}

const google::protobuf::Descriptor* KindDescriptor(TfKind kind) {
  switch (kind) {
    case TfKind::kGraphDef:
      return tensorflow::GraphDef::descriptor();
    case TfKind::kMetaGraphDef:
      return tensorflow::MetaGraphDef::descriptor();
    case TfKind::kSavedModel:
      return tensorflow::SavedModel::descriptor();
  }
  return tensorflow::GraphDef::descriptor();
}

bool ParseKindName(const std::string& name, TfKind* kind) {
  for (TfKind k : {TfKind::kGraphDef, TfKind::kMetaGraphDef, TfKind::kSavedModel}) {
    if (name == KindName(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

}  // namespace graphport::tf
