// The reference evaluator, operator by operator: the value of an operator's output 0 from
// its inputs' values, read from the operator's class and param tables. An operator, mode or
// dtype it lacks gives nullopt and a reason; callers stop there (constant folding leaves the
// operator as it is), never guess.
#ifndef GRAPHPORT_MGE_OPTIMIZE_EVAL_OPR_EVAL_H_
#define GRAPHPORT_MGE_OPTIMIZE_EVAL_OPR_EVAL_H_

#include <optional>
#include <string>
#include <vector>

#include "mge/mge_model.h"
#include "mge/optimize/eval/host_value.h"

namespace graphport::mge::opt {

struct EvalOptions {
  // Refuse results whose bits depend on an order MegEngine does not pin down (float
  // reductions of more than two elements): what constant folding needs. A numerics check
  // that compares within a tolerance can lift it.
  bool exact_only = true;
};

// The value of the source operators: ImmutableTensor, SharedDeviceTensor and the holders'
// output `output`. nullopt when it has no stored value or its dtype is not evaluable.
std::optional<HostValue> StoredValue(const Operator& op, uint32_t output);

// The value of output 0 (BatchNorm: of y, its last output); `in` holds one value per input
// (GetVarShape reads only their shapes).
std::optional<HostValue> EvalOperator(const Operator& op, const std::vector<const HostValue*>& in,
                                      const EvalOptions& options, std::string* why);

// Whether the evaluator has a kernel for the operator's class (its modes may still refuse).
bool HasKernel(const Operator& op);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_EVAL_OPR_EVAL_H_
