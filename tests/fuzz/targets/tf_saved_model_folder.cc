// A SavedModel folder: saved_model.pb (or .pbtxt) with variables/, assets/ and fingerprint.pb,
// packed as an input container. Loaded with format "auto", inspected, exported as a SavedModel
// folder; the variables and assets must come out as they went in, and the folder must load
// back.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/input_set.h"
#include "fuzz/targets/fuzz_targets.h"
#include "fuzz/targets/input_container.h"
#include "fuzz/targets/model_checks.h"

namespace graphport::fuzz {

std::string TfSavedModelFolder(std::string_view bytes) {
  std::vector<PackedFile> files = UnpackInputs(bytes);
  std::unique_ptr<Model> model;
  std::string failure = LoadAndInspect(files, &model);
  if (!failure.empty() || model == nullptr) return failure;
  // The files that inspect lists as the folder's own must come out byte for byte.
  nlohmann::json summary = nlohmann::json::parse(model->InspectJson(), nullptr, false);
  std::map<std::string, std::string_view> given(files.begin(), files.end());
  std::string folder;
  if (summary.is_object() && summary.contains("inputs") && summary["inputs"].is_array() &&
      !summary["inputs"].empty() && summary["inputs"][0].is_string()) {
    folder = InputDirName(summary["inputs"][0].get<std::string>());
  }
  auto same_variables = [&](const MemoryOutputSet& out) -> std::string {
    if (!summary.is_object() || !summary.contains("savedModelFiles")) return "";
    std::map<std::string, std::string_view> written;
    for (const auto& file : out.files()) written[file.name] = file.bytes;
    for (const auto& part : summary["savedModelFiles"]) {
      std::string name = part.value("name", "");
      // A name that is not UTF-8 shows in the JSON summary with U+FFFD in place of its bad
      // bytes, so the summary cannot say which file it was.
      if (name.find("\xEF\xBF\xBD") != std::string::npos) continue;
      auto it = written.find(name);
      if (it == written.end()) return name + " was not passed through";
      auto in = given.find(folder.empty() ? name : folder + "/" + name);
      if (in == given.end()) return name + " was passed through but is not an input";
      if (it->second != in->second) return name + " changed on the way through";
    }
    return "";
  };
  for (const char* options :
       {R"({"to": "saved-model"})", R"({"to": "saved-model", "asText": true})"}) {
    failure = ExportLoadsBack(model.get(), options, /*whole_set=*/true, same_variables);
    if (!failure.empty()) return failure;
  }
  return "";
}

}  // namespace graphport::fuzz
