#include "tfjs/family.h"

#include <google/protobuf/arena.h>

#include <memory>
#include <set>

#include "core/check_output_set.h"
#include "core/error.h"
#include "proto/graph_arena.h"
#include "tf/export.h"
#include "tf/family.h"
#include "tf/meta_graph/export_meta_graph.h"
#include "tf/meta_graph/export_nodes.h"
#include "tf/meta_graph/graph_nodes.h"
#include "tf/option_names.h"
#include "tf/options.h"
#include "tf/summary_text.h"
#include "tfjs/default_attrs.h"
#include "tfjs/detect.h"
#include "tfjs/graph_source.h"
#include "tfjs/model_initializer.h"
#include "tfjs/option_names.h"
#include "tfjs/options.h"
#include "tfjs/preflight.h"
#include "tfjs/quantization_change.h"
#include "tfjs/read_graph_model.h"
#include "tfjs/results.h"
#include "tfjs/unfuse_ops.h"
#include "tfjs/write_graph_model.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

// The TF options that change the graph itself; given with to: 'tfjs', the graph first goes
// through export_meta_graph's passes.
bool AnyTfPassGiven(const OptionValues& values) {
  for (const std::string& name : values.GivenNames()) {
    if (name == tf::option::kTo || name == tf::option::kAsText || name == tf::option::kFilename)
      continue;
    const OptionSpec* spec = values.schema()->Find(name);
    if (spec != nullptr && spec->group != kOptionGroup) return true;
  }
  return false;
}

// The model.json's initializerSignature as it was read: its keys and names are tensors of the
// initializer graph, whose nodes an export gives back their own names (a clash with a node of
// the model's graph renamed them only while both were one TensorFlow graph).
json InitializerSignature(const json& tfjs_manifest) {
  return tfjs_manifest.value("initializerSignature", json());
}

class TfjsModel : public tf::TfFamilyModel {
 public:
  TfjsModel(std::unique_ptr<tf::TfModel> model, InputSet* inputs, std::string primary,
            ReadResult read)
      : TfFamilyModel(std::move(model), inputs, primary, InputDirName(primary), {}),
        primary_(std::move(primary)),
        read_(std::move(read)) {}

  // TensorFlow's graph fields under the TF.js model's own header (tfjs/results.h).
  json Inspect() const override {
    json summary = GraphSummary();
    const json& m = read_.manifest;
    json inputs = json::array({primary_});
    for (const json& shard : m["shards"]) inputs.push_back(shard["input"]);
    std::string text;
    if (m["convertedBy"].is_string()) text = m["convertedBy"].get<std::string>();
    if (m["generatedBy"].is_string()) {
      text += (text.empty() ? "" : ", from ") + m["generatedBy"].get<std::string>();
    }
    json counts = GraphCounts(summary);
    counts.push_back({"weights", m["weights"].size()});
    counts.push_back({"shards", m["shards"].size()});
    summary.update({{"family", "tfjs"},
                    {"familyTitle", "TensorFlow.js"},
                    {"format", kFormatName},
                    {"encoding", "json"},
                    {"detection", model().detection_reason()},
                    {"inputBytes", read_.input_bytes},
                    {"inputs", std::move(inputs)},
                    {"producerText", text.empty() ? ProducerText(summary) : text},
                    {"counts", std::move(counts)},
                    {"tfjs", m}});
    return summary;
  }

  bool WritesFolder(const OptionValues& options) const override {
    return options.String(tf::option::kTo) == "tfjs" || TfFamilyModel::WritesFolder(options);
  }

  json Export(const OptionValues& values, OutputSet* out) override {
    return ExportWithTfjs(mutable_model(), values, read_.manifest, out);
  }

  GraphSource* Graph() override {
    if (graph_ == nullptr) {
      const json* weights =
          read_.manifest.contains("weights") ? &read_.manifest["weights"] : nullptr;
      graph_ = std::make_unique<TfjsGraphSource>(&model(), weights);
    }
    return graph_.get();
  }

 private:
  std::string primary_;
  ReadResult read_;
  std::unique_ptr<TfjsGraphSource> graph_;  // made when first asked for
};

class TfjsFamilyImpl : public Family {
 public:
  const std::string& id() const override { return id_; }
  const std::string& title() const override { return title_; }
  std::vector<std::string> formats() const override { return {kFormatName}; }
  const OptionSchema& load_options() const override { return TfjsLoadSchema(); }
  const OptionSchema& export_options() const override { return TfWithTfjsExportSchema(); }
  const ResultSchema& results() const override { return TfjsResultSchema(); }

  Detection Detect(Probe* probe, const std::string& format) const override {
    Detection d = DetectGraphModel(probe);
    if (!format.empty() && d.score == 0 && !d.primary.empty()) {
      d.score = Detection::kByMagic;
      d.reason = "format given by the caller";
    } else if (!format.empty() && d.score != 0) {
      d.score = Detection::kByMagic;
    }
    if (d.score != 0) d.format = kFormatName;
    return d;
  }

  std::unique_ptr<FamilyModel> Read(Probe* probe, const Detection& detection,
                                    const OptionValues& load_options) const override {
    ReadOptions options;
    ReadTfjsLoadOptions(load_options, &options);
    InputSet* inputs = &probe->inputs();
    ByteSource* source = probe->Take(detection.primary);
    std::string name = detection.primary;
    ReadResult read;
    // The reader fills the MetaGraphDef on the model's own arena. The byte count is known only
    // after the read, so Inspect() takes it from the read, not from the TfModel.
    tf::TfFormat format{tf::TfKind::kMetaGraphDef, false};
    std::unique_ptr<tf::TfModel> model = tf::TfModel::Build(
        format, detection.reason, 0, [&](google::protobuf::Arena*, tensorflow::MetaGraphDef* meta) {
          read = ReadGraphModel(source, inputs, name, options, meta);
        });
    return std::make_unique<TfjsModel>(std::move(model), inputs, name, std::move(read));
  }

  std::string SummaryText(const json& summary) const override {
    std::string text = tf::TfSummaryText(summary);
    const json& m = summary["tfjs"];
    size_t quantized = 0;
    for (const json& w : m["weights"]) quantized += w.contains("quantization") ? 1 : 0;
    text += "TensorFlow.js: " + std::to_string(m["weights"].size()) + " weights (" +
            std::to_string(quantized) + " quantized) in " + std::to_string(m["shards"].size()) +
            " shards";
    if (m["signatureSource"].is_string()) {
      text += "; signature from " + m["signatureSource"].get<std::string>();
    }
    return text + "\n";
  }

 private:
  std::string id_ = "tfjs";
  std::string title_ = "TensorFlow.js";
};

// The ops of the graph an export writes that `target` cannot run, before anything is
// written. `refuses`: the export fails with UNSUPPORTED naming them, unless
// allowUnsupportedOps; a check (core/check_output_set.h) reports them instead of failing,
// and skips the writer. The initializer graph (modelInitializer), which TF.js runs first, is
// checked too: its nodes are named "modelInitializer/<node>".
struct Preflight {
  OpCheck check;
  bool export_fails = false;
};

Preflight RunPreflight(tf::GraphNodes* nodes, OpTarget target, bool refuses,
                       const OptionValues& values, const OutputSet& out,
                       const std::set<std::string>& also_runs = {},
                       const tensorflow::GraphDef* initializer = nullptr) {
  Preflight result{CheckOps(nodes, target, also_runs)};
  if (initializer != nullptr) {
    tf::ParsedGraphNodes initializer_nodes(*initializer);
    AddOpCheck(&initializer_nodes, target, also_runs, "modelInitializer/", &result.check);
  }
  const auto& ops = result.check.unsupported;
  result.export_fails = refuses && !ops.empty() && !values.Bool(option::kAllowUnsupportedOps);
  if (result.export_fails && !ChecksOnly(out)) {
    ErrorLocation where;
    where.node = ops.begin()->second.nodes.empty() ? "" : ops.begin()->second.nodes[0];
    throw Error(ErrorCode::kUnsupported, UnsupportedOpsMessage(ops, target), where);
  }
  return result;
}

// info.check of a check: what the export would write and whether its target runs it.
json CheckReport(const Preflight& preflight, OpTarget target) {
  const OpCheck& check = preflight.check;
  return {{"target", target == OpTarget::kTfjs ? "tfjs" : "tensorflow"},
          {"runtime", OpTargetTitle(target)},
          {"runs", check.unsupported.empty()},
          {"ops", check.ops},
          {"nodes", check.nodes},
          {"unsupportedOps", UnsupportedOpsJson(check.unsupported, target)},
          {"exportFails", preflight.export_fails}};
}

// The graph a TensorFlow export writes, node by node: `graph` (a GraphDef given or the
// unfused one) or the model's own. The registry graphport holds is an older TensorFlow's, so
// the ops the model's stripped_op_list defines (the TensorFlow that wrote it had them:
// DisableCopyOnRead in a TF 2.14 SavedModel) and those of the opRegistry option count too.
Preflight TensorflowPreflight(tf::TfModel* model, const tensorflow::GraphDef* graph,
                              const tensorflow::OpList* op_registry, bool refuses,
                              const OptionValues& values, const OutputSet& out) {
  std::set<std::string> also_runs;
  if (const tensorflow::MetaGraphDef* meta = model->meta_graph()) {
    for (const auto& op : meta->meta_info_def().stripped_op_list().op())
      also_runs.insert(op.name());
  }
  if (op_registry != nullptr) {
    for (const auto& op : op_registry->op()) also_runs.insert(op.name());
  }
  // With no pass, the nodes to export are the loaded ones (or `graph`'s), in their own form.
  tf::TfExportOptions as_loaded;
  as_loaded.graph_def = graph;
  std::unique_ptr<tf::ExportNodes> loaded = tf::NodesToExport(*model, as_loaded);
  std::unique_ptr<tf::GraphNodes> nodes = loaded->Nodes();
  return RunPreflight(nodes.get(), OpTarget::kTensorflow, refuses, values, out, also_runs);
}

}  // namespace

const OptionSchema& TfWithTfjsExportSchema() {
  static const OptionSchema* schema = [] {
    auto* s = new OptionSchema(tf::TfExportSchema());
    for (OptionSpec& spec : s->options) {
      if (spec.name != tf::option::kTo) continue;
      spec.choices.push_back("tfjs");
      spec.help +=
          " tfjs writes a TensorFlow.js graph model: model.json and its weight shards, as "
          "tfjs-converter lays them out.";
    }
    for (OptionSpec& spec : s->options) {
      if (spec.name == tf::option::kFilename) {
        spec.help +=
            " With to: 'tfjs', the name of the model JSON in the output folder (a bare name "
            "ending in .json; empty: model.json); the shards keep their "
            "group1-shard<i>of<n>.bin names, which the JSON lists.";
        spec.derived_defaults.insert(spec.derived_defaults.begin(),
                                     {{{tf::option::kTo, {"tfjs"}}}, WriteOptions().model_json});
      }
      if (spec.name == tf::option::kAsText) {
        spec.rules.push_back({RuleKind::kUsedWhen,
                              {{tf::option::kTo, {"meta-graph", "graph-def", "saved-model"}}},
                              "model.json is JSON either way: asText changes nothing with "
                              "to: 'tfjs'"});
      }
    }
    s->groups.push_back(TfjsOptionGroup());
    for (OptionSpec& spec : TfjsExportOptionSpecs()) s->options.push_back(std::move(spec));
    return s;
  }();
  return *schema;
}

json ExportWithTfjs(tf::TfModel* model, const OptionValues& values, const json& tfjs_manifest,
                    OutputSet* out) {
  bool unfuse = values.Bool(option::kUnfuseOps);
  bool to_tfjs = values.String(tf::option::kTo) == "tfjs";
  tf::TfMessageOptions messages;
  tf::TfExportOptions options = tf::ReadTfExportOptions(values, &messages);
  json rewrites;
  tensorflow::GraphDef unfused;
  if (unfuse) {
    unfused = options.graph_def != nullptr ? *options.graph_def : model->graph();
    rewrites = RewritesToJson(UnfuseOps(&unfused));
    options.graph_def = &unfused;
  }
  if (!to_tfjs) {
    // TensorFlow imports only the ops of its registry. With unfuseOps the user asked for a
    // graph it imports, so one that is not refuses; without it, the export writes what it
    // always wrote and says what TensorFlow lacks. Checked for a graph that came from TF.js
    // and whenever asked (unfuseOps, a check): a graph TensorFlow wrote holds its own ops, and
    // its export stays as fast as it was.
    Preflight preflight;
    if (tfjs_manifest.is_object() || unfuse || ChecksOnly(*out)) {
      preflight =
          TensorflowPreflight(model, options.graph_def, options.op_registry, unfuse, values, *out);
    }
    // A check runs the writer too (into nothing), so that what only the writer refuses is
    // its error; only what the export refuses before writing is left out.
    json info;
    if (!preflight.export_fails) info = tf::Export(model, options, out);
    if (ChecksOnly(*out)) info["check"] = CheckReport(preflight, OpTarget::kTensorflow);
    const auto& lacking = preflight.check.unsupported;
    if (!lacking.empty()) {
      info["unsupportedOps"] = UnsupportedOpsJson(lacking, OpTarget::kTensorflow);
      if (!unfuse) {
        info["warnings"] = json::array({"TensorFlow's op registry lacks " +
                                        UnsupportedOpsList(lacking, OpTarget::kTensorflow) +
                                        ": TensorFlow cannot import this graph as written"});
      }
    }
    if (unfuse) info["unfusedOps"] = rewrites;
    return info;
  }

  WriteOptions write;
  ReadTfjsWriteOptions(values, &write);
  if (!values.String(tf::option::kFilename).empty())
    write.model_json = values.String(tf::option::kFilename);
  write.converted_by = "graphport " GRAPHPORT_VERSION;
  if (tfjs_manifest.is_object()) {
    write.generated_by = tfjs_manifest.value("generatedBy", json());
    write.user_metadata = tfjs_manifest.value("userDefinedMetadata", json());
  } else if (model->meta_graph() != nullptr &&
             !model->meta_graph()->meta_info_def().tensorflow_version().empty()) {
    write.generated_by = model->meta_graph()->meta_info_def().tensorflow_version();
  }
  // The nodes to write, one at a time (tf/meta_graph/graph_nodes.h), in the form the model
  // holds them: a graph still held as its bytes is written from them as the export's plan says
  // (options that change nodes rewrite them one by one), so neither the model nor the export
  // holds it parsed. With no TensorFlow option that changes the graph, the model's own graph
  // is written as loaded, and no MetaGraphDef is built for it.
  model->PrepareWireGraphForExport();
  // model.json is JSON whatever asText says (the schema ignores it here), so it must not make
  // the export parse nodes that text could not copy as bytes (tf/meta_graph/wire_nodes.h).
  options.as_text = false;
  google::protobuf::Arena arena(proto::GraphArenaOptions());
  const tensorflow::MetaGraphDef* meta_graph = model->meta_graph();
  std::unique_ptr<tf::ExportNodes> exported_nodes;
  if (AnyTfPassGiven(values)) {
    tf::MetaGraphExport exported = tf::BuildMetaGraph(*model, options, &arena);
    meta_graph = exported.meta_graph;
    exported_nodes = std::move(exported.nodes);
  } else {
    exported_nodes = tf::NodesToExport(*model, options);
  }
  std::unique_ptr<tf::GraphNodes> nodes = exported_nodes->Nodes();
  const tensorflow::SignatureDef* signature = nullptr;
  if (meta_graph != nullptr) {
    // serving_default, as tfjs-converter picks it; a frozen model's one signature else.
    auto s = meta_graph->signature_def().find(kSignatureKey);
    if (s != meta_graph->signature_def().end()) {
      signature = &s->second;
    } else if (meta_graph->signature_def().size() == 1) {
      signature = &meta_graph->signature_def().begin()->second;
    }
  }
  // The tables' init ops go back to modelInitializer, as tfjs-converter cuts them out; the
  // rest of the graph is then written from the parsed copy the split made.
  tensorflow::GraphDef main_graph, initializer;
  if (SplitInitializer(nodes.get(), meta_graph, &main_graph, &initializer, &write.resource_links)) {
    nodes = std::make_unique<tf::ParsedGraphNodes>(main_graph);
    write.initializer = &initializer;
    if (tfjs_manifest.is_object())
      write.initializer_signature = InitializerSignature(tfjs_manifest);
  }
  // A TensorFlow graph gets the registry's default attrs that TF.js needs, as the converter's
  // import gives them; a TF.js model read back has them already, and keeps its bytes.
  WithDefaultAttrs completed(nodes.get());
  tf::GraphNodes* written = tfjs_manifest.is_object() ? nodes.get() : &completed;
  json info;
  Preflight preflight =
      RunPreflight(written, OpTarget::kTfjs, true, values, *out, {}, write.initializer);
  if (!preflight.export_fails) info = WriteGraphModel(written, signature, write, out);
  if (ChecksOnly(*out)) info["check"] = CheckReport(preflight, OpTarget::kTfjs);
  if (json change =
          QuantizationChange(tfjs_manifest, write.quantize, info.value("weightBytes", uint64_t{0}));
      !change.is_null() && !preflight.export_fails) {
    info["quantization"] = std::move(change);
  }
  if (!preflight.check.unsupported.empty()) {
    info["unsupportedOps"] = UnsupportedOpsJson(preflight.check.unsupported, OpTarget::kTfjs);
  }
  info["format"] = "tfjs";
  info["encoding"] = "json";
  if (unfuse) info["unfusedOps"] = rewrites;
  return info;
}

const Family& TfjsFamily() {
  static const Family* family = new TfjsFamilyImpl();
  return *family;
}

tf::TfExportExtension TfjsExportExtension() {
  tf::TfExportExtension extension;
  extension.schema = &TfWithTfjsExportSchema();
  extension.export_model = [](tf::TfModel* model, const OptionValues& values, OutputSet* out) {
    return ExportWithTfjs(model, values, nullptr, out);
  };
  extension.folder_kinds = {"tfjs"};
  extension.export_info = "TfjsExportInfo";
  extension.result_types = TfjsExportResultTypes();
  return extension;
}

}  // namespace graphport::tfjs
