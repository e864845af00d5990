// graphport's public C++ API: load a model from an input set, inspect it, export it. The CLI,
// the WebAssembly bindings and the tests all go through this facade, which asks the families
// of api/families.h and names none of them.
#ifndef GRAPHPORT_API_MODEL_H_
#define GRAPHPORT_API_MODEL_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "core/family.h"
#include "core/input_set.h"
#include "core/output_set.h"

namespace graphport {

// The load options every family takes; each family adds its own (api/load_options.h).
struct LoadOptions {
  // "auto" (detect), or one of a family's formats ("graph-def-text", ...).
  std::string format = "auto";
  // The tag set selecting a SavedModel's MetaGraphDef; empty means TensorFlow's "serve".
  std::vector<std::string> tags;
  // The input's name (usually its file name) for error messages.
  std::string name = "input";
  nlohmann::json ToJson() const;
};

class Model {
 public:
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // Detects the family and format of `inputs` and reads them. `options` is a JSON object of
  // load options (api/load_options.h). The model keeps `inputs`: a SavedModel export reads its
  // variables from there. Throws graphport::Error.
  static std::unique_ptr<Model> Load(std::unique_ptr<InputSet> inputs,
                                     const nlohmann::json& options);
  // One byte source, read during Load only; `options.name` names it.
  static std::unique_ptr<Model> Load(ByteSource* source, const LoadOptions& options);

  const Family& family() const { return *family_; }

  // The summary as JSON text (FamilyModel::Inspect), and as a value.
  std::string InspectJson() const;
  nlohmann::json Inspect() const;

  // Exports with the options given as JSON (the family's export schema, camelCase names as in
  // the JS API) into `out`, and returns the info record as JSON text. Throws graphport::Error;
  // on a throw, the file being written was opened but not closed.
  std::string ExportJson(const std::string& options_json, OutputSet* out);
  // The same with the options and the info as values, as the CLI and the WebAssembly binding
  // hold them: a bytes option is a binary value (nlohmann::json::binary), never base64 text.
  nlohmann::json Export(const nlohmann::json& options, OutputSet* out);
  // What an export with these options would run (freeze, optimize, unfuse, its writer),
  // checked against the runtime it is written for; nothing is kept. The options
  // are the export's, plus `target`: "tfjs" (to: 'tfjs') or "tensorflow" (to: any TensorFlow
  // format, the export's default unless given); neither target nor to: "tfjs". Returns the
  // report as JSON text: {target, to, runtime, runs, ops, nodes, unsupportedOps: [{op, count,
  // nodes, hint}], exportFails, frozen?, unfusedOps?, quantization?}. Throws graphport::Error
  // as the export would (kUnsupported for a family whose outputs no target runs).
  std::string CheckJson(const std::string& options_json);
  nlohmann::json Check(nlohmann::json options);
  // One level of the model's graph for a viewer (core/graph_level.h), as JSON text. Options:
  // {group: "" (the top) or a group's name, limit: most children (default 2000)}. Throws
  // kUnsupported for a family with no graph, kNotFound for a group with no node,
  // kInvalidOption for bad options.
  std::string GraphJson(const std::string& options_json);
  // The details of the node named `name` for a viewer's panel (GraphSource::NodeDetails) plus
  // `consumers`: the names of the nodes that take one of its outputs (at most 100, then
  // `moreConsumers`). Throws kNotFound naming the node.
  std::string NodeJson(const std::string& name);

  // The nodes whose name or op holds `query` (ignoring ASCII case), in graph order. Options:
  // {query, limit: most matches listed (default 50)}. Returns {query, total, matches:
  // [{name, op}]} as JSON text.
  std::string GraphSearchJson(const std::string& options_json);

  // A page of a long summary list (core/summary_pages.h): options {list, offset, limit
  // (default 100), filter (any case)}. Throws kInvalidOption for bad options or a list the
  // model does not page.
  std::string SummaryPageJson(const std::string& options_json) const;
  // The export preview: what an export with these options (the export's, as JSON) would drop,
  // change and add, node by node, with which option did what; nothing is written. The export
  // runs into memory, its output is read back and compared with the model's graph
  // (core/export_preview.h). Returns {nodes: {before, after}, dropped, changed, added,
  // options: [{option, label, text, kept?, dropped, changed, added, ...}], files} as JSON text.
  // Throws graphport::Error as the export would, and kUnsupported for a family with no graph.
  std::string PreviewJson(const std::string& options_json);
  nlohmann::json Preview(const nlohmann::json& options);

  // True when these export options write a folder (the CLI's -o then names the folder).
  bool ExportWritesFolder(const std::string& options_json) const;
  bool WritesFolder(const nlohmann::json& options) const;

 private:
  Model() = default;
  std::unique_ptr<InputSet> inputs_;
  nlohmann::json load_options_;  // as given to Load: the preview reads its output back so
  const Family* family_ = nullptr;
  std::unique_ptr<FamilyModel> model_;
};

}  // namespace graphport

#endif  // GRAPHPORT_API_MODEL_H_
