#include "tf/tf_format.h"

#include "tensorflow/schemas.h"

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

const proto::MessageSchema& KindSchema(TfKind kind) {
  switch (kind) {
    case TfKind::kGraphDef:
      return proto::SchemaOf<tensorflow::GraphDef>();
    case TfKind::kMetaGraphDef:
      return proto::SchemaOf<tensorflow::MetaGraphDef>();
    case TfKind::kSavedModel:
      return proto::SchemaOf<tensorflow::SavedModel>();
  }
  return proto::SchemaOf<tensorflow::GraphDef>();
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
