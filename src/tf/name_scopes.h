// The name scopes of a graph, as exportScope understands them: every "a", "a/b" that some node
// name continues with a "/", with the number of nodes inside it (the node named exactly so,
// if any, and every "a/b/..." node). The page offers them for exportScope and checks the
// scope a user types before exporting.
#ifndef GRAPHPORT_TF_NAME_SCOPES_H_
#define GRAPHPORT_TF_NAME_SCOPES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

struct NameScope {
  std::string name;
  uint64_t node_count = 0;
};

struct NameScopeList {
  std::vector<NameScope> scopes;  // sorted by name
  size_t total = 0;               // scopes in the graph; more than scopes.size() when capped
};

// At most `limit` scopes, the shallowest first (fewest "/"), then by name: a graph of 200k
// uniquely scoped nodes must not turn its summary into megabytes.
NameScopeList NameScopes(const tensorflow::GraphDef& graph, size_t limit);
// The same over node names given in graph order (views that outlive the call).
NameScopeList NameScopes(const std::vector<std::string_view>& node_names, size_t limit);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_NAME_SCOPES_H_
