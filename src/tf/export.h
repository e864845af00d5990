// Writes a loaded TensorFlow model as a GraphDef, MetaGraphDef or SavedModel, binary or text.
#ifndef GRAPHPORT_TF_EXPORT_H_
#define GRAPHPORT_TF_EXPORT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "core/output_set.h"
#include "tf/tf_model.h"

namespace graphport::tf {

struct TfExportOptions {
  TfKind to = TfKind::kMetaGraphDef;
  bool as_text = false;  // export_meta_graph's as_text
  std::string filename;  // export_meta_graph's filename; empty: a default per kind
};

// Default output name: model.meta / model.pbtxt, graph.pb / graph.pbtxt,
// saved_model.pb / saved_model.pbtxt (the names TensorFlow's SavedModel loader looks for).
std::string DefaultFileName(TfKind kind, bool as_text);

// Streams the export into `out` and returns the info record. Never changes `model`: subtrees
// are borrowed for the write and handed back, even when the write fails.
nlohmann::json Export(TfModel* model, const TfExportOptions& options, OutputSet* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_EXPORT_H_
