#include "mge/optimize/refuse_operator.h"

#include "core/error.h"
#include "mge/read_error.h"

namespace graphport::mge::opt {

void RefuseOperator(const OptGraph& g, uint32_t node, const std::string& what,
                    const RefusingKwarg* kwarg) {
  const Operator& op = g.node(node).op();
  ErrorLocation where;
  where.opr = op.name ? *op.name : OprLabel(node, op.DisplayType());
  std::string message = "operator " + where.opr + " (" + op.DisplayType() + "): " + what;
  if (kwarg != nullptr) {
    where.option = kwarg->option;
    message = kwarg->seed + " (" + kwarg->option + "): " + message;
  }
  throw Error(ErrorCode::kUnsupported, message, where);
}

}  // namespace graphport::mge::opt
