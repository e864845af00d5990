// graphport's public C++ API: load a graph from bytes, inspect it, export it. The CLI, the
// WebAssembly bindings and the tests all go through this facade and nothing below it.
#ifndef GRAPHPORT_API_MODEL_H_
#define GRAPHPORT_API_MODEL_H_

#include <memory>
#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "core/output_set.h"

namespace graphport {

namespace tf {
class TfModel;
}

struct LoadOptions {
  // "auto" (detect), or "graph-def", "meta-graph", "saved-model", each optionally with
  // "-text" or "-binary".
  std::string format = "auto";
  // The tag set selecting a SavedModel's MetaGraphDef; empty means TensorFlow's "serve".
  std::vector<std::string> tags;
  // The input's name (usually its file name) for error messages.
  std::string name = "input";
};

// Reads LoadOptions from the JSON the JS layer sends ({"format": ..., "tags": [...],
// "name": ...}); unknown keys are an INVALID_OPTION error.
LoadOptions ParseLoadOptions(const std::string& json_text);

class Model {
 public:
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // Throws graphport::Error.
  static std::unique_ptr<Model> Load(ByteSource* source, const LoadOptions& options);

  // The summary as JSON text (see tf::Inspect for the fields).
  std::string InspectJson() const;

  // Exports with the options given as JSON (camelCase names, as in the JS API) into `out`,
  // and returns the info record as JSON text. Throws graphport::Error; on a throw, the file
  // being written was opened but not closed.
  std::string ExportJson(const std::string& options_json, OutputSet* out);

 private:
  Model();
  std::unique_ptr<tf::TfModel> tf_;
};

}  // namespace graphport

#endif  // GRAPHPORT_API_MODEL_H_
