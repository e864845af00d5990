// MegEngine's ConstVarPropogate with IMMUTABLE_AND_PARAM (research megengine_optimize.md
// §2.1.5), as ReorderArithChain and ParamRedistribute use it: an operator is const when it is
// a source of constants (ImmutableTensor, SharedDeviceTensor, MultipleDeviceTensorHolder) or
// has inputs, all of them const, and is not impure (random numbers). Operators a pass adds
// are looked at when asked about, as MegEngine looks at each one it inserts.
#ifndef GRAPHPORT_MGE_OPTIMIZE_CONST_VARS_H_
#define GRAPHPORT_MGE_OPTIMIZE_CONST_VARS_H_

#include <string_view>
#include <vector>

#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

// The operators that hold parameters (SharedDeviceTensor, MultipleDeviceTensorHolder).
bool IsParamSource(std::string_view key);
// The sources of constants: ImmutableTensor and the parameter holders.
bool IsConstSource(std::string_view key);
// Operators whose every execution differs (random numbers, Dropout): never constant.
bool IsImpure(std::string_view key);

class ConstVars {
 public:
  explicit ConstVars(const OptGraph& g) : g_(g) {}

  // Whether the operator of `v` is const.
  bool operator()(VarRef v) const;
  // Const but computed (not a source): what folding would replace.
  bool Computed(VarRef v) const;

 private:
  const OptGraph& g_;
  // Per node, in index order (a node's inputs come before it); grown on demand.
  mutable std::vector<bool> is_const_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_CONST_VARS_H_
