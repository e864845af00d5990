// How a pass refuses an operator it cannot rewrite, so that every pass words it alike.
#ifndef GRAPHPORT_MGE_OPTIMIZE_REFUSE_OPERATOR_H_
#define GRAPHPORT_MGE_OPTIMIZE_REFUSE_OPERATOR_H_

#include <cstdint>
#include <string>

#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

// The kwarg that turned a pass on, as the error names it: "enable_ioc16 (enableIoc16)".
struct RefusingKwarg {
  std::string seed;    // "enable_ioc16"
  std::string option;  // "enableIoc16": the error's option
};

// UNSUPPORTED: "[seed (option): ]operator NAME (TYPE): what", with the operator (its name, or
// its index and type when it has none) and the kwarg, if any, in the error's location.
[[noreturn]] void RefuseOperator(const OptGraph& g, uint32_t node, const std::string& what,
                                 const RefusingKwarg* kwarg = nullptr);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_REFUSE_OPERATOR_H_
