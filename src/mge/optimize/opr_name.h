// The names MegEngine gives the operators a pass makes (research megengine_dump_details.md
// §1.2 rule 7, megengine_optimize.md §2.1.6): OperatorNodeConfig::make_name's
// `<base>(<input names>)[<operator id>]` for an operator made without a name, where an input's
// name loses its outermost parenthesised part and the list ends in "..." once 64 characters
// are reached; an ImmutableTensor's base is its value in short (`const<0.5>`, `const{1,256}`).
// A loaded operator stored without a name has the default name MegEngine gave it while
// loading, with its load id; copies of an operator keep its name (copy_opr_shallow keeps the
// config); ParamFuse and ParamMerge name theirs themselves. Once loaded, an input var is named
// after its tensor (G.load_graph). Each class's base is the name its constructor passes on
// (`conv`, `shape_of`, `reduce0`...), checked against MegEngine v1.13.4's own dumps.
#ifndef GRAPHPORT_MGE_OPTIMIZE_OPR_NAME_H_
#define GRAPHPORT_MGE_OPTIMIZE_OPR_NAME_H_

#include <string>

#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

// The name MegEngine shows for var `v`, the one keep_var_name writes: its explicit name, else
// an input's tensor name, else its operator's name (stored, or the default one it was given)
// with ":o<k>" for one of several outputs.
std::string VarName(const OptGraph& g, VarRef v);

// Whether MegEngine has var `v`'s name set explicitly (VarNode::has_name_set), which decides
// whether a var that replaces it takes its name: a name from the file or a pass; an input's
// var and a constant's (Network.load names them), a graph output's (Network.dump names them
// before optimizing), a var auto_replace_outputs renamed.
bool HasNameSet(const OptGraph& g, VarRef v);

// The default name of operator `node`, made from its class, params or value, its inputs'
// names and its id. `as_given`: the inputs in the order the maker was given them, which the
// name lists (an Elemwise constructor names the operator before it sorts commutative inputs).
std::string DefaultOprName(const OptGraph& g, uint32_t node, const VarList* as_given = nullptr);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_OPR_NAME_H_
