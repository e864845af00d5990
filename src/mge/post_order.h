// The order in which MegEngine's dumper meets operators: a post-order walk from the outputs,
// inputs left to right, so every operator follows its inputs. Shared by the converters' graph
// (dump/compat_graph) and the optimizer's (optimize/opt_graph), whose node ids are both
// indexes into a vector of nodes with `inputs[i].node`.
#ifndef GRAPHPORT_MGE_POST_ORDER_H_
#define GRAPHPORT_MGE_POST_ORDER_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace graphport::mge {

// Appends to `order` the nodes reachable from `root` that `state` has not seen (0 new, 1 on
// the walk's stack, 2 appended). Iterative: a chain of 100k operators must not overflow the
// call stack.
template <typename Nodes, typename State>
void AppendPostOrder(const Nodes& nodes, uint32_t root, std::vector<State>* state,
                     std::vector<uint32_t>* order) {
  if ((*state)[root] != 0) return;
  std::vector<std::pair<uint32_t, size_t>> stack;
  (*state)[root] = 1;
  stack.push_back({root, 0});
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < nodes[node].inputs.size()) {
      uint32_t in = nodes[node].inputs[next++].node;
      if ((*state)[in] == 0) {
        (*state)[in] = 1;
        stack.push_back({in, 0});
      }
    } else {
      (*state)[node] = 2;
      order->push_back(node);
      stack.pop_back();
    }
  }
}

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_POST_ORDER_H_
