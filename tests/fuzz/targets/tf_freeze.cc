// A SavedModel folder with its checkpoint, packed as an input container, frozen: exported to
// TF.js (which freezes a graph with variables; refused when TF.js cannot run an op) and to a
// frozen GraphDef, for the default signature and for the first one the model lists. Each
// export either works and loads back, or is refused with a graphport error that is not
// INTERNAL: a damaged function body, object graph or checkpoint must never crash the freeze.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/targets/fuzz_targets.h"
#include "fuzz/targets/input_container.h"
#include "fuzz/targets/model_checks.h"

namespace graphport::fuzz {

std::string TfFreeze(std::string_view bytes) {
  std::vector<PackedFile> files = UnpackInputs(bytes);
  std::unique_ptr<Model> model;
  std::string failure = LoadAndInspect(files, &model);
  if (!failure.empty() || model == nullptr) return failure;
  std::vector<std::string> signatures = {"serving_default"};
  nlohmann::json summary = nlohmann::json::parse(model->InspectJson(), nullptr, false);
  if (summary.is_object() && summary.contains("signatures") && summary["signatures"].is_array() &&
      !summary["signatures"].empty() && summary["signatures"][0].is_object()) {
    std::string key = summary["signatures"][0].value("name", "");
    if (!key.empty() && key != signatures[0]) signatures.push_back(key);
  }
  for (const std::string& signature : signatures) {
    // Without allowUnsupportedOps: a model written with ops TF.js lacks may hold TensorFlow ops
    // that graphport's TF.js reader does not know either (ParseExample), so it would not load
    // back; the pre-flight's refusal is the answer here.
    nlohmann::json options = {{"signature", signature}, {"to", "tfjs"}};
    failure = ExportLoadsBack(model.get(), options.dump(), /*whole_set=*/true);
    if (!failure.empty()) return failure;
    options = {{"signature", signature}, {"to", "graph-def"}, {"freeze", true}};
    failure = ExportLoadsBack(model.get(), options.dump(), /*whole_set=*/false);
    if (!failure.empty()) return failure;
  }
  return "";
}

}  // namespace graphport::fuzz
