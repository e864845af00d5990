#include "tf/name_scopes.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace graphport::tf {
namespace {

size_t Depth(std::string_view name) { return std::count(name.begin(), name.end(), '/'); }

// A name with its hash, computed while the name is scanned for slashes: each prefix's hash
// extends the one before, so no character is hashed twice.
struct HashedName {
  std::string_view name;
  uint64_t hash;
  bool operator==(const HashedName& other) const { return name == other.name; }
};

struct UseHash {
  size_t operator()(const HashedName& key) const { return static_cast<size_t>(key.hash); }
};

// FNV-1a.
constexpr uint64_t kHashStart = 14695981039346656037ull;
inline uint64_t HashStep(uint64_t hash, char c) {
  return (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
}

// The length of the common prefix of `a` and `b`, eight bytes at a time (names in graph order
// share long prefixes).
size_t CommonPrefix(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) break;
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

struct ChainLink {
  size_t slash;     // where the scope ends in the name
  uint64_t hash;    // of the name up to the slash
  uint64_t* count;  // the scope's counter (map values stay put when it rehashes)
};

}  // namespace

NameScopeList NameScopes(const tensorflow::GraphDef& graph, size_t limit) {
  std::vector<std::string_view> names;
  names.reserve(graph.node_size());
  for (const auto& node : graph.node()) names.push_back(node.name());
  return NameScopes(names, limit);
}

NameScopeList NameScopes(const std::vector<std::string_view>& node_names, size_t limit) {
  // Keys view the graph's node names, which outlive this call. Nodes of one scope usually
  // come together, so the scopes that a node shares with the node before it (those ending
  // inside their common prefix) reuse that node's counters and hashes.
  std::unordered_map<HashedName, uint64_t, UseHash> counts;
  std::vector<HashedName> names;
  names.reserve(node_names.size());
  std::vector<ChainLink> chain, next_chain;
  std::string_view previous;
  for (std::string_view name : node_names) {
    const size_t common = CommonPrefix(name, previous);
    next_chain.clear();
    for (const ChainLink& link : chain) {
      if (link.slash >= common) break;
      ++*link.count;
      next_chain.push_back(link);
    }
    size_t from = 0;
    uint64_t hash = kHashStart;
    if (!next_chain.empty()) {
      from = next_chain.back().slash;
      hash = next_chain.back().hash;
    }
    for (size_t i = from; i < name.size(); ++i) {
      // "a//b" has one scope, "a": exportScope drops trailing slashes, so "a/" is "a".
      if (name[i] == '/' && i > from && name[i - 1] != '/') {
        uint64_t* count = &counts[HashedName{name.substr(0, i), hash}];
        ++*count;
        next_chain.push_back({i, hash, count});
      }
      hash = HashStep(hash, name[i]);
    }
    names.push_back({name, hash});
    chain.swap(next_chain);
    previous = name;
  }
  // A node named exactly as a scope is inside it too.
  for (const HashedName& name : names) {
    auto it = counts.find(name);
    if (it != counts.end()) ++it->second;
  }

  NameScopeList out;
  out.total = counts.size();
  std::vector<std::pair<std::string_view, uint64_t>> sorted;
  sorted.reserve(counts.size());
  for (const auto& [key, count] : counts) sorted.emplace_back(key.name, count);
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
