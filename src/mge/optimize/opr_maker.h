// The operators passes make, as MegEngine's constructors make them inside a pass
// (research megengine_optimize.md §2.1.3): commutative Elemwise inputs ordered by var id, the
// in-place shortcuts (x + 0 and x * 1 are x, PowC(x, 1) is x), identical operators made
// once, small constants cached by value, and insert-time folding: a new single-output
// operator whose value is CONST with fewer than 1024 elements becomes an ImmutableTensor
// holding the evaluator's result (when the evaluator has what it needs; else it stays).
#ifndef GRAPHPORT_MGE_OPTIMIZE_OPR_MAKER_H_
#define GRAPHPORT_MGE_OPTIMIZE_OPR_MAKER_H_

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "mge/optimize/opt_graph.h"
#include "mge/optimize/schema_numbers.h"

namespace graphport::mge::opt {

class OprMaker {
 public:
  explicit OprMaker(OptGraph* g) : g_(g) {}
  OptGraph* graph() { return g_; }

  VarRef Elemwise(uint32_t mode, VarList inputs);
  VarRef PowC(VarRef x, float exp);
  // Broadcast::make(x, target shape), with an empty config.
  VarRef Broadcast(VarRef x, VarRef shape);
  // GetVarShape::make(x, axis): all of x's shape, or one axis of it.
  VarRef GetVarShape(VarRef x, int32_t axis = kNoAxis);
  // Concat::make(inputs, axis).
  VarRef Concat(VarList inputs, int32_t axis);
  // Reshape::make(x, target shape var, axis left to be worked out, if any).
  VarRef Reshape(VarRef x, VarRef target, int32_t unspec_axis = kNoAxis);
  // Dimshuffle::make(x, pattern): an input axis, or -1 for a new axis of 1.
  VarRef Dimshuffle(VarRef x, const std::vector<int32_t>& pattern);
  // An Int32 vector ImmutableTensor (a shape), cached like any small value.
  VarRef ShapeImm(const std::vector<int32_t>& dims, VarRef like);
  // Reduce::make(x, {mode, axis, data_type}) with no target shape.
  VarRef Reduce(VarRef x, uint32_t mode, int32_t axis, uint32_t data_type);
  // Reduce::make(x, {mode}, target shape var): reduced to the target's shape.
  VarRef ReduceTo(VarRef x, uint32_t mode, VarRef target);
  // ImmutableTensor::make: a value on `like`'s comp node; values of at most 28 elements are
  // cached, so the same value is the same operator.
  VarRef Imm(const HostValue& value, VarRef like);
  VarRef ScalarImm(float value, int dtype, VarRef like);
  // TypeCvt::make(x, dtype) with an empty config: x itself when it has that dtype already.
  VarRef TypeCvt(VarRef x, int dtype);
  // One item of a Subtensor's index: the axis and which of begin, end, step and idx it has
  // (an input each, in this order).
  struct IndexItem {
    int8_t axis = 0;
    bool begin = false, end = false, step = false, idx = false;
  };
  // Subtensor::make(x, items): MegEngine stores the items by decreasing axis, and `index` is
  // the items' inputs in that stored order.
  VarRef Subtensor(VarRef x, const std::vector<IndexItem>& items, const VarList& index);
  // x / y of Int32 vars (SymbolVar's operator/ is FLOOR_DIV for integers) with the in-place
  // rules MegBrain tries first: a / a is a one, x / 1 is x (research megengine_optimize.md
  // §2.1.3). The rule's broadcast asks for x's shape, which makes a GetVarShape of x unless
  // x's shape is a constant scalar.
  VarRef FloorDiv(VarRef x, VarRef y);
  // A copy of operator `node` reading `inputs` (copy_opr_shallow): same params, tensors and
  // name, remade as its class's maker makes it (commutative Elemwise inputs in var id
  // order; the same copy asked twice is the same operator) and folded like any new
  // operator. Returns the node standing for it. The copy's vars keep the old vars' names
  // unless `keep_var_names` is false (a copy on inputs of another shape, whose replaced var
  // passes its name on by the rewriter's rule instead).
  uint32_t Copy(uint32_t node, VarList inputs, bool keep_var_names = true);
  // Appends `n` and folds it when MegEngine would.
  VarRef Insert(OptNode&& n, const std::string& dedup_key);

  uint32_t folded() const { return folded_; }

 private:
  // The one-output operator of class `cls` that `dedup_key` and `inputs` name: the one in
  // the graph already, else a new one whose first param `make_param` builds in the builder it
  // is given. Looked up before anything is built: a chain pass asks again for most of the
  // operators there are (a chain that comes out as it was), and building each one to find it
  // there cost more than the pass's walk.
  template <typename MakeParam>
  VarRef Make(const char* cls, uint8_t param_type, uint64_t code, VarList inputs,
              const MakeParam& make_param);
  // The SameKey code of a key given as text.
  uint64_t Code(std::string_view text) { return g_->same_index().Intern(text); }
  // Appends `n`, found nowhere in the index, names and folds it, and enters it under `code`
  // (0: not entered).
  VarRef AddMade(OptNode&& n, uint64_t code);
  VarRef MaybeFold(VarRef v);
  // Gives an operator made without a name MegEngine's default one (opr_name.h).
  void NameMade(uint32_t node);

  OptGraph* g_;
  // While an Elemwise is made: its inputs in the order given, which its name lists.
  const VarList* naming_order_ = nullptr;
  // The code MegEngine's deduplication tells operator `node` by (same_index.h); 0 for
  // those not indexed.
  uint64_t SameKeyOf(uint32_t node) const;
  // Adds the graph's nodes not yet looked at to its SameIndex.
  void IndexGraph();

  uint32_t folded_ = 0;
};

// A new operator of class `cls` (ImmutableTensor, SharedDeviceTensor) holding one tensor, the
// value `bytes` of `shape` and `dtype`, on `locator`'s comp node, with `name` for the operator
// and the tensor when given: not yet in the graph.
OptNode TensorHolderNode(OptGraph* g, const char* cls, const Shape& shape, int dtype,
                         std::string bytes, const std::optional<std::string>& locator,
                         const std::optional<std::string>& name = std::nullopt);

// The Elemwise mode of an Elemwise operator; nullopt for other classes.
std::optional<uint32_t> ElemwiseModeOf(const Operator& op);

// Completes `op`, made anew with its own first param, from the operator it replaces, as
// MegEngine's copy_opr_shallow keeps them: the params after the first (the execution policy),
// one dump item per param, the name, the comp nodes and the output dtype.
void TakeRestFrom(const Operator& source, Operator* op);

// MegEngine's almost_equal for floats.
// The order MegEngine's Elemwise constructor stores inputs in: commutative operands by var
// id; FUSE_MUL_ADD3's two factors by id (the addend last); FUSE_MUL_ADD4's factors pairwise,
// then the pairs by their first factors' ids.
void SortElemwiseInputs(const OptGraph& g, uint32_t mode, VarList* in);

bool AlmostEqual(float x, float y);
// The one value of a var that is an ImmutableTensor of one element.
std::optional<float> ImmScalar(const OptGraph& g, VarRef v);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_OPR_MAKER_H_
