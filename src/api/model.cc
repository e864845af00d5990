#include "api/model.h"

#include "api/families.h"
#include "api/load_options.h"
#include "core/check_output_set.h"
#include "core/error.h"
#include "core/inspect_text.h"
#include "core/json_parse.h"

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

std::string Model::ExportJson(const std::string& options_json, OutputSet* out) {
  json given =
      options_json.empty() ? json::object() : ParseJson(options_json, /*allow_exceptions=*/false);
  if (given.is_discarded()) {
    throw Error(ErrorCode::kInvalidOption, "export options must be a JSON object");
  }
  OptionValues values = OptionValues::Read(family_->export_options(), given, "export");
  json info = model_->Export(values, out);
  return info.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Model::CheckJson(const std::string& options_json) {
  json given =
      options_json.empty() ? json::object() : ParseJson(options_json, /*allow_exceptions=*/false);
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
  return report.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool Model::ExportWritesFolder(const std::string& options_json) const {
  json given = ParseJson(options_json, /*allow_exceptions=*/false);
  if (given.is_discarded()) return false;
  return model_->WritesFolder(OptionValues::Read(family_->export_options(), given, "export"));
}

}  // namespace graphport
