// Writes a loaded TensorFlow model as a MetaGraphDef, GraphDef or SavedModel, binary or text,
// after the options of tf.train.export_meta_graph.
#ifndef GRAPHPORT_TF_EXPORT_H_
#define GRAPHPORT_TF_EXPORT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/limits.h"
#include "core/output_set.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/op_def.pb.h"
#include "tensorflow/saver.pb.h"
#include "tf/tf_model.h"

namespace graphport::tf {

// Each field is the export_meta_graph argument of the same name (see README). The messages
// are the caller's and must outlive the export.
struct TfExportOptions {
  TfKind to = TfKind::kMetaGraphDef;
  bool as_text = false;
  std::string filename;  // empty: a default per kind

  const tensorflow::MetaGraphDef::MetaInfoDef* meta_info_def = nullptr;
  const tensorflow::GraphDef* graph_def = nullptr;  // exported instead of the loaded graph
  const tensorflow::SaverDef* saver_def = nullptr;
  std::optional<std::vector<std::string>> collection_list;  // nullopt: all; empty: none
  std::string export_scope;
  bool clear_devices = false;
  bool clear_extraneous_savers = false;
  bool strip_default_attrs = false;
  bool save_debug_info = false;
  // First layer of the op registry (strip_default_attrs, stripped_op_list).
  const tensorflow::OpList* op_registry = nullptr;
  // TensorFlow's "GraphDef cannot be larger than 2GB"; tests lower it.
  uint64_t max_graph_bytes = kMaxProtoBytes;
};

// Default output name: model.meta / model.pbtxt, graph.pb / graph.pbtxt,
// saved_model.pb / saved_model.pbtxt (the names TensorFlow's SavedModel loader looks for).
std::string DefaultFileName(TfKind kind, bool as_text);

// Streams the export into `out` and returns the info record. Never changes `model`: its
// weights are lent to the output, not copied, and stay where they are.
nlohmann::json Export(TfModel* model, const TfExportOptions& options, OutputSet* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_EXPORT_H_
