// RemoveRedundantTypeCvt (research megengine_optimize.md §2.3 P14): TypeCvt(TypeCvt(x, A), B)
// becomes TypeCvt(x, B), or x itself when x is already of dtype B, where the inner
// conversion loses nothing B keeps: A and B both integer or both float and A at least as
// large as B, or A Float32 and B quantized or an integer of at most 24 bits. As in MegEngine,
// a TypeCvt over a TypeCvt that must stay is not re-made even when its input was replaced.
#ifndef GRAPHPORT_MGE_OPTIMIZE_REMOVE_REDUNDANT_TYPECVT_REMOVE_REDUNDANT_TYPECVT_H_
#define GRAPHPORT_MGE_OPTIMIZE_REMOVE_REDUNDANT_TYPECVT_REMOVE_REDUNDANT_TYPECVT_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport RemoveRedundantTypeCvt(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_REMOVE_REDUNDANT_TYPECVT_REMOVE_REDUNDANT_TYPECVT_H_
