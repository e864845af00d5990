#include "core/export_preview.h"

#include <algorithm>
#include <map>

namespace graphport {
namespace {

using nlohmann::json;

std::string InputText(const json& input, const PreviewRename& rename) {
  std::string node = input.value("node", input.value("name", std::string()));
  if (rename && !input.value("missing", false)) {
    std::string renamed = rename(node);
    if (!renamed.empty()) node = std::move(renamed);
  }
  std::string out = input.value("control", false) ? "^" + node : node;
  uint64_t output = input.value("output", uint64_t{0});
  if (output != 0) out += ":" + std::to_string(output);
  return out;
}

const json& Field(const json& object, const char* key) {
  static const json kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

// Names of up to kPreviewNamesListed nodes, with how many there are.
template <typename Name>
json NameList(size_t count, size_t listed, Name name_of) {
  json names = json::array();
  for (size_t i = 0; i < listed && i < kPreviewNamesListed; ++i) names.push_back(name_of(i));
  return {{"count", count}, {"names", std::move(names)}};
}

std::string Counted(uint64_t n, const char* what, bool first) {
  std::string text = std::to_string(n) + " ";
  if (first) text += n == 1 ? "node " : "nodes ";
  return text + what;
}

}  // namespace

json PreviewNodeContent(const json& details, const PreviewRename& rename) {
  json inputs = json::array();
  for (const json& input : Field(details, "inputs")) inputs.push_back(InputText(input, rename));
  json attrs = details.contains("attrs") ? Field(details, "attrs") : Field(details, "params");
  if (attrs.is_array()) {
    // MegEngine's params are a list: compared by position.
    json by_position = json::object();
    for (size_t k = 0; k < attrs.size(); ++k) by_position[std::to_string(k)] = attrs[k];
    attrs = std::move(by_position);
  }
  json out = {{"op", Field(details, "op")},
              {"device", details.value("device", json(""))},
              {"attrs", attrs.is_object() ? attrs : json::object()},
              {"inputs", std::move(inputs)}};
  if (details.contains("tensors")) out["tensors"] = details["tensors"];
  return out;
}

GraphDiff DiffGraphs(GraphSource* before, GraphSource* after, const PreviewRename& rename) {
  const GraphIndex& in = before->Index();
  const GraphIndex& out = after->Index();
  GraphDiff diff;
  diff.nodes_before = in.size();
  diff.nodes_after = out.size();
  std::vector<bool> matched(out.size(), false);
  for (uint32_t i = 0; i < in.size(); ++i) {
    std::string name(in.name(i));
    std::string out_name = rename ? rename(name) : name;
    int64_t found = out_name.empty() ? -1 : out.Find(out_name);
    if (found < 0) {
      diff.dropped.push_back(i);
      continue;
    }
    auto j = static_cast<uint32_t>(found);
    matched[j] = true;
    if (!rename) {
      // Inputs are compared by name: with no renaming, equal bytes are an unchanged node.
      std::string_view record = before->NodeRecord(i);
      if (!record.empty() && record == after->NodeRecord(j)) continue;
    }
    json a = PreviewNodeContent(before->NodeContent(i), rename);
    json b = PreviewNodeContent(after->NodeContent(j), nullptr);
    NodeChange c{i, j, {}, {}};
    if (out_name != name) {
      c.kinds.push_back(change::kRenamed);
      ++diff.renamed;
    }
    const std::string device_a = a["device"].is_string() ? a["device"].get<std::string>() : "";
    const std::string device_b = b["device"].is_string() ? b["device"].get<std::string>() : "";
    if (a["device"] != b["device"]) {
      c.kinds.push_back(!device_a.empty() && device_b.empty() ? change::kDeviceCleared
                                                              : change::kDeviceChanged);
    }
    bool removed = false, added = false, changed = false, value = false;
    for (const auto& [key, v] : a["attrs"].items()) {
      auto it = b["attrs"].find(key);
      if (it == b["attrs"].end()) {
        removed = true;
      } else if (*it == v) {
        continue;
      } else if (key == "value") {
        value = true;
      } else {
        changed = true;
      }
      c.attrs.push_back(key);
    }
    for (const auto& [key, v] : b["attrs"].items()) {
      if (a["attrs"].contains(key)) continue;
      added = true;
      c.attrs.push_back(key);
    }
    if (removed) c.kinds.push_back(change::kAttrsStripped);
    if (added) c.kinds.push_back(change::kAttrsAdded);
    if (changed) c.kinds.push_back(change::kAttrsChanged);
    if (value) c.kinds.push_back(change::kValueChanged);
    if (a["op"] != b["op"]) c.kinds.push_back(change::kOpChanged);
    if (a["inputs"] != b["inputs"]) c.kinds.push_back(change::kInputsChanged);
    if (Field(a, "tensors") != Field(b, "tensors")) c.kinds.push_back(change::kTensorsChanged);
    if (!c.kinds.empty()) diff.changed.push_back(std::move(c));
  }
  for (uint32_t j = 0; j < out.size(); ++j) {
    if (!matched[j]) diff.added.push_back(j);
  }
  return diff;
}

json PreviewJson(const GraphDiff& diff, GraphSource* before, GraphSource* after,
                 const std::vector<PreviewRule>& rules) {
  const GraphIndex& in = before->Index();
  const GraphIndex& out = after->Index();
  // What each rule (and, last, the export itself) claimed.
  struct Claimed {
    std::vector<uint32_t> dropped, added;
    std::vector<const NodeChange*> changed;
    std::map<std::string, uint64_t> kinds;
  };
  std::vector<Claimed> claimed(rules.size() + 1);
  const size_t kExport = rules.size();
  for (uint32_t i : diff.dropped) {
    size_t r = 0;
    while (r < rules.size() && !(rules[r].drops && rules[r].drops(in.name(i), in.op(i)))) ++r;
    claimed[r].dropped.push_back(i);
  }
  for (uint32_t j : diff.added) {
    size_t r = 0;
    while (r < rules.size() && !rules[r].adds) ++r;
    claimed[r].added.push_back(j);
  }
  for (const NodeChange& c : diff.changed) {
    std::vector<bool> counted(rules.size() + 1, false);
    for (const std::string& kind : c.kinds) {
      size_t r = 0;
      while (r < rules.size() && std::find(rules[r].changes.begin(), rules[r].changes.end(),
                                           kind) == rules[r].changes.end()) {
        ++r;
      }
      ++claimed[r].kinds[kind];
      if (!counted[r]) claimed[r].changed.push_back(&c);
      counted[r] = true;
    }
  }

  auto in_name = [&](uint32_t i) { return std::string(in.name(i)); };
  auto out_name = [&](uint32_t j) { return std::string(out.name(j)); };
  json options = json::array();
  for (size_t r = 0; r <= rules.size(); ++r) {
    const Claimed& got = claimed[r];
    bool is_export = r == kExport;
    const PreviewRule* rule = is_export ? nullptr : &rules[r];
    bool has_note = rule != nullptr && !rule->note.empty();
    if (got.dropped.empty() && got.added.empty() && got.changed.empty() && !has_note) continue;
    std::string label = is_export ? "export" : rule->label;
    json entry = {{"option", is_export ? "export" : rule->option}, {"label", label}};
    std::vector<std::string> parts;
    if (rule != nullptr && rule->counts_kept) {
      uint64_t kept = diff.nodes_before - diff.dropped.size();
      entry["kept"] = kept;
      parts.push_back(Counted(kept, "kept", parts.empty()));
    }
    entry["dropped"] = NameList(got.dropped.size(), got.dropped.size(),
                                [&](size_t k) { return in_name(got.dropped[k]); });
    if (!got.dropped.empty())
      parts.push_back(Counted(got.dropped.size(), "dropped", parts.empty()));
    json kinds = json::object();
    for (const auto& [kind, n] : got.kinds) kinds[kind] = n;
    entry["changed"] = NameList(got.changed.size(), got.changed.size(),
                                [&](size_t k) { return out_name(got.changed[k]->after); });
    entry["changed"]["kinds"] = std::move(kinds);
    if (!got.changed.empty())
      parts.push_back(Counted(got.changed.size(), "changed", parts.empty()));
    entry["added"] = NameList(got.added.size(), got.added.size(),
                              [&](size_t k) { return out_name(got.added[k]); });
    if (!got.added.empty()) parts.push_back(Counted(got.added.size(), "added", parts.empty()));
    if (has_note) parts.push_back(rule->note);
    std::string text = label + ":";
    for (size_t k = 0; k < parts.size(); ++k) text += (k == 0 ? " " : ", ") + parts[k];
    if (parts.empty()) text += " no change";
    entry["text"] = std::move(text);
    entry["facts"] = rule != nullptr ? rule->facts : json::object();
    options.push_back(std::move(entry));
  }

  json changed = json::array();
  for (size_t k = 0; k < diff.changed.size() && k < kPreviewNamesListed; ++k) {
    const NodeChange& c = diff.changed[k];
    json item = {{"name", out_name(c.after)}, {"changes", c.kinds}};
    if (in.name(c.before) != out.name(c.after)) item["was"] = in_name(c.before);
    if (!c.attrs.empty()) item["attrs"] = c.attrs;
    changed.push_back(std::move(item));
  }
  return {{"nodes", {{"before", diff.nodes_before}, {"after", diff.nodes_after}}},
          {"dropped", NameList(diff.dropped.size(), diff.dropped.size(),
                               [&](size_t k) { return in_name(diff.dropped[k]); })},
          {"changed", {{"count", diff.changed.size()}, {"nodes", std::move(changed)}}},
          {"added", NameList(diff.added.size(), diff.added.size(),
                             [&](size_t k) { return out_name(diff.added[k]); })},
          {"options", std::move(options)}};
}

std::vector<ResultType> PreviewResultTypes(const std::string& prefix,
                                           const std::vector<ResultField>& facts) {
  std::vector<ResultField> optional_facts;
  for (ResultField field : facts) optional_facts.push_back(Optional(std::move(field)));
  const std::string kinds = Literals(
      {change::kRenamed, change::kDeviceCleared, change::kDeviceChanged, change::kAttrsStripped,
       change::kAttrsAdded, change::kAttrsChanged, change::kValueChanged, change::kOpChanged,
       change::kInputsChanged, change::kTensorsChanged});
  return {
      {prefix + "ExportPreview",
       "What an export with these options would do to the graph (model.preview(), graphport "
       "export --dry-run): the output read back and compared with the input by node name and "
       "content. Nothing is written.",
       {{"nodes", "PreviewNodeCounts", "Nodes before and after."},
        {"dropped", "PreviewNameList", "Nodes of the input the output lacks, by input name."},
        {"changed", "PreviewChanges", "Nodes kept but changed."},
        {"added", "PreviewNameList", "Nodes of the output the input lacks."},
        {"options", prefix + "PreviewOption[]",
         "Each option that changed the graph, in the order the export applies them; \"export\" "
         "last for what no option claims (the writer's own doing)."},
        {"files", "string[]", "The files the export would write."}}},
      {prefix + "PreviewOption",
       "What one export option does to the graph.",
       {{"facts", prefix + "PreviewFacts", "What else it has to say."}},
       "",
       {"PreviewOptionEffect"}},
      {"PreviewOptionEffect",
       "What one export option does to the nodes, in any family.",
       {{"option", "string", "The option's name, or \"export\"."},
        {"label", "string", "How the preview names it: \"exportScope 'a'\"."},
        {"text", "string", "Its line for people: \"clearDevices: 89 nodes changed\"."},
        Optional({"kept", "number", "Nodes it kept (an export scope)."}),
        {"dropped", "PreviewNameList", "The nodes it drops, by input name."},
        {"changed", "PreviewOptionChanges", "The nodes it changes, by output name."},
        {"added", "PreviewNameList", "The nodes it adds."}}},
      {prefix + "PreviewFacts", "What an option of this family says besides its node counts.",
       optional_facts},
      {"PreviewNodeCounts",
       "Node counts.",
       {{"before", "number", "In the input."}, {"after", "number", "In the output."}}},
      {"PreviewNameList",
       "Node names: the first 1,000, and how many there are.",
       {{"count", "number", "How many."}, {"names", "string[]", "The first 1,000."}}},
      {"PreviewChanges",
       "The changed nodes: the first 1,000 with what changed, and how many there are.",
       {{"count", "number", "How many."}, {"nodes", "PreviewNodeChange[]", "The first 1,000."}}},
      {"PreviewNodeChange",
       "One changed node.",
       {{"name", "string", "Its name in the output."},
        {"changes", "PreviewChangeKind[]", "What changed."},
        Optional({"was", "string", "Its name in the input, when renamed."}),
        Optional({"attrs", "string[]", "The attrs (or params) removed, added or changed."})}},
      {"PreviewOptionChanges",
       "The nodes one option changes.",
       {{"count", "number", "How many."},
        {"names", "string[]", "The first 1,000, by output name."},
        {"kinds", "Record<string, number>", "Nodes by kind of change."}}},
      {"PreviewChangeKind", "A kind of change.", {}, kinds},
  };
}

}  // namespace graphport
