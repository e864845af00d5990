// One level of a graph for a viewer: a group's direct children (nodes, and subgroups with how
// many nodes they hold) and the edges between them, so that a graph of 200k nodes opens at
// its top level with a handful of items, and each group is cut out when it is expanded.
#ifndef GRAPHPORT_CORE_GRAPH_LEVEL_H_
#define GRAPHPORT_CORE_GRAPH_LEVEL_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "core/graph_index.h"

namespace graphport {

// At most this many children in one level unless the caller asks for another limit: what a
// layout in the browser still draws in about a second.
inline constexpr size_t kDefaultGraphLevelLimit = 2000;

// The level of `group` ("" for the top; "a/b" for the name scope a/b). A node whose name is a
// group's name ("a" beside "a/b") belongs inside that group. Returns
//   {group, separator, nodeCount (the graph's), groupNodeCount (inside `group`),
//    children: [{kind: "group", name, label, nodes, weightBytes}
//               | {kind: "node", name, label, op, weightBytes}],
//    edges: [{from, to, count, control}], truncated, unresolvedInputs}
// in graph order (a child comes where its first node is). Edges join children by their
// position in `children`; -1 is outside the group: an edge from or to a node outside it ends
// at the group's boundary. Edges between the same two children are one, with the number of
// node edges it stands for in `count`; data and control edges are apart. Past `limit`
// children the rest are left out (`truncated` says how many) with their edges.
// Throws kNotFound when no node is in `group`.
nlohmann::json GraphLevel(const GraphIndex& graph, const std::string& group,
                          size_t limit = kDefaultGraphLevelLimit);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_GRAPH_LEVEL_H_
