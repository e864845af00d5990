// MegEngine's compatibility converters, one function per operator family (internal to
// src/mge/dump/compat_*.cc). Each builds the replacement of the converted operator's output 0
// from `n`, whose inputs are already the rewritten ones, and returns it; it throws
// Error(kUnsupported) naming the operator when graphport cannot build what MegEngine would.
#ifndef GRAPHPORT_MGE_DUMP_COMPAT_CONVERTERS_H_
#define GRAPHPORT_MGE_DUMP_COMPAT_CONVERTERS_H_

#include <string>

#include "mge/dump/compat_graph.h"

namespace graphport::mge::compat {

// compat_elemwise.cc (research megengine_dump_details.md §1.3-§1.5): v1 and V2.
Ref ConvertElemwise(Builder& b, const Node& n);
Ref ConvertMultiType(Builder& b, const Node& n);
Ref ConvertWhere(Builder& b, const Node& n);

// compat_softmax_dropout.cc (§1.7, §1.9): v1 only.
Ref ConvertSoftmax(Builder& b, const Node& n);
Ref ConvertDropout(Builder& b, const Node& n);

// compat_norm.cc (§1.8, §1.10): LayerNorm v1 only; GroupNorm and InstanceNorm v1 and V2.
Ref ConvertLayerNorm(Builder& b, const Node& n);
Ref ConvertGroupNorm(Builder& b, const Node& n, bool instance);

// The converted operator's first param as the generated table T (of union member `type`,
// named `name` in the error); throws when it is not one.
template <typename T>
const T* RequireParam(const Builder& b, const Node& n, uint8_t type, const char* name) {
  const T* p = n.op.ParamAs<T>(type);
  if (p == nullptr) b.Unsupported(std::string("its first param is not a ") + name + " table");
  return p;
}

// Throws unless inputs [0, count) are Float32: the converters are written for Float32, where
// MegEngine's casts of their constants are no-ops.
void RequireFloat32(const Builder& b, const Node& n, size_t count);

}  // namespace graphport::mge::compat

#endif  // GRAPHPORT_MGE_DUMP_COMPAT_CONVERTERS_H_
