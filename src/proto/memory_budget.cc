#include "proto/memory_budget.h"

namespace graphport::proto {

std::string BudgetExceededMessage(const MemoryBudget& budget, uint64_t consumed,
                                  const std::string& what) {
  return BudgetExceededMessage(budget, budget.Estimate(consumed), consumed, what);
}

std::string BudgetExceededMessage(const MemoryBudget& budget, uint64_t held, uint64_t consumed,
                                  const std::string& what) {
  return what + ": loading needs more than the memory budget of " +
         std::to_string(budget.max_bytes) + " bytes (" + std::to_string(held) +
         " bytes held after reading " + std::to_string(consumed) +
         " bytes of input); raise the load option maxMemoryBytes to load it";
}

}  // namespace graphport::proto
