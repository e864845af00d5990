#include "api/preview_text.h"

#include <nlohmann/json.hpp>

#include "core/json_parse.h"

namespace graphport {
namespace {

using nlohmann::json;

// Names shown per list in the text; the JSON form (--json) has up to kPreviewNamesListed.
constexpr size_t kNamesShown = 5;

std::string Names(const json& list) {
  std::string out;
  const json& names = list.value("names", json::array());
  for (size_t i = 0; i < names.size() && i < kNamesShown; ++i) {
    out += (i == 0 ? "" : ", ") + names[i].get<std::string>();
  }
  uint64_t count = list.value("count", uint64_t{0});
  if (count > kNamesShown) out += ", ... (" + std::to_string(count - kNamesShown) + " more)";
  return out;
}

}  // namespace

std::string PreviewText(json p) {  // a copy: operator[] reads absent keys as null
  if (!p.is_object()) return "export preview: not a preview\n";
  const json& nodes = p["nodes"];
  std::string out = "export preview: " + std::to_string(nodes.value("before", 0)) + " nodes -> " +
                    std::to_string(nodes.value("after", 0)) + " (" +
                    std::to_string(p["dropped"].value("count", 0)) + " dropped, " +
                    std::to_string(p["changed"].value("count", 0)) + " changed, " +
                    std::to_string(p["added"].value("count", 0)) + " added); nothing written\n";
  const json& options = p.value("options", json::array());
  if (options.empty()) out += "  no option changes the graph\n";
  for (const json& o : options) {
    out += "  " + o.value("text", o.value("label", "")) + "\n";
    for (const char* list : {"dropped", "changed", "added"}) {
      if (o.contains(list) && o[list].value("count", 0) > 0) {
        out += "    " + std::string(list) + ": " + Names(o[list]) + "\n";
      }
    }
  }
  return out;
}

std::string PreviewText(const std::string& preview_json) {
  return PreviewText(ParseJson(preview_json));
}

}  // namespace graphport
