#include "tf/preview_rules.h"

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tf/meta_graph/scope.h"
#include "tf/option_names.h"

namespace graphport::tf {
namespace {

using nlohmann::json;

bool Given(const OptionValues& options, const char* name) {
  return options.schema()->Find(name) != nullptr && options.Has(name);
}

// A rule that claims these kinds of change and nothing else.
PreviewRule Claims(const std::string& option, const std::string& label,
                   std::vector<std::string> changes) {
  PreviewRule rule;
  rule.option = option;
  rule.label = label;
  rule.changes = std::move(changes);
  return rule;
}

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

PreviewRename TfPreviewRenaming(const OptionValues& options) {
  std::string scope_name = options.String(option::kExportScope);
  if (scope_name.empty()) return {};
  auto scope = std::make_shared<Scope>(scope_name);
  if (scope->empty()) return {};
  return [scope](std::string_view name) {
    return scope->Contains(name) ? scope->Strip(name) : std::string();
  };
}

std::vector<PreviewRule> TfPreviewRules(const OptionValues& options, const json& info) {
  std::vector<PreviewRule> rules;
  std::string scope_name = options.String(option::kExportScope);
  if (!scope_name.empty()) {
    auto scope = std::make_shared<Scope>(scope_name);
    PreviewRule rule;
    rule.option = option::kExportScope;
    rule.label = "exportScope '" + scope->name() + "'";
    rule.drops = [scope](std::string_view name, const std::string&) {
      return !scope->Contains(name);
    };
    // Inside the scope every node is renamed, and an input from outside becomes an unbound
    // input ("$unbound_inputs_x").
    rule.changes = {change::kRenamed, change::kInputsChanged};
    rule.counts_kept = true;
    size_t signatures = 0;
    bool saver = false;
    for (const json& dropped : info.value("droppedReferences", json::array())) {
      std::string what = dropped.value("what", "");
      if (what.rfind("signature_def", 0) == 0) ++signatures;
      if (what == "saver_def") saver = true;
    }
    rule.facts = {{"signaturesDropped", signatures}, {"saverDropped", saver}};
    if (signatures > 0) rule.note = Plural(signatures, "signature dropped", "signatures dropped");
    if (saver) rule.note += std::string(rule.note.empty() ? "" : ", ") + "the saver dropped";
    rules.push_back(std::move(rule));
  }
  if (options.Bool(option::kClearExtraneousSavers)) {
    auto excluded = std::make_shared<std::set<std::string, std::less<>>>();
    for (const json& name : info.value("excludedNodes", json::array())) {
      if (name.is_string()) excluded->insert(name.get<std::string>());
    }
    PreviewRule rule;
    rule.option = option::kClearExtraneousSavers;
    rule.label = "clearExtraneousSavers";
    rule.drops = [excluded](std::string_view name, const std::string&) {
      return excluded->count(name) != 0;
    };
    rules.push_back(std::move(rule));
  }
  if (options.Bool(option::kClearDevices)) {
    rules.push_back(Claims(option::kClearDevices, "clearDevices", {change::kDeviceCleared}));
  }
  if (options.Bool(option::kStripDefaultAttrs)) {
    rules.push_back(
        Claims(option::kStripDefaultAttrs, "stripDefaultAttrs", {change::kAttrsStripped}));
  }
  const bool unfuse = Given(options, "unfuseOps") && options.Bool("unfuseOps");
  if (unfuse) {
    // Unfusing rewrites a fused op into the ops it stands for: the fused node keeps its name as
    // the last of them, and the others are new.
    PreviewRule rule = Claims("unfuseOps", "unfuseOps",
                              {change::kOpChanged, change::kAttrsChanged, change::kAttrsStripped,
                               change::kAttrsAdded, change::kInputsChanged});
    rule.adds = true;
    rules.push_back(std::move(rule));
  }
  if (info.contains("frozen") && info["frozen"].is_object()) {
    const json& frozen = info["frozen"];
    const bool optimized = frozen.contains("optimized") && !frozen["optimized"].is_null();
    PreviewRule rule;
    rule.option = option::kFreeze;
    rule.label = optimized ? "freeze (optimize on)" : "freeze";
    rule.drops = [](std::string_view, const std::string&) { return true; };
    rule.changes = {change::kOpChanged,    change::kValueChanged,  change::kInputsChanged,
                    change::kAttrsChanged, change::kAttrsStripped, change::kAttrsAdded};
    rule.adds = true;
    for (const char* key : {"signature", "variables", "nodesPruned", "inlinedCalls",
                            "readsMadeIdentity", "gathersRewritten"}) {
      if (frozen.contains(key)) rule.facts[key] = frozen[key];
    }
    rule.facts["optimized"] = optimized;
    rules.push_back(std::move(rule));
  }
  if (Given(options, "quantize") && !options.String("quantize").empty()) {
    rules.push_back(
        Claims("quantize", "quantize " + options.String("quantize"), {change::kValueChanged}));
  }
  return rules;
}

}  // namespace graphport::tf
