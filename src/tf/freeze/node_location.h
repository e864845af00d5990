// Errors of the freeze name the node or function they are about.
#ifndef GRAPHPORT_TF_FREEZE_NODE_LOCATION_H_
#define GRAPHPORT_TF_FREEZE_NODE_LOCATION_H_

#include <string>

#include "core/error.h"

namespace graphport::tf {

inline ErrorLocation AtNode(std::string node) {
  ErrorLocation where;
  where.node = std::move(node);
  return where;
}

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_NODE_LOCATION_H_
