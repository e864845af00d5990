// The memory a parse may build, checked as it grows (each chunk of input), so a small file
// that expands fails fast with TOO_LARGE instead of exhausting the heap.
#ifndef GRAPHPORT_PROTO_MEMORY_BUDGET_H_
#define GRAPHPORT_PROTO_MEMORY_BUDGET_H_

#include <google/protobuf/arena.h>

#include <cstdint>
#include <string>

namespace graphport::proto {

struct MemoryBudget {
  // The arena the parsed message lives on: it holds the messages and repeated fields.
  const google::protobuf::Arena* arena = nullptr;
  uint64_t max_bytes = 0;

  // The estimate: the arena's blocks, plus the input read so far, which bounds the heap
  // buffers of strings and bytes (libprotobuf keeps those off the arena, and each of their
  // bytes came from at least one input byte).
  uint64_t Estimate(uint64_t consumed) const {
    return (arena != nullptr ? arena->SpaceAllocated() : 0) + consumed;
  }
  bool Exceeded(uint64_t consumed) const { return Estimate(consumed) > max_bytes; }
};

// The TOO_LARGE message: "<what>: loading needs more than the memory budget of N bytes ...".
std::string BudgetExceededMessage(const MemoryBudget& budget, uint64_t consumed,
                                  const std::string& what);
// The same when what is held is not the arena and the input read: a text parse holds the
// wire bytes it has made of `consumed` bytes of text.
std::string BudgetExceededMessage(const MemoryBudget& budget, uint64_t held, uint64_t consumed,
                                  const std::string& what);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_MEMORY_BUDGET_H_
