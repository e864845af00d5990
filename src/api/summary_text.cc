#include "api/summary_text.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

namespace graphport {
namespace {

constexpr size_t kTopOps = 12;
constexpr size_t kTopScopes = 8;

std::string Join(const nlohmann::json& list) {
  std::string out;
  for (const auto& item : list) out += (out.empty() ? "" : ", ") + item.get<std::string>();
  return out;
}

}  // namespace

std::string SummaryText(const std::string& inspect_json) {
  nlohmann::json s = nlohmann::json::parse(inspect_json);
  std::ostringstream out;
  out << "family:      " << s["family"].get<std::string>() << "\n";
  out << "format:      " << s["format"].get<std::string>() << " ("
      << s["encoding"].get<std::string>() << ", " << s["inputBytes"].get<uint64_t>()
      << " bytes)\n";
  const auto& p = s["producer"];
  out << "producer:    graph producer " << p["graphProducer"].get<int>() << ", min consumer "
      << p["minConsumer"].get<int>();
  if (p.contains("tensorflowVersion") && !p["tensorflowVersion"].get<std::string>().empty()) {
    out << ", TensorFlow " << p["tensorflowVersion"].get<std::string>();
  }
  out << "\n";
  if (!s["tags"].empty()) out << "tags:        " << Join(s["tags"]) << "\n";
  out << "nodes:       " << s["nodeCount"].get<int>() << " (" << s["ops"].size() << " ops)\n";

  std::vector<std::pair<int, std::string>> ops;
  for (const auto& [op, count] : s["ops"].items()) ops.emplace_back(count.get<int>(), op);
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < ops.size() && i < kTopOps; ++i) {
    out << "  " << ops[i].second << std::string(ops[i].second.size() < 28 ? 28 - ops[i].second.size() : 1, ' ')
        << ops[i].first << "\n";
  }
  if (ops.size() > kTopOps) out << "  ... " << ops.size() - kTopOps << " more ops\n";
  out << "constants:   " << s["constants"]["count"].get<uint64_t>() << " ("
      << s["constants"]["bytes"].get<uint64_t>() << " bytes)\n";
  // The top-level scopes, for --export-scope.
  out << "scopes:      " << s["scopeCount"].get<uint64_t>();
  std::vector<std::string> top;
  for (const auto& scope : s["scopes"]) {
    std::string name = scope["name"].get<std::string>();
    if (name.find('/') == std::string::npos) top.push_back(name);
  }
  for (size_t i = 0; i < top.size() && i < kTopScopes; ++i) out << (i ? ", " : " (top level: ") << top[i];
  if (top.size() > kTopScopes) out << ", ... " << top.size() - kTopScopes << " more";
  out << (top.empty() ? "\n" : ")\n");
  out << "functions:   " << s["functions"].size() << "\n";
  out << "collections: " << s["collections"].size() << "\n";
  for (const auto& c : s["collections"]) {
    out << "  " << c["name"].get<std::string>() << " (" << c["kind"].get<std::string>() << ", "
        << c["size"].get<int>() << ")\n";
  }
  out << "signatures:  " << s["signatures"].size() << "\n";
  for (const auto& sig : s["signatures"]) {
    out << "  " << sig["name"].get<std::string>() << " (" << sig["methodName"].get<std::string>()
        << ", " << sig["inputs"].size() << " in, " << sig["outputs"].size() << " out)\n";
  }
  if (s["metaGraphs"].size() > 1) {
    out << "meta graphs: " << s["metaGraphs"].size() << " (selected #" << s["selectedMetaGraph"].get<int>()
        << ")\n";
    for (const auto& mg : s["metaGraphs"]) {
      out << "  [" << Join(mg["tags"]) << "] " << mg["nodeCount"].get<int>() << " nodes\n";
    }
  }
  return out.str();
}

}  // namespace graphport
