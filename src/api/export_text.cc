#include "api/export_text.h"

namespace graphport {
namespace {

void AppendLines(const nlohmann::json& info, const char* key, const std::string& lead,
                 std::string* out) {
  auto list = info.find(key);
  if (list == info.end() || !list->is_array()) return;
  for (const auto& line : *list) {
    if (line.is_string()) *out += lead + line.get<std::string>() + "\n";
  }
}

}  // namespace

std::string ExportText(const nlohmann::json& info) {
  std::string out;
  AppendLines(info, "warnings", "graphport: warning: ", &out);
  AppendLines(info, "notes", "graphport: note: ", &out);
  return out;
}

}  // namespace graphport
