// The graph the compatibility rewrite builds (internal to src/mge/dump/compat_*.cc): nodes
// made as MegEngine's operator constructors make them, so the converters read like
// MegEngine's. Keeps the rules every converter's output follows (research
// megengine_dump_details.md §1.2): constants of shape (1,) on the reference var's comp node,
// deduplicated by value; identical operators inserted once; commutative Elemwise inputs
// ordered by creation; ADD of a constant ~0 and MUL by a constant ~1 give the other input.
// Emit() renumbers the operators in the dumper's DFS order from the outputs.
#ifndef GRAPHPORT_MGE_DUMP_COMPAT_GRAPH_H_
#define GRAPHPORT_MGE_DUMP_COMPAT_GRAPH_H_

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "mge/dump/compat_rewrite.h"
#include "mge/schema/operator_param_v1_generated.h"

namespace graphport::mge::compat {

namespace fbs = mgb::serialization::fbs;
namespace param = mgb::serialization::fbs::param;

// The values below are the generated schema's (flatc), named as the converters use them.
// DTypeEnum values the converters use.
constexpr int kFloat32 = fbs::DTypeEnum_Float32;
constexpr int kInt32 = fbs::DTypeEnum_Int32;
constexpr int kBool = fbs::DTypeEnum_Bool;

// Elemwise modes (ElemwiseMode) the converters read or build.
enum Mode : uint32_t {
  RELU = param::ElemwiseMode_RELU,
  ABS = param::ElemwiseMode_ABS,
  COS = param::ElemwiseMode_COS,
  EXP = param::ElemwiseMode_EXP,
  EXPM1 = param::ElemwiseMode_EXPM1,
  LOG = param::ElemwiseMode_LOG,
  LOG1P = param::ElemwiseMode_LOG1P,
  NEGATE = param::ElemwiseMode_NEGATE,
  SIN = param::ElemwiseMode_SIN,
  ADD = param::ElemwiseMode_ADD,
  FLOOR_DIV = param::ElemwiseMode_FLOOR_DIV,
  MAX_ = param::ElemwiseMode_MAX_,
  MIN_ = param::ElemwiseMode_MIN_,
  MUL = param::ElemwiseMode_MUL,
  POW = param::ElemwiseMode_POW,
  SUB = param::ElemwiseMode_SUB,
  SWITCH_GT0 = param::ElemwiseMode_SWITCH_GT0,
  TRUE_DIV = param::ElemwiseMode_TRUE_DIV,
  LOG_SUM_EXP = param::ElemwiseMode_LOG_SUM_EXP,
  LT = param::ElemwiseMode_LT,
  LEQ = param::ElemwiseMode_LEQ,
  EQ = param::ElemwiseMode_EQ,
  FUSE_MUL_ADD3 = param::ElemwiseMode_FUSE_MUL_ADD3,
  FUSE_ADD_RELU = param::ElemwiseMode_FUSE_ADD_RELU,
  FUSE_ADD_SIGMOID = param::ElemwiseMode_FUSE_ADD_SIGMOID,
  FUSE_ADD_TANH = param::ElemwiseMode_FUSE_ADD_TANH,
  RMULH = param::ElemwiseMode_RMULH,
  NOT = param::ElemwiseMode_NOT,
  SINH = param::ElemwiseMode_SINH,
  COSH = param::ElemwiseMode_COSH,
  ASINH = param::ElemwiseMode_ASINH,
  ACOSH = param::ElemwiseMode_ACOSH,
  ATANH = param::ElemwiseMode_ATANH,
  TAN = param::ElemwiseMode_TAN,
  PRELU = param::ElemwiseMode_PRELU,
  CLIP = param::ElemwiseMode_CLIP,
  SOFTPLUS = param::ElemwiseMode_SOFTPLUS,
  RELU6 = param::ElemwiseMode_RELU6,
  HSIGMOID = param::ElemwiseMode_HSIGMOID,
  LOGSIGMOID = param::ElemwiseMode_LOGSIGMOID,
  SQRT = param::ElemwiseMode_SQRT,
  SQUARE = param::ElemwiseMode_SQUARE,
  SIGN = param::ElemwiseMode_SIGN,
};

// Reduce modes (ReduceMode).
enum ReduceMode : uint32_t {
  SUM = param::ReduceMode_SUM,
  SUM_SQR = param::ReduceMode_SUM_SQR,
  PRODUCT = param::ReduceMode_PRODUCT,
  R_MAX = param::ReduceMode_MAX_,
  MEAN = param::ReduceMode_MEAN,
};

// Union numbers (FBS v1's OperatorParam) of the param tables the converters write.
constexpr uint8_t kEmptyParam = fbs::OperatorParam_param_Empty;
constexpr uint8_t kAxisParam = fbs::OperatorParam_param_Axis;
constexpr uint8_t kElemwiseParam = fbs::OperatorParam_param_Elemwise;
constexpr uint8_t kMultiTypeParam = fbs::OperatorParam_param_ElemwiseMultiType;
constexpr uint8_t kPowCParam = fbs::OperatorParam_param_PowC;
constexpr uint8_t kReduceParam = fbs::OperatorParam_param_Reduce;
constexpr uint8_t kUniformRngParam = fbs::OperatorParam_param_UniformRNG;
constexpr uint8_t kOptionalAxisV1Param = fbs::OperatorParam_param_OptionalAxisV1;
constexpr uint8_t kIndexDescParam = fbs::OperatorParam_param_IndexDescMaskDump;
constexpr uint8_t kDTypeParam = fbs::OperatorParam_DType;
constexpr uint8_t kLayerNormParam = fbs::OperatorParam_param_LayerNorm;
constexpr uint8_t kGroupNormParam = fbs::OperatorParam_param_GroupNorm;
constexpr uint8_t kSoftmaxParam = fbs::OperatorParam_param_Softmax;
constexpr uint8_t kDropoutParam = fbs::OperatorParam_param_Dropout;

struct Ref {
  uint32_t node = 0;
  uint32_t output = 0;
  bool operator<(const Ref& o) const { return std::tie(node, output) < std::tie(o.node, o.output); }
  bool operator==(const Ref& o) const { return node == o.node && output == o.output; }
};

struct Node {
  Operator op;  // inputs/outputs filled at numbering
  std::vector<Ref> inputs;
  uint32_t outputs = 1;
  std::vector<MiddleTensor> middle;                  // per output (FBS_V2 names etc.)
  std::vector<std::optional<int>> dtypes;            // per output
  std::vector<std::optional<std::string>> v1_names;  // per output, when the input named them
  bool has_v1_names = false;
  uint64_t rank = 0;  // creation order: commutative inputs are sorted by it
  // The static shape of output 0 where graphport can tell it. MegEngine's static inference
  // calls a shape or value that follows a Host2DeviceCopy MUTABLE; CONST ones fold into
  // ImmutableTensors as converters insert operators (§1.2 rule 4), which graphport does not
  // emulate, so converters refuse inputs that are not MUTABLE.
  std::optional<std::vector<uint32_t>> shape;
  bool shape_mutable = false;
  bool value_mutable = false;
};

// The first param's `mode` field (slot 0) when the first param is a table of `type`.
uint32_t ParamMode(const Operator& op, uint8_t type);

class Builder {
 public:
  Builder(const Graph& g, RewrittenGraph* out) : g_(g), out_(out) {}

  const Graph& graph() const { return g_; }
  RewrittenGraph* out() { return out_; }
  // The operator of the input graph being converted: new operators take its priority, and
  // errors name it.
  void Begin(size_t opr, int32_t priority) {
    current_ = opr;
    current_priority_ = priority;
  }
  [[noreturn]] void Unsupported(const std::string& what) const { UnsupportedAt(current_, what); }
  [[noreturn]] void UnsupportedAt(size_t opr, const std::string& what) const;

  // An operator of the input graph (its inputs already replaced); takes part in
  // deduplication like MegEngine's insert_pre.
  uint32_t AddExisting(Node n);
  const Node& node(Ref r) const { return nodes_[r.node]; }
  Node& mutable_node(uint32_t index) { return nodes_[index]; }
  std::optional<int> DTypeOf(Ref r) const { return nodes_[r.node].dtypes[r.output]; }
  const std::optional<std::vector<uint32_t>>& ShapeOf(Ref r) const;
  // Throw unless `x` has a static shape that is MUTABLE, a MUTABLE shape, a MUTABLE value
  // (see Node::shape); `what` names the converter.
  std::vector<uint32_t> RequireStaticShape(Ref x, const std::string& what) const;
  void RequireMutableShape(Ref x, const std::string& what) const;
  void RequireMutableValue(Ref x, const std::string& what) const;

  // The operators MegEngine's converters make.
  Ref Const(float v, Ref like);  // ImmutableTensor Float32, shape (1,)
  Ref ConstInt32(const std::vector<int32_t>& v, const std::vector<uint32_t>& shape, Ref like);
  Ref Elemwise(uint32_t mode, std::vector<Ref> in);
  Ref TypeCvt(Ref x, int dtype);
  Ref Reduce(Ref x, uint32_t mode, int32_t axis);
  Ref PowC(Ref x, float exp);
  Ref GetVarShape(Ref x);
  Ref Reshape(Ref x, Ref shape, int32_t unspec_axis = 7);
  Ref SubtensorEnd(Ref x, Ref end);  // x[:end] on axis 0
  Ref Concat(std::vector<Ref> in, int32_t axis);
  Ref UniformRng(Ref shape, uint64_t seed);

  // Operators in the dumper's DFS order from the outputs (`replace` maps the input graph's
  // var ids to nodes), into out()->graph.
  void Emit(const std::vector<std::optional<Ref>>& replace);

 private:
  uint32_t Add(Node n);
  Operator NewOp(const std::string& key);
  Param OwnedParam(uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                   flatbuffers::Offset<void> table);
  Node NewNode(const std::string& key, std::vector<Ref> in, std::optional<int> dtype);
  // An identical operator (type, params, inputs) made earlier, or the new one.
  Ref Insert(Node n, const std::string& dedup_key);
  std::optional<std::string> LocatorOf(Ref r) const;
  Ref ConstTensor(int dtype, const std::string& bytes, const std::vector<uint32_t>& shape,
                  Ref like);
  std::optional<float> ScalarConstOf(Ref r) const;
  void SortByRank(std::vector<Ref>* in, size_t from, size_t to) const;
  void InferShape(Node* n) const;

  const Graph& g_;
  RewrittenGraph* out_;
  std::vector<Node> nodes_;
  std::map<std::pair<std::string, std::vector<Ref>>, uint32_t> same_;  // dedup of operators
  std::map<std::tuple<std::string, int, std::string>, uint32_t> consts_;
  int32_t current_priority_ = 0;
  size_t current_ = 0;
  uint64_t next_rank_ = uint64_t{1} << 40;
};

}  // namespace graphport::mge::compat

#endif  // GRAPHPORT_MGE_DUMP_COMPAT_GRAPH_H_
