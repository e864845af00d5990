// The input order MegEngine's Elemwise constructor stores (research megengine_dump_details.md
// §1.2, rule 1), which the compatibility converters and optimize_for_inference both replay.
#ifndef GRAPHPORT_MGE_ELEMWISE_ORDER_H_
#define GRAPHPORT_MGE_ELEMWISE_ORDER_H_

#include <cstdint>

#include "mge/schema/opr_params_generated.h"

namespace graphport::mge {

// Whether `mode` (ElemwiseMode) is commutable: its two inputs are stored by ascending var id,
// whatever order the call gave them in.
inline bool CommutativeElemwise(uint32_t mode) {
  namespace param = mgb::serialization::fbs::param;
  switch (mode) {
    case param::ElemwiseMode_ADD:
    case param::ElemwiseMode_FUSE_ADD_RELU:
    case param::ElemwiseMode_FUSE_ADD_SIGMOID:
    case param::ElemwiseMode_FUSE_ADD_TANH:
    case param::ElemwiseMode_MUL:
    case param::ElemwiseMode_RMULH:
    case param::ElemwiseMode_MAX_:
    case param::ElemwiseMode_MIN_:
    case param::ElemwiseMode_EQ:
    case param::ElemwiseMode_LOG_SUM_EXP:
      return true;
    default:
      return false;
  }
}

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_ELEMWISE_ORDER_H_
