// The MegEngine reader: a dump loaded with format "auto", inspected, and dumped again as
// FBS_V2, as FBS, and as FBS compatible with MegEngine 8.14, each with strip info and
// optimized as Network.dump optimizes by default; then with the ConvBias fusions and kept
// priorities, with each float16 conversion (io16xc32, ioc16), and kept as loaded. Each dump must
// load back, and its strip info must be JSON.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "fuzz/targets/fuzz_targets.h"
#include "fuzz/targets/model_checks.h"

namespace graphport::fuzz {
namespace {

constexpr char kStripInfo[] = "strip_info.json";

std::string StripInfoIsJson(const MemoryOutputSet& out) {
  for (const auto& file : out.files()) {
    if (file.name != kStripInfo) continue;
    if (nlohmann::json::parse(file.bytes, nullptr, /*allow_exceptions=*/false).is_discarded()) {
      return std::string(kStripInfo) + " is not JSON";
    }
    return "";
  }
  return std::string("no ") + kStripInfo + " was written";
}

}  // namespace

std::string Mge(std::string_view bytes) {
  std::unique_ptr<Model> model;
  std::string failure = LoadAndInspect({{"model.mge", bytes}}, &model);
  if (!failure.empty() || model == nullptr) return failure;
  // Bytes that another family reads are that family's target's business.
  if (model->family().id() != "megengine") return "";
  for (
      const char* options : {
          R"({"dumpFormat": "FBS_V2", "stripInfoFile": "strip_info.json"})",
          R"({"dumpFormat": "FBS", "stripInfoFile": "strip_info.json"})",
          R"({"dumpFormat": "FBS", "compatOlderVersion": "8.14", "stripInfoFile": "strip_info.json"})",
          R"({"enableFuseConvBiasWithZ": true, "keepOprPriority": true, "stripInfoFile": "strip_info.json"})",
          R"({"enableIo16xc32": true, "stripInfoFile": "strip_info.json"})",
          R"({"dumpFormat": "FBS", "enableIoc16": true, "stripInfoFile": "strip_info.json"})",
          R"({"enableNchw44": true, "stripInfoFile": "strip_info.json"})",
          R"({"dumpFormat": "FBS", "enableNchw88": true, "stripInfoFile": "strip_info.json"})",
          R"({"dumpFormat": "FBS", "asLoaded": true, "stripInfoFile": "strip_info.json"})",
      }) {
    failure = ExportLoadsBack(model.get(), options, /*whole_set=*/false, StripInfoIsJson);
    if (!failure.empty()) return failure;
  }
  return "";
}

}  // namespace graphport::fuzz
