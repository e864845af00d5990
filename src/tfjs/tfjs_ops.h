// Which ops the TF.js runtime executes: a graph model naming any other op cannot run there.
#ifndef GRAPHPORT_TFJS_TFJS_OPS_H_
#define GRAPHPORT_TFJS_TFJS_OPS_H_

#include <string>

namespace graphport::tfjs {

bool IsTfjsOp(const std::string& op);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_TFJS_OPS_H_
