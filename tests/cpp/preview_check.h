// The check the export preview exists for: export for real, read the output back, diff the two
// graphs node by node with this file's own walk and comparison, and hold the preview's dropped,
// changed and added nodes to exactly that diff. A preview that disagrees with its export fails
// here. Used by the per-family preview tests (tests/cpp/api/preview_*_test.cc).
#ifndef GRAPHPORT_TESTS_CPP_PREVIEW_CHECK_H_
#define GRAPHPORT_TESTS_CPP_PREVIEW_CHECK_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "api/model.h"
#include "core/input_set.h"
#include "core/output_set.h"
#include "test_util.h"

namespace graphport::testing {

// A folder's files (or one file) held in memory for Model::Load: the bytes outlive the set.
struct HeldInputs {
  std::map<std::string, std::string> bytes;
  std::unique_ptr<MemoryInputSet> Set(const std::string& label) const {
    auto set = std::make_unique<MemoryInputSet>(label);
    for (const auto& [name, b] : bytes) set->Add(name, b);
    return set;
  }
};

inline HeldInputs ReadInputs(const fs::path& path) {
  HeldInputs held;
  if (!fs::is_directory(path)) {
    held.bytes[path.filename().string()] = ReadFile(path);
    return held;
  }
  for (const auto& entry : fs::recursive_directory_iterator(path)) {
    if (!entry.is_regular_file()) continue;
    held.bytes[fs::relative(entry.path(), path).generic_string()] = ReadFile(entry.path());
  }
  return held;
}

// Every node name of the model's graph, found by expanding each group of model.graph().
inline void CollectNodes(Model* model, const std::string& group, std::set<std::string>* out) {
  nlohmann::json level = nlohmann::json::parse(
      model->GraphJson(nlohmann::json{{"group", group}, {"limit", 1000000}}.dump()));
  for (const auto& child : level["children"]) {
    if (child["kind"] == "group") {
      CollectNodes(model, child["name"], out);
    } else {
      out->insert(child["name"].get<std::string>());
    }
  }
}

// What a node is, as this test compares it: op, device, attrs or params, inputs as
// [^]producer[:output] (producers named as in the output), and an operator's tensors.
inline nlohmann::json NodeFacts(Model* model, const std::string& name,
                                const std::function<std::string(const std::string&)>& rename) {
  nlohmann::json d = nlohmann::json::parse(model->NodeJson(name));
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& in : d["inputs"]) {
    std::string producer = in.contains("node") ? in["node"].get<std::string>() : "";
    if (rename && !in.value("missing", false)) {
      std::string renamed = rename(producer);
      if (!renamed.empty()) producer = renamed;
    }
    inputs.push_back({in.value("control", false), producer, in.value("output", 0)});
  }
  nlohmann::json out = {{"op", d["op"]},
                        {"device", d.value("device", nlohmann::json(""))},
                        {"attrs", d.contains("attrs") ? d["attrs"] : d["params"]},
                        {"inputs", inputs}};
  if (d.contains("tensors")) out["tensors"] = d["tensors"];
  return out;
}

struct NodeSets {
  std::set<std::string> dropped, changed, added;
};

// Exports `model` with `options` for real and diffs the output read back against it.
// `rename` maps an input name to its output name ("" when the export cannot keep it).
inline NodeSets DiffRealExport(Model* model, const nlohmann::json& options,
                               const std::function<std::string(const std::string&)>& rename) {
  MemoryOutputSet out;
  model->ExportJson(options.dump(), &out);
  HeldInputs held;
  for (const auto& file : out.files()) held.bytes[file.name] = file.bytes;
  std::unique_ptr<Model> back = Model::Load(held.Set("exported"), nlohmann::json::object());
  std::set<std::string> before, after;
  CollectNodes(model, "", &before);
  CollectNodes(back.get(), "", &after);
  NodeSets sets;
  std::set<std::string> matched;
  for (const std::string& name : before) {
    std::string out_name = rename ? rename(name) : name;
    if (out_name.empty() || after.count(out_name) == 0) {
      sets.dropped.insert(name);
      continue;
    }
    matched.insert(out_name);
    if (out_name != name ||
        NodeFacts(model, name, rename) != NodeFacts(back.get(), out_name, nullptr)) {
      sets.changed.insert(out_name);
    }
  }
  for (const std::string& name : after) {
    if (matched.count(name) == 0) sets.added.insert(name);
  }
  return sets;
}

inline std::set<std::string> Names(const nlohmann::json& list) {
  std::set<std::string> names;
  for (const auto& n : list["names"]) names.insert(n.get<std::string>());
  return names;
}

// The preview of `options`, held to the real export's diff; returns the preview.
inline nlohmann::json ExpectPreviewMatchesExport(
    Model* model, const nlohmann::json& options,
    const std::function<std::string(const std::string&)>& rename = nullptr) {
  nlohmann::json preview = nlohmann::json::parse(model->PreviewJson(options.dump()));
  NodeSets real = DiffRealExport(model, options, rename);
  EXPECT_EQ(Names(preview["dropped"]), real.dropped) << options.dump();
  EXPECT_EQ(Names(preview["added"]), real.added) << options.dump();
  std::set<std::string> changed;
  for (const auto& c : preview["changed"]["nodes"]) changed.insert(c["name"].get<std::string>());
  EXPECT_EQ(changed, real.changed) << options.dump();
  EXPECT_EQ(preview["dropped"]["count"], real.dropped.size());
  EXPECT_EQ(preview["changed"]["count"], real.changed.size());
  EXPECT_EQ(preview["added"]["count"], real.added.size());
  // Every difference belongs to exactly one option entry (or to the export itself).
  uint64_t dropped = 0, added = 0;
  for (const auto& o : preview["options"]) {
    dropped += o["dropped"]["count"].get<uint64_t>();
    added += o["added"]["count"].get<uint64_t>();
  }
  EXPECT_EQ(dropped, real.dropped.size());
  EXPECT_EQ(added, real.added.size());
  return preview;
}

// The entry of `option` in the preview, or null.
inline nlohmann::json OptionEntry(const nlohmann::json& preview, const std::string& option) {
  for (const auto& o : preview["options"]) {
    if (o["option"] == option) return o;
  }
  return nullptr;
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_PREVIEW_CHECK_H_
