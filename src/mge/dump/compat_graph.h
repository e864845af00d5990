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

namespace graphport::mge::compat {

// DTypeEnum values the converters use.
constexpr int kFloat32 = 0;
constexpr int kInt32 = 4;
constexpr int kBool = 18;

// Elemwise modes (ElemwiseMode of opr_params.fbs) the converters read or build.
enum Mode : uint32_t {
  RELU = 0,
  ABS = 1,
  COS = 5,
  EXP = 6,
  EXPM1 = 7,
  LOG = 9,
  LOG1P = 10,
  NEGATE = 11,
  SIN = 13,
  ADD = 16,
  FLOOR_DIV = 17,
  MAX_ = 18,
  MIN_ = 19,
  MUL = 21,
  POW = 22,
  SUB = 24,
  SWITCH_GT0 = 25,
  TRUE_DIV = 27,
  LOG_SUM_EXP = 28,
  LT = 29,
  LEQ = 30,
  EQ = 31,
  FUSE_MUL_ADD3 = 35,
  FUSE_ADD_RELU = 37,
  FUSE_ADD_SIGMOID = 38,
  FUSE_ADD_TANH = 39,
  RMULH = 43,
  NOT = 52,
  SINH = 64,
  COSH = 65,
  ASINH = 66,
  ACOSH = 67,
  ATANH = 68,
  TAN = 69,
  PRELU = 73,
  CLIP = 74,
  SOFTPLUS = 76,
  RELU6 = 78,
  HSIGMOID = 80,
  LOGSIGMOID = 82,
  SQRT = 83,
  SQUARE = 84,
  SIGN = 85,
};

// Reduce modes (ReduceMode).
enum ReduceMode : uint32_t { SUM = 0, SUM_SQR = 1, PRODUCT = 2, R_MAX = 4, MEAN = 5 };

// Union numbers of the param tables the converters write.
constexpr uint8_t kEmptyParam = 1;
constexpr uint8_t kAxisParam = 2;
constexpr uint8_t kElemwiseParam = 17;
constexpr uint8_t kMultiTypeParam = 18;
constexpr uint8_t kPowCParam = 19;
constexpr uint8_t kReduceParam = 23;
constexpr uint8_t kUniformRngParam = 32;
constexpr uint8_t kOptionalAxisV1Param = 54;
constexpr uint8_t kIndexDescParam = 66;
constexpr uint8_t kDTypeParam = 67;

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
