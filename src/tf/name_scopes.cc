#include "tf/name_scopes.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace graphport::tf {
namespace {

size_t Depth(std::string_view name) { return std::count(name.begin(), name.end(), '/'); }

}  // namespace

NameScopeList NameScopes(const tensorflow::GraphDef& graph, size_t limit) {
  // Keys view the graph's node names, which outlive this call.
  std::unordered_map<std::string_view, uint64_t> counts;
  for (const auto& node : graph.node()) {
    std::string_view name = node.name();
    for (size_t slash = name.find('/'); slash != std::string_view::npos;
         slash = name.find('/', slash + 1)) {
      // "a//b" has one scope, "a": exportScope drops trailing slashes, so "a/" is "a".
      if (slash == 0 || name[slash - 1] == '/') continue;
      ++counts[name.substr(0, slash)];
    }
  }
  for (const auto& node : graph.node()) {
    auto it = counts.find(node.name());
    if (it != counts.end()) ++it->second;
  }

  NameScopeList out;
  out.total = counts.size();
  std::vector<std::pair<std::string_view, uint64_t>> sorted(counts.begin(), counts.end());
  auto shallow_first = [](const auto& a, const auto& b) {
    size_t da = Depth(a.first), db = Depth(b.first);
    return da != db ? da < db : a.first < b.first;
  };
  if (sorted.size() > limit) {
    std::nth_element(sorted.begin(), sorted.begin() + limit, sorted.end(), shallow_first);
    sorted.resize(limit);
  }
  std::sort(sorted.begin(), sorted.end());
  out.scopes.reserve(sorted.size());
  for (const auto& [name, count] : sorted) out.scopes.push_back({std::string(name), count});
  return out;
}

}  // namespace graphport::tf
