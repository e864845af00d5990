#include "tf/options.h"

#include "core/error.h"
#include "core/limits.h"
#include "tensorflow/schemas.h"
#include "tf/message_option.h"
#include "tf/tf_format.h"

namespace graphport::tf {
namespace {

using nlohmann::json;

OptionSpec Bool(std::string name, std::string cli, std::string seed, std::string group,
                std::string label, std::string help) {
  OptionSpec spec;
  spec.name = std::move(name);
  spec.cli = std::move(cli);
  spec.seed = std::move(seed);
  spec.type = OptionType::kBool;
  spec.default_value = false;
  spec.group = std::move(group);
  spec.label = std::move(label);
  spec.help = std::move(help);
  return spec;
}

OptionSpec Message(std::string name, std::string cli, std::string seed, std::string group,
                   std::string label, std::string help) {
  OptionSpec spec;
  spec.name = std::move(name);
  spec.cli = std::move(cli);
  spec.seed = std::move(seed);
  spec.type = OptionType::kMessage;
  spec.group = std::move(group);
  spec.label = std::move(label);
  spec.help = std::move(help);
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

  OptionSpec to;
  to.name = "to";
  to.cli = "to";
  to.type = OptionType::kChoice;
  to.default_value = "meta-graph";
  to.choices = {"meta-graph", "graph-def", "saved-model"};
  to.group = "output";
  to.label = "Write as";
  to.metavar = "KIND";
  to.help =
      "The kind of file to write. export_meta_graph writes a MetaGraphDef; a GraphDef holds only "
      "the graph; a SavedModel wraps the MetaGraphDef, with the variables and assets of a "
      "SavedModel folder passed through.";
  s.options.push_back(to);

  s.options.push_back(Bool("asText", "as-text", "as_text", "output", "Text format",
                           "Write protobuf text format (readable, larger) instead of binary."));

  OptionSpec filename;
  filename.name = "filename";
  filename.seed = "filename";
  filename.type = OptionType::kString;
  filename.group = "output";
  filename.label = "File name";
  filename.file_name = true;
  filename.help =
      "Name of the main output file (on the CLI, -o sets it). Empty: model.meta / model.pbtxt, "
      "graph.pb / graph.pbtxt, or saved_model.pb / saved_model.pbtxt.";
  // The names the export gives, published so that the page names the files it will write.
  for (TfKind kind : {TfKind::kMetaGraphDef, TfKind::kGraphDef, TfKind::kSavedModel}) {
    for (bool as_text : {false, true}) {
      filename.derived_defaults.push_back(
          {{{"to", {KindName(kind)}}, {"asText", {as_text}}}, DefaultFileName(kind, as_text)});
    }
  }
  s.options.push_back(filename);

  OptionSpec freeze;
  freeze.name = "freeze";
  freeze.cli = "freeze";
  freeze.type = OptionType::kBool;  // no default: unset, an export to tfjs freezes when it must
  freeze.group = "freeze";
  freeze.label = "Freeze";
  freeze.help =
      "Freeze one signature of a SavedModel into a graph that runs on its own, as "
      "tfjs-converter does: its function and every call inlined, variables replaced by "
      "constants holding their checkpoint values (variables/), pruned to the signature's "
      "outputs. Unset: on for to: 'tfjs' when the graph has variables or function calls, off "
      "otherwise.";
  s.options.push_back(freeze);

  OptionSpec signature;
  signature.name = "signature";
  signature.cli = "signature";
  signature.type = OptionType::kString;
  signature.default_value = "serving_default";
  signature.group = "freeze";
  signature.label = "Signature";
  signature.metavar = "KEY";
  signature.help =
      "The SavedModel signature a freeze keeps (tfjs-converter's --signature_name): its "
      "inputs become the graph's inputs and its outputs the graph's outputs.";
  s.options.push_back(signature);

  OptionSpec optimize;
  optimize.name = "optimize";
  optimize.cli = "optimize";
  optimize.type = OptionType::kBool;
  optimize.default_value = true;
  optimize.group = "freeze";
  optimize.label = "Optimize for TF.js";
  optimize.help =
      "When a freeze writes TF.js, apply tfjs-converter's graph optimizations: Identity and "
      "NoOp nodes removed, batch norms folded into the convolution before them, Conv2D, "
      "MatMul and DepthwiseConv2dNative fused with their bias and activation as TF.js runs "
      "them, Prelu fused. Off (--no-optimize): the frozen graph as it is. Other outputs are "
      "written frozen without these TF.js-only fusions.";
  s.options.push_back(optimize);

  OptionSpec scope;
  scope.name = "exportScope";
  scope.cli = "export-scope";
  scope.seed = "export_scope";
  scope.type = OptionType::kString;
  scope.group = "graph";
  scope.label = "Export scope";
  scope.metavar = "S";
  scope.help =
      "Export only the nodes under this name scope, with the scope removed from their names. "
      "Inputs from outside become $unbound_inputs_... and are listed in the unbound_inputs "
      "collection.";
  s.options.push_back(scope);

  s.options.push_back(Bool("clearDevices", "clear-devices", "clear_devices", "graph",
                           "Clear devices",
                           "Empty the device (e.g. /device:GPU:0) of every top-level node, so "
                           "the graph can be placed anywhere when it is imported."));
  s.options.push_back(Bool("clearExtraneousSavers", "clear-extraneous-savers",
                           "clear_extraneous_savers", "graph", "Clear extraneous savers",
                           "Drop the save/restore subgraphs of every saver other than the "
                           "exported SaverDef's, and rewrite the savers collection."));
  s.options.push_back(Bool("stripDefaultAttrs", "strip-default-attrs", "strip_default_attrs",
                           "graph", "Strip default attrs",
                           "Drop every attr whose value equals its op's default, in nodes and "
                           "function bodies: smaller files that older TensorFlow versions can "
                           "read."));
  s.options.push_back(Message("opRegistry", "op-registry", "", "graph", "Op registry",
                              "An OpList (TensorFlow's ops.pbtxt, say; text, binary or JSON) "
                              "consulted first for op definitions and attr defaults, by "
                              "strip_default_attrs and stripped_op_list, and by the freeze "
                              "for the outputs of ops in function bodies."));

  OptionSpec collections;
  collections.name = "collectionList";
  collections.cli = "collection-list";
  collections.seed = "collection_list";
  collections.type = OptionType::kStringList;
  collections.group = "content";
  collections.label = "Collections";
  collections.metavar = "A,B";
  collections.help =
      "The collections to export: all of them by default; an empty list (\"\" on the CLI) "
      "exports none.";
  s.options.push_back(collections);

  s.options.push_back(Message("metaInfoDef", "meta-info-def", "meta_info_def", "content",
                              "MetaInfoDef",
                              "A MetaInfoDef whose set fields replace the loaded ones (tags, "
                              "tensorflow_version, ...); the fields it leaves unset keep their "
                              "loaded values."));
  s.options.push_back(Message("saverDef", "saver-def", "saver_def", "content", "SaverDef",
                              "The SaverDef to export instead of the loaded one; "
                              "clear_extraneous_savers keeps its saver."));
  s.options.push_back(Message("graphDef", "graph-def", "graph_def", "content", "GraphDef",
                              "A GraphDef to export instead of the loaded graph."));
  OptionSpec debug =
      Bool("saveDebugInfo", "save-debug-info", "save_debug_info", "debug", "Save debug info",
           "Also write the GraphDebugInfo (stack traces) of the exported nodes "
           "to a second file, named with _debug before the extension.");
  // The seed document's rule ("model.meta" -> "model_debug.meta"; TensorFlow's code writes
  // "<stem>.debug" against its own documentation, and graphport follows the documentation).
  // The export names the file by this pattern (tf/export.cc), the page lists it the same way.
  debug.adds_file = "{stem}_debug{ext}";
  s.options.push_back(debug);
  return s;
}

OptionSchema MakeLoadSchema() {
  OptionSchema s;
  s.family = "tensorflow";
  s.title = "TensorFlow";
  s.api = "tf.saved_model.load";
  s.groups = {{"input", "Input"}};
  OptionSpec tags;
  tags.name = "tags";
  tags.cli = "tags";
  tags.seed = "tags";
  tags.type = OptionType::kStringList;
  tags.group = "input";
  tags.label = "SavedModel tags";
  tags.metavar = "T1,T2";
  tags.help =
      "The tag set of the SavedModel MetaGraphDef to use. Default: serve; a SavedModel with a "
      "single MetaGraphDef is used whatever its tags.";
  s.options.push_back(tags);

  OptionSpec budget;
  budget.name = "maxMemoryBytes";
  budget.cli = "max-memory-bytes";
  budget.type = OptionType::kInt;
  budget.default_value = kDefaultMaxMemoryBytes;
  budget.group = "input";
  budget.label = "Memory budget";
  budget.metavar = "N";
  budget.help =
      "The most memory the loaded graph may take, checked as it is parsed: a graph that would "
      "take more is refused as TOO_LARGE before it exhausts the machine. 0: no limit.";
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
  std::vector<std::string> tags = values.StringList("tags");
  if (!tags.empty()) {
    options->tags = std::move(tags);
    options->tags_explicit = true;
  }
  int64_t budget = values.Int("maxMemoryBytes");
  if (budget < 0) {
    throw Error(ErrorCode::kInvalidOption, "load option 'maxMemoryBytes' must be 0 or more",
                ErrorLocation::OfOption("maxMemoryBytes"));
  }
  options->max_memory_bytes = static_cast<uint64_t>(budget);
}

TfExportOptions ReadTfExportOptions(const OptionValues& values, TfMessageOptions* messages) {
  TfExportOptions options;
  ParseKindName(values.String("to"), &options.to);
  options.as_text = values.Bool("asText");
  options.filename = values.String("filename");
  options.export_scope = values.String("exportScope");
  options.clear_devices = values.Bool("clearDevices");
  options.clear_extraneous_savers = values.Bool("clearExtraneousSavers");
  options.strip_default_attrs = values.Bool("stripDefaultAttrs");
  options.save_debug_info = values.Bool("saveDebugInfo");
  if (values.Has("collectionList")) options.collection_list = values.StringList("collectionList");
  if (values.Has("metaInfoDef")) {
    ParseProtoOption("metaInfoDef", values.Raw("metaInfoDef"), &messages->meta_info_def);
    options.meta_info_def = &messages->meta_info_def;
  }
  if (values.Has("graphDef")) {
    ParseProtoOption("graphDef", values.Raw("graphDef"), &messages->graph_def);
    options.graph_def = &messages->graph_def;
  }
  if (values.Has("saverDef")) {
    ParseProtoOption("saverDef", values.Raw("saverDef"), &messages->saver_def);
    options.saver_def = &messages->saver_def;
  }
  if (values.Has("opRegistry")) {
    ParseProtoOption("opRegistry", values.Raw("opRegistry"), &messages->op_registry);
    options.op_registry = &messages->op_registry;
  }
  return options;
}

}  // namespace graphport::tf
