#include "tf/name_scopes.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace graphport::tf {
namespace {

// FNV-1a: a prefix's hash extends the one of the prefix before it, so the scopes of a name
// are hashed in one pass over the characters that the name does not share with the node
// before it.
constexpr uint64_t kHashStart = 14695981039346656037ull;
inline uint64_t HashStep(uint64_t hash, char c) {
  return (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
}
inline uint64_t HashRange(uint64_t hash, const char* p, const char* end) {
  for (; p < end; ++p) hash = HashStep(hash, *p);
  return hash;
}

// The length of the common prefix of `a` and `b`, at most `limit`, eight bytes at a time
// (names in graph order share long prefixes).
size_t CommonPrefix(std::string_view a, std::string_view b, size_t limit) {
  const size_t n = std::min({a.size(), b.size(), limit});
  size_t i = 0;
  uint64_t x, y;
  for (; i + 8 <= n; i += 8) {
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      // The first differing byte is the lowest set byte of the difference.
      return i + __builtin_ctzll(x ^ y) / 8;
#else
      break;
#endif
    }
  }
  if (i + 8 > n && n >= 8) {
    // Equal so far: the last eight bytes (overlapping the words compared) settle the rest.
    std::memcpy(&x, a.data() + n - 8, 8);
    std::memcpy(&y, b.data() + n - 8, 8);
    if (x == y) return n;
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// std::string_view's == and < without memcmp, which WebAssembly's libc runs a byte at a
// time: scope names share long prefixes, and the capped list sorts tens of thousands of them.
bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CommonPrefix(a, b, a.size()) == a.size();
}
bool NameLess(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  const size_t common = CommonPrefix(a, b, n);
  if (common == n) return a.size() < b.size();
  return static_cast<unsigned char>(a[common]) < static_cast<unsigned char>(b[common]);
}

struct ScopeEntry {
  std::string_view name;  // views a node name, which outlives the call
  uint64_t hash;
  size_t depth;  // its "/"s: the capped list keeps the shallowest
  uint64_t count = 0;
};

// Scopes by name in an open-addressing table of indices into a dense list: a graph has tens
// of thousands of scopes, and one node allocation each (std::unordered_map) cost more than
// the scan of the names. The dense list's indices stay valid as the table grows.
class ScopeTable {
 public:
  ScopeTable() : slots_(1024, kEmpty), mask_(1023) {}

  std::vector<ScopeEntry>& entries() { return entries_; }

  // The index of the scope `name` (with its FNV-1a hash and its "/"s), added when new.
  uint32_t Intern(std::string_view name, uint64_t hash, size_t depth) {
    size_t slot = Home(hash);
    for (; slots_[slot] != kEmpty; slot = (slot + 1) & mask_) {
      if (Matches(slots_[slot], name, hash)) return slots_[slot];
    }
    const auto index = static_cast<uint32_t>(entries_.size());
    entries_.push_back({name, hash, depth});
    slots_[slot] = index;
    if (2 * entries_.size() > slots_.size()) Grow();
    return index;
  }

  // The scope `name`, or null.
  ScopeEntry* Find(std::string_view name, uint64_t hash) {
    for (size_t slot = Home(hash); slots_[slot] != kEmpty; slot = (slot + 1) & mask_) {
      if (Matches(slots_[slot], name, hash)) return &entries_[slots_[slot]];
    }
    return nullptr;
  }

 private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};

  // Fibonacci hashing: the top bits of the product mix every bit of the hash.
  size_t Home(uint64_t hash) const {
    return static_cast<size_t>((hash * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }
  bool Matches(uint32_t index, std::string_view name, uint64_t hash) const {
    const ScopeEntry& e = entries_[index];
    return e.hash == hash && SameName(e.name, name);
  }
  void Grow() {
    slots_.assign(slots_.size() * 2, kEmpty);
    mask_ = slots_.size() - 1;
    for (uint32_t i = 0; i < entries_.size(); ++i) {
      size_t slot = Home(entries_[i].hash);
      while (slots_[slot] != kEmpty) slot = (slot + 1) & mask_;
      slots_[slot] = i;
    }
  }

  std::vector<ScopeEntry> entries_;
  std::vector<uint32_t> slots_;
  size_t mask_;
};

// A scope of the node before: where it ends in the name, its hash, and since which node it
// has held every node (its count grows by the run's length when the run ends, not node by
// node).
struct ChainLink {
  size_t slash;
  uint64_t hash;
  uint32_t scope;
  size_t since;
};

}  // namespace

NameScopeList NameScopes(const tensorflow::GraphDef& graph, size_t limit) {
  std::vector<std::string_view> names;
  names.reserve(graph.node_size());
  for (const auto& node : graph.node()) names.push_back(node.name());
  return NameScopes(names, limit);
}

NameScopeList NameScopes(const std::vector<std::string_view>& node_names, size_t limit) {
  // Nodes of one scope usually come together, so the scopes that a node shares with the node
  // before it (those ending inside their common prefix) are that node's, kept on a chain.
  ScopeTable table;
  std::vector<ScopeEntry>& entries = table.entries();
  std::vector<ChainLink> chain;
  std::string_view previous;
  for (size_t n = 0; n < node_names.size(); ++n) {
    const std::string_view name = node_names[n];
    const size_t common = chain.empty() ? 0 : CommonPrefix(name, previous, chain.back().slash + 1);
    while (!chain.empty() && chain.back().slash >= common) {
      entries[chain.back().scope].count += n - chain.back().since;
      chain.pop_back();
    }
    size_t from = 0;
    uint64_t hash = kHashStart;
    size_t slashes = !name.empty() && name[0] == '/';  // before the scan's position
    if (!chain.empty()) {
      from = chain.back().slash;
      hash = chain.back().hash;
      slashes = entries[chain.back().scope].depth + 1;
    }
    // Every "/" past the chain ends a scope, unless it follows another ("a//b" has one scope,
    // "a": exportScope drops trailing slashes, so "a/" is "a") or leads the name.
    const char* const begin = name.data();
    const char* const end = begin + name.size();
    const char* hashed = begin + from;
    for (const char* p = begin + from + 1; p < end; ++p) {
      p = static_cast<const char*>(std::memchr(p, '/', end - p));
      if (p == nullptr) break;
      if (p[-1] == '/') {
        ++slashes;
        continue;
      }
      hash = HashRange(hash, hashed, p);
      hashed = p;
      const std::string_view scope = name.substr(0, p - begin);
      chain.push_back(
          {static_cast<size_t>(p - begin), hash, table.Intern(scope, hash, slashes), n});
      ++slashes;
    }
    previous = name;
  }
  for (const ChainLink& link : chain) entries[link.scope].count += node_names.size() - link.since;

  // A node named exactly as a scope is inside it too. Only a name as long as some scope can
  // be one, which spares hashing most names.
  size_t longest = 0;
  for (const ScopeEntry& e : entries) longest = std::max(longest, e.name.size());
  std::vector<bool> scope_length(longest + 1, false);
  for (const ScopeEntry& e : entries) scope_length[e.name.size()] = true;
  for (std::string_view name : node_names) {
    if (name.size() > longest || !scope_length[name.size()]) continue;
    const uint64_t hash = HashRange(kHashStart, name.data(), name.data() + name.size());
    if (ScopeEntry* e = table.Find(name, hash)) ++e->count;
  }

  NameScopeList out;
  out.total = entries.size();
  std::vector<const ScopeEntry*> sorted;
  sorted.reserve(entries.size());
  for (const ScopeEntry& e : entries) sorted.push_back(&e);
  if (sorted.size() > limit) {
    auto shallow_first = [](const ScopeEntry* a, const ScopeEntry* b) {
      return a->depth != b->depth ? a->depth < b->depth : NameLess(a->name, b->name);
    };
    std::nth_element(sorted.begin(), sorted.begin() + limit, sorted.end(), shallow_first);
    sorted.resize(limit);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const ScopeEntry* a, const ScopeEntry* b) { return NameLess(a->name, b->name); });
  out.scopes.reserve(sorted.size());
  for (const ScopeEntry* e : sorted) out.scopes.push_back({std::string(e->name), e->count});
  return out;
}

}  // namespace graphport::tf
