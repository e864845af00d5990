#include "api/model.h"

#include "api/families.h"
#include "api/load_options.h"
#include "core/check_output_set.h"
#include "core/error.h"
#include "core/graph_index.h"
#include "core/graph_level.h"
#include "core/inspect_text.h"
#include "core/json_parse.h"
#include "core/strings.h"
#include "core/summary_pages.h"

namespace graphport {
namespace {

using nlohmann::json;

// What a message quotes of one family's reason for refusing the input.
constexpr size_t kReasonChars = 400;

std::string Cap(const std::string& text, size_t max) {
  if (text.size() <= max) return text;
  return text.substr(0, max) + "... (" + std::to_string(text.size() - max) + " more characters)";
}

const Family* OwnerOfFormat(const std::string& format) {
  for (const Family* family : Families()) {
    for (const auto& f : family->formats()) {
      if (f == format) return family;
    }
  }
  return nullptr;
}

// A node's consumers the details panel lists at most.
constexpr size_t kMaxConsumers = 100;
// Search matches listed unless the caller asks for another number.
constexpr size_t kDefaultSearchMatches = 50;

// A result as the JSON text the bindings hand over (invalid UTF-8 replaced, never thrown).
std::string Dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Options given as JSON text: "" is no option; text that does not parse is an error.
json OptionsObject(const std::string& text, const std::string& what) {
  if (text.empty()) return json::object();
  json given = ParseJson(text, /*allow_exceptions=*/false);
  if (!given.is_object()) {
    throw Error(ErrorCode::kInvalidOption, what + " options must be a JSON object");
  }
  return given;
}

GraphSource* GraphOf(FamilyModel* model, const Family& family) {
  auto* has = dynamic_cast<HasGraph*>(model);
  if (has == nullptr) {
    throw Error(ErrorCode::kUnsupported, family.title() + " models have no graph view");
  }
  return has->Graph();
}

// The error keeps its code and text; the file it happened in is added when it lacks one.
[[noreturn]] void RethrowWithFile(const Error& e, const std::string& file) {
  if (!e.where().file.empty() || file.empty()) throw e;
  ErrorLocation where = e.where();
  where.file = file;
  throw Error(e.code(), e.what(), where);
}

}  // namespace

json LoadOptions::ToJson() const {
  json out = {{"format", format}, {"name", name}};
  if (!tags.empty()) out["tags"] = tags;
  return out;
}

Model::~Model() = default;

std::unique_ptr<Model> Model::Load(ByteSource* source, const LoadOptions& options) {
  std::string name = options.name.empty() ? "input" : options.name;
  size_t slash = name.find_last_of('/');
  std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  auto inputs = std::make_unique<SingleInputSet>(source, base.empty() ? name : base, name);
  return Load(std::move(inputs), options.ToJson());
}

std::unique_ptr<Model> Model::Load(std::unique_ptr<InputSet> inputs, const json& options) {
  SplitLoadOptions split = SplitLoad(options);
  std::string format = split.common.String("format");
  const std::string& label = inputs->label();

  std::unique_ptr<Model> model(new Model());
  model->inputs_ = std::move(inputs);
  InputSet* set = model->inputs_.get();
  Probe probe(set);
  const auto& names = probe.names();
  if (names.empty()) throw Error(ErrorCode::kEmptyInput, label + ": no input was given");
  if (names.size() == 1 && probe.Prefix(names[0]).empty()) {
    throw Error(ErrorCode::kEmptyInput, set->DisplayName(names[0]) + ": the input is empty",
                ErrorLocation::InFile(set->DisplayName(names[0])));
  }

  Detection best;
  const Family* chosen = nullptr;
  if (format != "auto") {
    chosen = OwnerOfFormat(format);
    if (chosen == nullptr) {
      throw Error(ErrorCode::kInvalidOption, "unknown format '" + Cap(format, 80) + "'");
    }
    best = chosen->Detect(&probe, format);
    if (best.score <= 0) {
      throw Error(ErrorCode::kUnknownFormat,
                  label + ": cannot read it as " + format + ": " + Cap(best.reason, kReasonChars),
                  ErrorLocation::InFile(label));
    }
  } else {
    std::string refusals;
    for (const Family* family : Families()) {
      Detection d = family->Detect(&probe, "");
      if (d.score > best.score) {
        best = d;
        chosen = family;
      } else if (d.score <= 0) {
        refusals +=
            (refusals.empty() ? "" : "; ") + family->title() + ": " + Cap(d.reason, kReasonChars);
      }
    }
    if (chosen == nullptr) {
      throw Error(ErrorCode::kUnknownFormat,
                  label + ": not a model that graphport reads (" + refusals + ")",
                  ErrorLocation::InFile(label));
    }
  }

  OptionValues family_options = FamilyLoadValues(*chosen, split.per_family);
  model->family_ = chosen;
  model->load_options_ = options;
  try {
    model->model_ = chosen->Read(&probe, best, family_options);
  } catch (const Error& e) {
    RethrowWithFile(e, best.primary.empty() ? label : set->DisplayName(best.primary));
  }
  return model;
}

std::string Model::InspectJson() const {
  if (const auto* text = dynamic_cast<const InspectsAsText*>(model_.get())) {
    return text->InspectText();
  }
  json summary = model_->Inspect();
  return summary.dump(-1, ' ', false, json::error_handler_t::replace);
}

json Model::Inspect() const {
  if (const auto* text = dynamic_cast<const InspectsAsText*>(model_.get())) {
    return ParseJson(text->InspectText());
  }
  return model_->Inspect();
}

std::string Model::ExportJson(const std::string& options_json, OutputSet* out) {
  return Dump(Export(OptionsObject(options_json, "export"), out));
}

json Model::Export(const json& options, OutputSet* out) {
  if (!options.is_null() && !options.is_object()) {
    throw Error(ErrorCode::kInvalidOption, "export options must be a JSON object");
  }
  return model_->Export(OptionValues::Read(family_->export_options(), options, "export"), out);
}

std::string Model::CheckJson(const std::string& options_json) {
  return Dump(Check(OptionsObject(options_json, "check")));
}

json Model::Check(json given) {
  if (given.is_null()) given = json::object();
  if (!given.is_object()) {
    throw Error(ErrorCode::kInvalidOption, "check options must be a JSON object");
  }
  std::string target;
  if (given.contains("target")) {
    const json& t = given["target"];
    if (!t.is_string() || (t != "tfjs" && t != "tensorflow")) {
      throw Error(ErrorCode::kInvalidOption,
                  "check option 'target' must be 'tfjs' or 'tensorflow', not " + Cap(t.dump(), 80),
                  ErrorLocation::OfOption("target"));
    }
    target = t.get<std::string>();
    given.erase("target");
  }
  if (family_->export_options().Find("to") == nullptr) {
    throw Error(ErrorCode::kUnsupported, family_->title() +
                                             " models are written for neither TF.js nor "
                                             "TensorFlow: check has nothing to check them against");
  }
  const json to = given.value("to", json());
  if (target.empty() && to.is_null()) target = "tfjs";
  if (target == "tfjs") {
    if (!to.is_null() && to != "tfjs") {
      throw Error(ErrorCode::kInvalidOption,
                  "check target 'tfjs' writes to: 'tfjs', not to: " + Cap(to.dump(), 80),
                  ErrorLocation::OfOption("to"));
    }
    given["to"] = "tfjs";
  } else if (target == "tensorflow" && to == "tfjs") {
    throw Error(ErrorCode::kInvalidOption,
                "check target 'tensorflow' needs to: a TensorFlow format (meta-graph, graph-def, "
                "saved-model), not 'tfjs'",
                ErrorLocation::OfOption("to"));
  }
  OptionValues values = OptionValues::Read(family_->export_options(), given, "export");
  CheckOutputSet out;
  json info = model_->Export(values, &out);
  if (!info.contains("check")) {
    throw Error(ErrorCode::kUnsupported, family_->title() + " models written to: '" +
                                             values.String("to") + "' cannot be checked");
  }
  json report = info["check"];
  report["to"] = values.String("to");
  for (const char* key : {"frozen", "unfusedOps", "quantization"}) {
    if (info.contains(key)) report[key] = info[key];
  }
  return report;
}

std::string Model::GraphJson(const std::string& options_json) {
  json given =
      options_json.empty() ? json::object() : ParseJson(options_json, /*allow_exceptions=*/false);
  if (!given.is_object()) {
    throw Error(ErrorCode::kInvalidOption, "graph options must be a JSON object");
  }
  std::string group;
  size_t limit = kDefaultGraphLevelLimit;
  for (const auto& [key, value] : given.items()) {
    if (key == "group" && value.is_string()) {
      group = value.get<std::string>();
    } else if (key == "limit" && value.is_number_unsigned() && value.get<uint64_t>() > 0) {
      limit = value.get<size_t>();
    } else {
      throw Error(ErrorCode::kInvalidOption,
                  "graph option '" + Cap(key, 80) + "' " +
                      (key == "group"   ? "must be a string"
                       : key == "limit" ? "must be a positive integer"
                                        : "is unknown (group, limit)"),
                  ErrorLocation::OfOption(key));
    }
  }
  json level = GraphLevel(GraphOf(model_.get(), *family_)->Index(), group, limit);
  return level.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Model::NodeJson(const std::string& name) {
  GraphSource* source = GraphOf(model_.get(), *family_);
  const GraphIndex& index = source->Index();
  int64_t found = index.Find(name);
  if (found < 0) {
    ErrorLocation where;
    where.node = name;
    throw Error(ErrorCode::kNotFound, "no node named '" + Cap(name, 200) + "' in the graph", where);
  }
  auto node = static_cast<uint32_t>(found);
  json details = source->NodeDetails(node);
  json consumers = json::array();
  uint64_t more = 0;
  const auto& inputs = index.inputs();
  for (uint32_t j = 0; j < index.size(); ++j) {
    for (uint32_t k = index.inputs_begin(j); k < index.inputs_end(j); ++k) {
      if (inputs[k].node != node) continue;
      if (consumers.size() < kMaxConsumers) {
        consumers.push_back(std::string(index.name(j)));
      } else {
        ++more;
      }
      break;
    }
  }
  details["consumers"] = std::move(consumers);
  if (more > 0) details["moreConsumers"] = more;
  return details.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Model::GraphSearchJson(const std::string& options_json) {
  json given = ParseJson(options_json, /*allow_exceptions=*/false);
  if (!given.is_object() || !given.contains("query") || !given["query"].is_string()) {
    throw Error(ErrorCode::kInvalidOption, "graph search options must be {query: string}",
                ErrorLocation::OfOption("query"));
  }
  size_t limit = kDefaultSearchMatches;
  if (given.contains("limit")) {
    if (!given["limit"].is_number_unsigned() || given["limit"].get<uint64_t>() == 0) {
      throw Error(ErrorCode::kInvalidOption,
                  "graph search option 'limit' must be a positive integer",
                  ErrorLocation::OfOption("limit"));
    }
    limit = given["limit"].get<size_t>();
  }
  std::string query = LowerAscii(given["query"].get<std::string>());
  const GraphIndex& index = GraphOf(model_.get(), *family_)->Index();
  json matches = json::array();
  uint64_t total = 0;
  if (!query.empty()) {
    for (uint32_t i = 0; i < index.size(); ++i) {
      if (!ContainsLowerAscii(index.name(i), query) && !ContainsLowerAscii(index.op(i), query)) {
        continue;
      }
      if (++total <= limit) {
        matches.push_back({{"name", std::string(index.name(i))}, {"op", index.op(i)}});
      }
    }
  }
  json out = {{"query", given["query"]}, {"total", total}, {"matches", std::move(matches)}};
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Model::SummaryPageJson(const std::string& options_json) const {
  json given = ParseJson(options_json, /*allow_exceptions=*/false);
  if (!given.is_object()) {
    throw Error(ErrorCode::kInvalidOption, "summary page options must be a JSON object");
  }
  SummaryPageRequest request;
  bool has_list = false;
  for (const auto& [key, value] : given.items()) {
    bool ok = true;
    if (key == "list") {
      ok = value.is_string();
      if (ok) request.list = value.get<std::string>();
      has_list = ok;
    } else if (key == "offset") {
      ok = value.is_number_unsigned();
      if (ok) request.offset = value.get<size_t>();
    } else if (key == "limit") {
      ok = value.is_number_unsigned() && value.get<uint64_t>() > 0;
      if (ok) request.limit = value.get<size_t>();
    } else if (key == "filter") {
      ok = value.is_string();
      if (ok) request.filter = LowerAscii(value.get<std::string>());
    } else {
      throw Error(
          ErrorCode::kInvalidOption,
          "summary page option '" + Cap(key, 80) + "' is unknown (list, offset, limit, filter)",
          ErrorLocation::OfOption(key));
    }
    if (!ok) {
      throw Error(ErrorCode::kInvalidOption,
                  "summary page option '" + key + "' must be " +
                      (key == "offset"  ? "an integer of 0 or more"
                       : key == "limit" ? "a positive integer"
                                        : "a string"),
                  ErrorLocation::OfOption(key));
    }
  }
  const auto* pages = dynamic_cast<const PagesSummaryLists*>(model_.get());
  if (!has_list || pages == nullptr) {
    throw Error(ErrorCode::kInvalidOption,
                has_list ? family_->title() + " summaries have no paged list '" +
                               Cap(request.list, 80) + "'"
                         : "summary page options need the list's name: {list: 'operators'}",
                ErrorLocation::OfOption("list"));
  }
  return pages->SummaryPageJson(request);
}

std::string Model::PreviewJson(const std::string& options_json) {
  return Dump(Preview(OptionsObject(options_json, "preview")));
}

json Model::Preview(const json& options) {
  const json given = options.is_null() ? json::object() : options;
  if (!given.is_object()) {
    throw Error(ErrorCode::kInvalidOption, "preview options must be a JSON object");
  }
  GraphSource* before = GraphOf(model_.get(), *family_);
  OptionValues values =
      OptionValues::Read(family_->export_options(), model_->PreviewExportOptions(given), "export");
  MemoryOutputSet written;
  json info = model_->Export(values, &written);
  // The output is read back as any input is: what the preview compares is what a user who
  // loads the export would see.
  auto back_inputs = std::make_unique<MemoryInputSet>("the export's output");
  for (const auto& file : written.files()) back_inputs->Add(file.name, file.bytes);
  json back_options = {{"name", "the export's output"}};
  if (load_options_.is_object() && load_options_.contains("tags")) {
    back_options["tags"] = load_options_["tags"];
  }
  std::unique_ptr<Model> back = Load(std::move(back_inputs), back_options);
  GraphSource* after = GraphOf(back->model_.get(), back->family());
  GraphDiff diff = DiffGraphs(before, after, model_->PreviewRenaming(values));
  json preview = graphport::PreviewJson(diff, before, after, model_->PreviewRules(values, info));
  preview["files"] = info.value("files", json::array());
  return preview;
}

bool Model::ExportWritesFolder(const std::string& options_json) const {
  json given = ParseJson(options_json, /*allow_exceptions=*/false);
  if (given.is_discarded()) return false;
  return WritesFolder(given);
}

bool Model::WritesFolder(const json& options) const {
  return model_->WritesFolder(OptionValues::Read(family_->export_options(), options, "export"));
}

}  // namespace graphport
