#include "mge/preview_rules.h"

#include <string>

namespace graphport::mge {

using nlohmann::json;

json MgePreviewExportOptions(json given) {
  given["keepOprName"] = true;
  return given;
}

std::vector<PreviewRule> MgePreviewRules(const OptionValues& /*options*/, const json& info) {
  std::vector<PreviewRule> rules;
  const json& optimized = info.contains("optimized") ? info["optimized"] : json();
  // With no pass that changed the graph, what differs is the writer's own doing (a
  // compatibility rewrite, type names of the dump format): the export's, not the passes'.
  if (!optimized.is_object() || optimized.value("passes", json::array()).empty()) return rules;
  PreviewRule rule;
  rule.option = "optimizeForInference";
  rule.label = "optimizeForInference";
  // Every pass removes, makes and rewires operators; the passes that changed anything are
  // named in the facts, in order.
  rule.drops = [](std::string_view, const std::string&) { return true; };
  rule.changes = {change::kOpChanged,     change::kAttrsChanged,  change::kAttrsAdded,
                  change::kAttrsStripped, change::kInputsChanged, change::kTensorsChanged,
                  change::kValueChanged};
  rule.adds = true;
  json passes = json::array();
  for (const json& pass : optimized.value("passes", json::array())) {
    passes.push_back(pass.value("pass", ""));
  }
  rule.facts = {{"passes", optimized.value("passes", json::array())},
                {"operators", optimized.value("operators", json::object())}};
  if (!passes.empty()) {
    std::string names;
    for (const json& p : passes) names += (names.empty() ? "" : ", ") + p.get<std::string>();
    rule.note = "passes " + names;
  }
  rules.push_back(std::move(rule));
  return rules;
}

}  // namespace graphport::mge
