#include "tf/family.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/check_output_set.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/strings.h"
#include "tf/checkpoint/checkpoint.h"
#include "tf/detect.h"
#include "tf/export.h"
#include "tf/freeze/checkpoint_store.h"
#include "tf/freeze/freeze_export.h"
#include "tf/freeze/variable_readers.h"
#include "tf/inspect.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf/option_names.h"
#include "tf/options.h"
#include "tf/preview_rules.h"
#include "tf/results.h"
#include "tf/summary_text.h"

namespace graphport::tf {
namespace {

using nlohmann::json;

// What a SavedModel folder holds besides its graph, all passed through by a SavedModel export.
// fingerprint.pb is left out: it fingerprints the original saved_model.pb, which an export
// rewrites, and TensorFlow loads a SavedModel without one.
bool IsSavedModelPart(const std::string& relative) {
  return relative.rfind("variables/", 0) == 0 || relative.rfind("assets/", 0) == 0 ||
         relative.rfind("assets.extra/", 0) == 0;
}

bool IsGraphLikeName(const std::string& name) {
  std::string base = InputBaseName(name);
  if (base == "fingerprint.pb" || base == "keras_metadata.pb") return false;
  for (const char* ext : {".pb", ".pbtxt", ".meta", ".graphdef", ".prototxt"}) {
    if (EndsWith(base, ext)) return true;
  }
  return false;
}

bool IsSavedModelName(const std::string& name) {
  std::string base = InputBaseName(name);
  return base == "saved_model.pb" || base == "saved_model.pbtxt";
}

// An OpList in text format (TensorFlow's ops.pbtxt) starts with an `op` field: it is no graph,
// but it is what the opRegistry export option takes.
bool LooksLikeTextOpList(std::string_view prefix) {
  size_t i = 0;
  while (i < prefix.size()) {
    if (prefix[i] == '#') {
      size_t end = prefix.find('\n', i);
      i = end == std::string_view::npos ? prefix.size() : end + 1;
    } else if (std::isspace(static_cast<unsigned char>(prefix[i]))) {
      ++i;
    } else {
      break;
    }
  }
  if (prefix.substr(i, 2) != "op" || i + 2 >= prefix.size()) return false;
  char next = prefix[i + 2];
  return next == '{' || next == ':' || std::isspace(static_cast<unsigned char>(next));
}

// The checkpoint of a SavedModel folder, listed from its index alone (no value is read):
// `variables` (key, dtype, shape, bytes, shard, readBy: the signatures that read it and
// through which node, in key order), `variableBytes`,
// `variableShards`. The object graph a TF2 checkpoint keeps beside the variables is no
// variable and is left out. A checkpoint that cannot be read does not fail inspect(): its
// error is `variablesError`.
void AddCheckpointSummary(InputSet* inputs, const std::string& prefix, const TfModel& model,
                          json* summary) {
  try {
    auto checkpoint = checkpoint::Checkpoint::Open(inputs, prefix);
    // Who reads each variable: the signatures, as their freeze would find them.
    std::map<std::string, std::vector<VariableReader>> readers;
    // A checkpoint whose object graph is damaged still lists its variables, unread by any.
    if (model.meta_graph() != nullptr) {
      try {
        std::unique_ptr<CheckpointStore> store = CheckpointStore::Open(inputs, prefix);
        readers = VariableReaders(*model.meta_graph(), model.graph(), store.get());
      } catch (const Error&) {
        readers.clear();
      }
    }
    json variables = json::array();
    uint64_t bytes = 0;
    for (const checkpoint::VariableEntry& entry : checkpoint->entries()) {
      if (entry.key == checkpoint::kObjectGraphKey) continue;
      json read_by = json::array();
      for (const VariableReader& reader : readers[entry.key]) {
        read_by.push_back({{"signature", reader.signature}, {"node", reader.node}});
      }
      variables.push_back({{"key", entry.key},
                           {"dtype", tensorflow::DataType_Name(entry.dtype)},
                           {"shape", entry.shape},
                           {"bytes", entry.size},
                           {"shard", entry.shard_id},
                           {"readBy", std::move(read_by)}});
      bytes += entry.size;
    }
    (*summary)["variables"] = std::move(variables);
    (*summary)["variableBytes"] = bytes;
    (*summary)["variableShards"] = checkpoint->num_shards();
  } catch (const Error& e) {
    (*summary)["variablesError"] = e.what();
  }
}

size_t Depth(const std::string& name) { return std::count(name.begin(), name.end(), '/'); }

// The input a TensorFlow reader starts from: the only one; else the shallowest
// saved_model.pb(txt); else the only graph-like file. Empty, with `why`, when none fits.
std::string ChoosePrimary(const std::vector<std::string>& names, std::string* why) {
  if (names.size() == 1) return names[0];
  std::vector<std::string> saved;
  for (const auto& n : names) {
    if (IsSavedModelName(n)) saved.push_back(n);
  }
  std::stable_sort(saved.begin(), saved.end(),
                   [](const auto& a, const auto& b) { return Depth(a) < Depth(b); });
  if (!saved.empty()) {
    if (saved.size() > 1 && Depth(saved[0]) == Depth(saved[1])) {
      *why =
          "several SavedModels side by side (" + saved[0] + ", " + saved[1] + "): give one folder";
      return "";
    }
    return saved[0];
  }
  std::vector<std::string> graphs;
  for (const auto& n : names) {
    if (IsGraphLikeName(n)) graphs.push_back(n);
  }
  if (graphs.size() == 1) return graphs[0];
  *why = std::to_string(names.size()) + " files and " +
         (graphs.empty()
              ? std::string("no saved_model.pb or graph file (.pb, .pbtxt, .meta)")
              : std::to_string(graphs.size()) + " graph files (" + graphs[0] + ", " + graphs[1] +
                    (graphs.size() > 2 ? ", ..." : "") + "): give the one to read");
  return "";
}

std::vector<std::string> AllFormats() {
  std::vector<std::string> out;
  for (const char* kind : {"graph-def", "meta-graph", "saved-model"}) {
    for (const char* suffix : {"", "-text", "-binary"}) out.push_back(std::string(kind) + suffix);
  }
  return out;
}

class TensorflowFamilyImpl : public Family {
 public:
  explicit TensorflowFamilyImpl(const TfExportExtension* extension)
      : extension_(extension),
        results_(extension != nullptr
                     ? TfResultSchema(extension->result_types, extension->export_info)
                     : TfResultSchema()) {}
  const std::string& id() const override { return id_; }
  const std::string& title() const override { return title_; }
  std::vector<std::string> formats() const override { return AllFormats(); }
  const OptionSchema& load_options() const override { return TfLoadSchema(); }
  const OptionSchema& export_options() const override {
    return extension_ != nullptr ? *extension_->schema : TfExportSchema();
  }
  const ResultSchema& results() const override { return results_; }

  Detection Detect(Probe* probe, const std::string& format) const override {
    Detection d;
    std::string why;
    d.primary = ChoosePrimary(probe->names(), &why);
    if (d.primary.empty()) {
      d.reason = why;
      return d;
    }
    if (!format.empty()) {
      d.score = Detection::kByMagic;
      d.format = format;
      d.reason = "format given by the caller";
      return d;
    }
    std::string_view prefix = probe->Prefix(d.primary);
    TfDetection found = DetectTf(prefix, probe->Complete(d.primary));
    d.reason = found.reason;
    if (probe->names().size() > 1) d.reason += " (" + d.primary + ")";
    if (!found.found) {
      d.reason = "not a GraphDef, MetaGraphDef or SavedModel (" + d.reason + ")";
      if (LooksLikeText(prefix) && LooksLikeTextOpList(prefix)) {
        d.reason +=
            "; it looks like an OpList (ops.pbtxt), which is no graph: give it to an "
            "export as the op registry (opRegistry, --op-registry)";
      }
      return d;
    }
    // A graph file picked among other files (a folder with a model.json and its frozen graph,
    // say) is a weaker claim than the one file given or a SavedModel folder's saved_model.pb.
    bool picked = probe->names().size() > 1 && !IsSavedModelName(d.primary);
    d.score = picked ? Detection::kByStructure - 10 : Detection::kByStructure;
    d.format = std::string(KindName(found.format.kind)) + (found.format.text ? "-text" : "-binary");
    d.encoding = found.format.text ? "text" : "binary";
    return d;
  }

  std::unique_ptr<FamilyModel> Read(Probe* probe, const Detection& detection,
                                    const OptionValues& load_options) const override {
    TfLoadOptions options;
    ReadTfLoadOptions(load_options, &options);
    options.format = detection.format;
    options.name = probe->inputs().DisplayName(detection.primary);
    options.detection_reason = detection.reason;
    // The op list every export reads is made before the input's buffer: made by the first
    // export, it would sit above this model for good and split the heap where the next
    // model's bytes go (a page loading a second graph would grow the heap by a whole model).
    BuiltinDefaultsOpList();
    std::unique_ptr<TfModel> model = TfModel::Load(probe->Take(detection.primary), options);

    std::string folder = InputDirName(detection.primary);
    std::vector<std::string> passthrough;
    bool fingerprint = false;
    if (model->format().kind == TfKind::kSavedModel) {
      std::string prefix = folder.empty() ? "" : folder + "/";
      for (const auto& name : probe->names()) {
        if (name.rfind(prefix, 0) != 0) continue;
        std::string relative = name.substr(prefix.size());
        if (IsSavedModelPart(relative)) passthrough.push_back(name);
        if (relative == "fingerprint.pb") fingerprint = true;
      }
    }
    auto loaded =
        std::make_unique<TfFamilyModel>(std::move(model), &probe->inputs(), detection.primary,
                                        folder, std::move(passthrough), extension_);
    loaded->set_had_fingerprint(fingerprint);
    return loaded;
  }

  std::string SummaryText(const json& summary) const override { return TfSummaryText(summary); }

 private:
  std::string id_ = "tensorflow";
  std::string title_ = "TensorFlow";
  const TfExportExtension* extension_;
  ResultSchema results_;
};

}  // namespace

const Family& TensorflowFamily() {
  static const Family* family = new TensorflowFamilyImpl(nullptr);
  return *family;
}

std::unique_ptr<Family> MakeTensorflowFamily(const TfExportExtension* extension) {
  return std::make_unique<TensorflowFamilyImpl>(extension);
}

TfFamilyModel::TfFamilyModel(std::unique_ptr<TfModel> model, InputSet* inputs, std::string primary,
                             std::string folder, std::vector<std::string> passthrough,
                             const TfExportExtension* extension)
    : model_(std::move(model)),
      inputs_(inputs),
      primary_(std::move(primary)),
      folder_(std::move(folder)),
      passthrough_(std::move(passthrough)),
      extension_(extension) {}

json TfFamilyModel::GraphSummary() const {
  json summary = tf::InspectGraph(*model_);
  json parts = json::array();
  for (const auto& name : passthrough_) {
    uint64_t size = 0;
    json part = {{"name", name.substr(folder_.empty() ? 0 : folder_.size() + 1)}};
    part["bytes"] = inputs_->Size(name, &size) ? json(size) : json(nullptr);
    parts.push_back(part);
  }
  // The files of a SavedModel folder that a SavedModel export passes through.
  summary["savedModelFiles"] = parts;
  // What an export to TF.js would have to freeze: a graph that reads variables or calls
  // functions runs in TensorFlow only.
  json freeze_ops = json::object();
  if (model_->meta_graph() != nullptr) {
    for (const auto& [op, count] : OpsNeedingFreeze(*model_)) freeze_ops[op] = count;
  }
  summary["needsFreeze"] = !freeze_ops.empty();
  summary["freezeOps"] = std::move(freeze_ops);
  std::string variables_prefix = (folder_.empty() ? "" : folder_ + "/") + "variables/variables";
  if (inputs_->Has(variables_prefix + ".index")) {
    AddCheckpointSummary(inputs_, variables_prefix, *model_, &summary);
  }
  return summary;
}

std::string TfFamilyModel::ProducerText(const json& graph_summary) {
  const json& producer = graph_summary["producer"];
  std::string text = "graph producer " + std::to_string(producer["graphProducer"].get<int>());
  if (producer.contains("tensorflowVersion") && producer["tensorflowVersion"].is_string() &&
      !producer["tensorflowVersion"].get<std::string>().empty()) {
    text = "TensorFlow " + producer["tensorflowVersion"].get<std::string>() + ", " + text;
  }
  return text;
}

json TfFamilyModel::GraphCounts(const json& graph_summary) {
  return json::array({json::array({"nodes", graph_summary["nodeCount"]}),
                      json::array({"ops", graph_summary["ops"].size()}),
                      json::array({"functions", graph_summary["functions"].size()}),
                      json::array({"signatures", graph_summary["signatures"].size()})});
}

json TfFamilyModel::Inspect() const {
  json summary = GraphSummary();
  summary.update(tf::InspectHeader(*model_));
  summary["familyTitle"] = "TensorFlow";
  // Which files were read matters for a set of several; one input given alone is just itself.
  if (inputs_->Names().size() > 1) {
    json inputs = json::array({primary_});
    for (const auto& name : passthrough_) inputs.push_back(name);
    summary["inputs"] = inputs;
  }
  summary["producerText"] = ProducerText(summary);
  summary["counts"] = GraphCounts(summary);
  return summary;
}

bool TfFamilyModel::WritesFolder(const OptionValues& options) const {
  std::string to = options.String(option::kTo);
  if (to == "saved-model") return true;
  if (extension_ == nullptr) return false;
  const auto& kinds = extension_->folder_kinds;
  return std::find(kinds.begin(), kinds.end(), to) != kinds.end();
}

GraphSource* TfFamilyModel::Graph() {
  if (graph_ == nullptr) graph_ = std::make_unique<TfGraphSource>(model_.get());
  return graph_.get();
}

PreviewRename TfFamilyModel::PreviewRenaming(const OptionValues& options) const {
  return TfPreviewRenaming(options);
}

std::vector<PreviewRule> TfFamilyModel::PreviewRules(const OptionValues& options,
                                                     const json& info) const {
  return TfPreviewRules(options, info);
}

json TfFamilyModel::Export(const OptionValues& values, OutputSet* out) {
  // A frozen model is written instead of the loaded one: its variables are constants now.
  FrozenModel frozen = FreezeForExport(*model_, inputs_, folder_, values, ChecksOnly(*out));
  TfModel* model = frozen.model != nullptr ? frozen.model.get() : model_.get();
  json info;
  if (extension_ != nullptr) {
    info = extension_->export_model(model, values, out);
  } else {
    TfMessageOptions messages;
    info = tf::Export(model, ReadTfExportOptions(values, &messages), out);
  }
  if (!frozen.refusal.is_null() && info.contains("check")) {
    // The export throws where the check reports: whatever the ops, it fails.
    info["check"]["exportFails"] = true;
    info["check"]["exportError"] = frozen.refusal;
    MarkWhatFreezeFixes(values, out, &info["check"]);
  }
  if (frozen.model != nullptr) {
    info["frozen"] = frozen.report;
  } else if (values.String(option::kTo) == "saved-model" && !ChecksOnly(*out)) {
    // A check leaves the folder's variables and assets unread: they pass through as bytes.
    CopyPassthrough(out, &info);
  }
  return info;
}

// A check of freeze: false lists every op of the unfrozen graph that the runtime lacks (the
// savers, every signature's function): those that the freeze would remove or prune get its
// hint, so the user sees which ops freezing fixes and which it would not. A freeze that fails
// (no checkpoint, say) fixes nothing, and the hints stay as they were.
void TfFamilyModel::MarkWhatFreezeFixes(const OptionValues& values, OutputSet* out, json* check) {
  json given = json::object();
  for (const std::string& name : values.GivenNames()) {
    if (name != option::kFreeze) given[name] = values.Raw(name);
  }
  std::set<std::string> still_lacking;
  try {
    json frozen = Export(OptionValues::Read(*values.schema(), given, "export"), out);
    for (const json& op : frozen["check"]["unsupportedOps"]) still_lacking.insert(op["op"]);
  } catch (const Error&) {
    return;
  }
  for (json& op : (*check)["unsupportedOps"]) {
    if (still_lacking.count(op["op"].get<std::string>()) == 0) op["hint"] = "freeze fixes this";
  }
}

void TfFamilyModel::CopyPassthrough(OutputSet* out, json* info) const {
  json notes = json::array();
  if (passthrough_.empty()) {
    notes.push_back(model_->format().kind == TfKind::kSavedModel
                        ? "only the SavedModel's graph was given: no variables/ or assets/ "
                          "to pass through, so a model with variables will not restore them"
                        : "a SavedModel made from a single graph: it has no variables/ or "
                          "assets/ folder");
  }
  std::vector<uint8_t> buffer;
  for (const auto& name : passthrough_) {
    std::string relative = name.substr(folder_.empty() ? 0 : folder_.size() + 1);
    ByteSource* source = inputs_->Open(name);
    ByteSink* sink = out->Open(relative);
    uint64_t size = 0;
    if (inputs_->Size(name, &size)) sink->SizeHint(size);
    buffer.resize(kStreamChunkBytes);
    for (;;) {
      size_t n = source->Read(buffer.data(), buffer.size());
      if (n == 0) break;
      sink->Write(buffer.data(), n);
    }
    out->Close();
    (*info)["files"].push_back(relative);
  }
  if (!passthrough_.empty()) {
    notes.push_back(
        "the folder's variables/, assets/ and assets.extra/ files are passed through "
        "byte for byte");
  }
  if (had_fingerprint_) {
    notes.push_back(
        "fingerprint.pb is left out: it fingerprints the original saved_model.pb, "
        "and TensorFlow loads a SavedModel without one");
  }
  (*info)["notes"] = notes;
}

}  // namespace graphport::tf
