// The TensorFlow serializations graphport reads and writes.
#ifndef GRAPHPORT_TF_TF_FORMAT_H_
#define GRAPHPORT_TF_TF_FORMAT_H_

#include <string>

#include "proto/schema.h"

namespace graphport::tf {

enum class TfKind { kGraphDef, kMetaGraphDef, kSavedModel };

struct TfFormat {
  TfKind kind = TfKind::kGraphDef;
  bool text = false;
};

// "graph-def", "meta-graph", "saved-model": the names the API, the CLI and inspect() use.
const char* KindName(TfKind kind);
// "GraphDef", "MetaGraphDef", "SavedModel": the message names, for error messages.
const char* MessageName(TfKind kind);
const proto::MessageSchema& KindSchema(TfKind kind);
// Parses "graph-def", "meta-graph" or "saved-model"; false if `name` is none of them.
bool ParseKindName(const std::string& name, TfKind* kind);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_TF_FORMAT_H_
