#include "tf/summary_text.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "core/op_histogram.h"

// Built with std::string, not an ostringstream: iostreams pull libc++'s locale machinery
// (about 70 KB) into the WebAssembly module.
namespace graphport::tf {
namespace {

constexpr size_t kTopScopes = 8;

std::string Join(const nlohmann::json& list) {
  std::string out;
  for (const auto& item : list) out += (out.empty() ? "" : ", ") + item.get<std::string>();
  return out;
}

std::string Str(const nlohmann::json& value) { return value.get<std::string>(); }

template <typename T>
std::string Num(const nlohmann::json& value) {
  return std::to_string(value.get<T>());
}

}  // namespace

std::string TfSummaryText(nlohmann::json s) {
  std::string out;
  const auto& p = s["producer"];
  out += "producer:    graph producer " + Num<int>(p["graphProducer"]) + ", min consumer " +
         Num<int>(p["minConsumer"]);
  if (p.contains("tensorflowVersion") && !Str(p["tensorflowVersion"]).empty()) {
    out += ", TensorFlow " + Str(p["tensorflowVersion"]);
  }
  out += "\n";
  if (!s["tags"].empty()) out += "tags:        " + Join(s["tags"]) + "\n";
  out += "nodes:       " + Num<int>(s["nodeCount"]) + " (" + std::to_string(s["ops"].size()) +
         " ops)\n";

  out += OpHistogramText(s["ops"], " ops");
  out += "constants:   " + Num<uint64_t>(s["constants"]["count"]) + " (" +
         Num<uint64_t>(s["constants"]["bytes"]) + " bytes)\n";

  if (s.contains("variables")) {
    uint64_t shards = s["variableShards"].get<uint64_t>();
    out += "variables:   " + std::to_string(s["variables"].size()) + " (" +
           Num<uint64_t>(s["variableBytes"]) + " bytes) in " + std::to_string(shards) +
           (shards == 1 ? " shard\n" : " shards\n");
  } else if (s.contains("variablesError")) {
    out += "variables:   unreadable: " + Str(s["variablesError"]) + "\n";
  }

  // The top-level scopes, for --export-scope.
  out += "scopes:      " + Num<uint64_t>(s["scopeCount"]);
  std::vector<std::string> top;
  for (const auto& scope : s["scopes"]) {
    std::string name = Str(scope["name"]);
    if (name.find('/') == std::string::npos) top.push_back(name);
  }
  for (size_t i = 0; i < top.size() && i < kTopScopes; ++i)
    out += (i ? ", " : " (top level: ") + top[i];
  if (top.size() > kTopScopes) out += ", ... " + std::to_string(top.size() - kTopScopes) + " more";
  out += top.empty() ? "\n" : ")\n";

  out += "functions:   " + std::to_string(s["functions"].size()) + "\n";
  out += "collections: " + std::to_string(s["collections"].size()) + "\n";
  for (const auto& c : s["collections"]) {
    out += "  " + Str(c["name"]) + " (" + Str(c["kind"]) + ", " + Num<int>(c["size"]) + ")\n";
  }
  out += "signatures:  " + std::to_string(s["signatures"].size()) + "\n";
  for (const auto& sig : s["signatures"]) {
    out += "  " + Str(sig["name"]) + " (" + Str(sig["methodName"]) + ", " +
           std::to_string(sig["inputs"].size()) + " in, " + std::to_string(sig["outputs"].size()) +
           " out)\n";
  }
  if (s["metaGraphs"].size() > 1) {
    out += "meta graphs: " + std::to_string(s["metaGraphs"].size()) + " (selected #" +
           Num<int>(s["selectedMetaGraph"]) + ")\n";
    for (const auto& mg : s["metaGraphs"]) {
      out += "  [" + Join(mg["tags"]) + "] " + Num<int>(mg["nodeCount"]) + " nodes\n";
    }
  }
  return out;
}

}  // namespace graphport::tf
