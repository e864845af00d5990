#include "core/graph_level.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/error.h"

namespace graphport {
namespace {

using nlohmann::json;

constexpr int32_t kOutside = -1;
constexpr int32_t kLeftOut = -2;  // a child past the limit

struct Child {
  bool group = false;
  std::string_view name;
  uint64_t nodes = 0;
  uint64_t weight_bytes = 0;
  uint32_t first = 0;  // its first node
};

// Where a name continues inside `prefix` ("" at the top, "a/b/" inside a/b), or npos when it
// is not inside: a node named exactly the group's name (without the separator) is inside.
size_t InsideAt(std::string_view name, std::string_view group, std::string_view prefix) {
  if (group.empty()) return 0;
  if (name == group) return name.size();
  if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) {
    return prefix.size();
  }
  return std::string_view::npos;
}

}  // namespace

json GraphLevel(const GraphIndex& graph, const std::string& group, size_t limit) {
  const char sep = graph.separator();
  const std::string prefix = group.empty() ? std::string() : group + sep;
  const auto n = static_cast<uint32_t>(graph.size());

  // The subgroups first: a node named as one of them goes inside it, wherever it comes.
  std::unordered_set<std::string_view> subgroups;
  for (uint32_t i = 0; i < n; ++i) {
    std::string_view name = graph.name(i);
    size_t at = InsideAt(name, group, prefix);
    if (at == std::string_view::npos || at >= name.size()) continue;
    size_t cut = name.find(sep, at);
    if (cut != std::string_view::npos && cut > at) subgroups.insert(name.substr(0, cut));
  }

  std::vector<int32_t> child_of(n, kOutside);
  std::vector<Child> children;
  std::unordered_map<std::string_view, int32_t> by_key;
  uint64_t inside = 0, truncated = 0;
  for (uint32_t i = 0; i < n; ++i) {
    std::string_view name = graph.name(i);
    size_t at = InsideAt(name, group, prefix);
    if (at == std::string_view::npos) continue;
    ++inside;
    std::string_view key = name;
    bool is_group = false;
    if (at < name.size()) {
      size_t cut = name.find(sep, at);
      if (cut != std::string_view::npos && cut > at) {
        key = name.substr(0, cut);
        is_group = true;
      } else if (subgroups.count(name) != 0) {
        is_group = true;  // "a/b" beside "a/b/c": inside group a/b
      }
    }
    auto [it, added] = by_key.emplace(key, static_cast<int32_t>(children.size()));
    if (added) {
      if (children.size() >= limit) {
        it->second = kLeftOut;
        ++truncated;
      } else {
        children.push_back({is_group, key, 0, 0, i});
      }
    }
    child_of[i] = it->second;
    if (it->second >= 0) {
      Child& c = children[it->second];
      c.nodes += 1;
      c.weight_bytes += graph.weight_bytes(i);
    }
  }
  if (!group.empty() && inside == 0) {
    throw Error(ErrorCode::kNotFound, "no node of the graph is in group '" + group + "'",
                ErrorLocation::OfOption("group"));
  }

  // Edges: every node edge that crosses between two children, or between a child and the
  // outside, counted once per (from, to, control).
  std::unordered_map<uint64_t, uint64_t> counts;
  std::vector<uint64_t> order;  // keys in the order first met, for a stable output
  const auto& inputs = graph.inputs();
  for (uint32_t j = 0; j < n; ++j) {
    int32_t to = child_of[j];
    if (to == kLeftOut) continue;
    for (uint32_t k = graph.inputs_begin(j); k < graph.inputs_end(j); ++k) {
      int32_t from = child_of[inputs[k].node];
      if (from == to || from == kLeftOut) continue;
      uint64_t key = (static_cast<uint64_t>(from + 1) << 33) |
                     (static_cast<uint64_t>(to + 1) << 1) | (inputs[k].control ? 1 : 0);
      auto [it, added] = counts.emplace(key, 0);
      if (added) order.push_back(key);
      ++it->second;
    }
  }

  json out_children = json::array();
  for (const Child& c : children) {
    std::string_view label = c.name;
    size_t last = label.rfind(sep);
    if (last != std::string_view::npos && last + 1 < label.size()) label = label.substr(last + 1);
    json item = {{"kind", c.group ? "group" : "node"},
                 {"name", std::string(c.name)},
                 {"label", std::string(label)},
                 {"weightBytes", c.weight_bytes}};
    if (c.group) {
      item["nodes"] = c.nodes;
    } else {
      item["op"] = graph.op(c.first);
    }
    out_children.push_back(std::move(item));
  }
  std::sort(order.begin(), order.end());
  json edges = json::array();
  for (uint64_t key : order) {
    edges.push_back({{"from", static_cast<int64_t>(key >> 33) - 1},
                     {"to", static_cast<int64_t>((key >> 1) & 0xFFFFFFFFu) - 1},
                     {"count", counts[key]},
                     {"control", (key & 1) != 0}});
  }
  return {{"group", group},
          {"separator", std::string(1, sep)},
          {"nodeCount", n},
          {"groupNodeCount", inside},
          {"children", std::move(out_children)},
          {"edges", std::move(edges)},
          {"truncated", truncated},
          {"unresolvedInputs", graph.unresolved_inputs()}};
}

}  // namespace graphport
