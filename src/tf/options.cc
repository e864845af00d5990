#include "tf/options.h"

#include "core/error.h"
#include "core/limits.h"
#include "tensorflow/schemas.h"
#include "tf/message_option.h"
#include "tf/option_names.h"
#include "tf/tf_format.h"

namespace graphport::tf {
namespace {

using nlohmann::json;

OptionSpec Bool(std::string name, std::string seed, std::string group, std::string label,
                std::string help) {
  return MakeOption(std::move(name), std::move(seed), OptionType::kBool, false, std::move(group),
                    std::move(label), std::move(help));
}

// A protobuf message given as bytes (binary, text or JSON); on the CLI, a file to read.
OptionSpec Message(std::string name, std::string seed, std::string group, std::string label,
                   std::string help) {
  OptionSpec spec = MakeOption(std::move(name), std::move(seed), OptionType::kMessage, nullptr,
                               std::move(group), std::move(label), std::move(help));
  spec.metavar = "FILE";
  spec.cli_value = CliValue::kFile;
  return spec;
}

OptionSchema MakeExportSchema() {
  OptionSchema s;
  s.family = "tensorflow";
  s.title = "TensorFlow";
  s.api = "tf.train.export_meta_graph";
  s.groups = {{"output", "Output"},
              {"freeze", "Freeze"},
              {"graph", "Graph"},
              {"content", "Content"},
              {"debug", "Debug info"}};
  auto& o = s.options;

  OptionSpec to = MakeOption(
      option::kTo, "", OptionType::kChoice, "meta-graph", "output", "Write as",
      "The kind of file to write. export_meta_graph writes a MetaGraphDef; a GraphDef holds only "
      "the graph; a SavedModel wraps the MetaGraphDef, with the variables and assets of a "
      "SavedModel folder passed through.");
  to.choices = {"meta-graph", "graph-def", "saved-model"};
  to.metavar = "KIND";
  o.push_back(to);

  o.push_back(Bool(option::kAsText, "as_text", "output", "Text format",
                   "Write protobuf text format (readable, larger) instead of binary."));

  OptionSpec filename = MakeOption(
      option::kFilename, "filename", OptionType::kString, nullptr, "output", "File name",
      "Name of the main output file (on the CLI, -o sets it). Empty: model.meta / model.pbtxt, "
      "graph.pb / graph.pbtxt, or saved_model.pb / saved_model.pbtxt.");
  filename.cli = "";
  filename.file_name = true;
  // The names the export gives, published so that the page names the files it will write.
  for (TfKind kind : {TfKind::kMetaGraphDef, TfKind::kGraphDef, TfKind::kSavedModel}) {
    for (bool as_text : {false, true}) {
      filename.derived_defaults.push_back(
          {{{option::kTo, {KindName(kind)}}, {option::kAsText, {as_text}}},
           DefaultFileName(kind, as_text)});
    }
  }
  o.push_back(filename);

  // No default: unset, an export to tfjs freezes when it must.
  o.push_back(MakeOption(
      option::kFreeze, "", OptionType::kBool, nullptr, "freeze", "Freeze",
      "Freeze one signature of a SavedModel into a graph that runs on its own, as "
      "tfjs-converter does: its function and every call inlined, variables replaced by "
      "constants holding their checkpoint values (variables/), pruned to the signature's "
      "outputs. Unset: on for to: 'tfjs' when the graph has variables or function calls, off "
      "otherwise."));
  OptionSpec signature = MakeOption(
      option::kSignature, "", OptionType::kString, "serving_default", "freeze", "Signature",
      "The SavedModel signature a freeze keeps (tfjs-converter's --signature_name): its "
      "inputs become the graph's inputs and its outputs the graph's outputs.");
  signature.metavar = "KEY";
  o.push_back(signature);
  o.push_back(MakeOption(
      option::kOptimize, "", OptionType::kBool, true, "freeze", "Optimize for TF.js",
      "When a freeze writes TF.js, apply tfjs-converter's graph optimizations: Identity and "
      "NoOp nodes removed, batch norms folded into the convolution before them, Conv2D, "
      "MatMul and DepthwiseConv2dNative fused with their bias and activation as TF.js runs "
      "them, Prelu fused. Off (--no-optimize): the frozen graph as it is. Other outputs are "
      "written frozen without these TF.js-only fusions."));

  OptionSpec scope = MakeOption(
      option::kExportScope, "export_scope", OptionType::kString, nullptr, "graph", "Export scope",
      "Export only the nodes under this name scope, with the scope removed from their names. "
      "Inputs from outside become $unbound_inputs_... and are listed in the unbound_inputs "
      "collection.");
  scope.metavar = "S";
  o.push_back(scope);
  o.push_back(Bool(option::kClearDevices, "clear_devices", "graph", "Clear devices",
                   "Empty the device (e.g. /device:GPU:0) of every top-level node, so the graph "
                   "can be placed anywhere when it is imported."));
  o.push_back(Bool(option::kClearExtraneousSavers, "clear_extraneous_savers", "graph",
                   "Clear extraneous savers",
                   "Drop the save/restore subgraphs of every saver other than the exported "
                   "SaverDef's, and rewrite the savers collection."));
  o.push_back(Bool(option::kStripDefaultAttrs, "strip_default_attrs", "graph",
                   "Strip default attrs",
                   "Drop every attr whose value equals its op's default, in nodes and function "
                   "bodies: smaller files that older TensorFlow versions can read."));
  o.push_back(Message(option::kOpRegistry, "", "graph", "Op registry",
                      "An OpList (TensorFlow's ops.pbtxt, say; text, binary or JSON) consulted "
                      "first for op definitions and attr defaults, by strip_default_attrs and "
                      "stripped_op_list, and by the freeze for the outputs of ops in function "
                      "bodies."));

  OptionSpec collections = MakeOption(
      option::kCollectionList, "collection_list", OptionType::kStringList, nullptr, "content",
      "Collections",
      "The collections to export: all of them by default; an empty list (\"\" on the CLI) "
      "exports none.");
  collections.metavar = "A,B";
  o.push_back(collections);
  o.push_back(Message(option::kMetaInfoDef, "meta_info_def", "content", "MetaInfoDef",
                      "A MetaInfoDef whose set fields replace the loaded ones (tags, "
                      "tensorflow_version, ...); the fields it leaves unset keep their loaded "
                      "values."));
  o.push_back(Message(option::kSaverDef, "saver_def", "content", "SaverDef",
                      "The SaverDef to export instead of the loaded one; clear_extraneous_savers "
                      "keeps its saver."));
  o.push_back(Message(option::kGraphDef, "graph_def", "content", "GraphDef",
                      "A GraphDef to export instead of the loaded graph."));
  OptionSpec debug = Bool(option::kSaveDebugInfo, "save_debug_info", "debug", "Save debug info",
                          "Also write the GraphDebugInfo (stack traces) of the exported nodes "
                          "to a second file, named with _debug before the extension.");
  // The seed document's rule ("model.meta" -> "model_debug.meta"; TensorFlow's code writes
  // "<stem>.debug" against its own documentation, and graphport follows the documentation).
  // The export names the file by this pattern (tf/export.cc), the page lists it the same way.
  debug.adds_file = "{stem}_debug{ext}";
  o.push_back(debug);
  return s;
}

OptionSchema MakeLoadSchema() {
  OptionSchema s;
  s.family = "tensorflow";
  s.title = "TensorFlow";
  s.api = "tf.saved_model.load";
  s.groups = {{"input", "Input"}};
  OptionSpec tags = MakeOption(
      option::kTags, "tags", OptionType::kStringList, nullptr, "input", "SavedModel tags",
      "The tag set of the SavedModel MetaGraphDef to use. Default: serve; a SavedModel with a "
      "single MetaGraphDef is used whatever its tags.");
  tags.metavar = "T1,T2";
  s.options.push_back(tags);
  OptionSpec budget = MakeOption(
      option::kMaxMemoryBytes, "", OptionType::kInt, kDefaultMaxMemoryBytes, "input",
      "Memory budget",
      "The most memory the loaded graph may take, checked as it is parsed: a graph that would "
      "take more is refused as TOO_LARGE before it exhausts the machine. 0: no limit.");
  budget.metavar = "N";
  s.options.push_back(budget);
  return s;
}

}  // namespace

const OptionSchema& TfLoadSchema() {
  static const OptionSchema* schema = new OptionSchema(MakeLoadSchema());
  return *schema;
}

const OptionSchema& TfExportSchema() {
  static const OptionSchema* schema = new OptionSchema(MakeExportSchema());
  return *schema;
}

void ReadTfLoadOptions(const OptionValues& values, TfLoadOptions* options) {
  // An empty list is no choice: TensorFlow's "serve", or the only MetaGraphDef there is.
  std::vector<std::string> tags = values.StringList(option::kTags);
  if (!tags.empty()) {
    options->tags = std::move(tags);
    options->tags_explicit = true;
  }
  int64_t budget = values.Int(option::kMaxMemoryBytes);
  if (budget < 0) {
    throw Error(ErrorCode::kInvalidOption, "load option 'maxMemoryBytes' must be 0 or more",
                ErrorLocation::OfOption(option::kMaxMemoryBytes));
  }
  options->max_memory_bytes = static_cast<uint64_t>(budget);
}

TfExportOptions ReadTfExportOptions(const OptionValues& values, TfMessageOptions* messages) {
  TfExportOptions options;
  ParseKindName(values.String(option::kTo), &options.to);
  options.as_text = values.Bool(option::kAsText);
  options.filename = values.String(option::kFilename);
  options.export_scope = values.String(option::kExportScope);
  options.clear_devices = values.Bool(option::kClearDevices);
  options.clear_extraneous_savers = values.Bool(option::kClearExtraneousSavers);
  options.strip_default_attrs = values.Bool(option::kStripDefaultAttrs);
  options.save_debug_info = values.Bool(option::kSaveDebugInfo);
  if (values.Has(option::kCollectionList))
    options.collection_list = values.StringList(option::kCollectionList);
  if (values.Has(option::kMetaInfoDef)) {
    ParseProtoOption(option::kMetaInfoDef, values.Raw(option::kMetaInfoDef),
                     &messages->meta_info_def);
    options.meta_info_def = &messages->meta_info_def;
  }
  if (values.Has(option::kGraphDef)) {
    ParseProtoOption(option::kGraphDef, values.Raw(option::kGraphDef), &messages->graph_def);
    options.graph_def = &messages->graph_def;
  }
  if (values.Has(option::kSaverDef)) {
    ParseProtoOption(option::kSaverDef, values.Raw(option::kSaverDef), &messages->saver_def);
    options.saver_def = &messages->saver_def;
  }
  if (values.Has(option::kOpRegistry)) {
    ParseProtoOption(option::kOpRegistry, values.Raw(option::kOpRegistry), &messages->op_registry);
    options.op_registry = &messages->op_registry;
  }
  return options;
}

}  // namespace graphport::tf
