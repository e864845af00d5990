// The TensorFlow.js reader: model.json and its weight shards packed as an input container,
// loaded with format "auto", inspected, exported as a frozen GraphDef and as a TensorFlow.js
// graph model (model.json and shards); each must load back.
#include <string>
#include <string_view>

#include "fuzz/targets/fuzz_targets.h"
#include "fuzz/targets/input_container.h"
#include "fuzz/targets/model_checks.h"

namespace graphport::fuzz {

std::string Tfjs(std::string_view bytes) {
  std::unique_ptr<Model> model;
  std::string failure = LoadAndInspect(UnpackInputs(bytes), &model);
  if (!failure.empty() || model == nullptr) return failure;
  if (model->family().id() != "tfjs") return "";
  failure = ExportLoadsBack(model.get(), R"({"to": "graph-def"})", /*whole_set=*/false);
  if (failure.empty()) failure = ExportLoadsBack(model.get(), R"({"to": "tfjs"})", true);
  return failure;
}

}  // namespace graphport::fuzz
