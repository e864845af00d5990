#include "mge/dump/compat_rewrite.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/error.h"
#include "mge/dtype.h"
#include "mge/dtype_infer.h"
#include "mge/param_copy.h"
#include "mge/read_error.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge {
namespace {

namespace param = mgb::serialization::fbs::param;

// ElemwiseMode values (opr_params.fbs).
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
  MAX_ = 18,
  MIN_ = 19,
  MUL = 21,
  POW = 22,
  SUB = 24,
  SWITCH_GT0 = 25,
  TRUE_DIV = 27,
  LT = 29,
  LEQ = 30,
  EQ = 31,
  FUSE_MUL_ADD3 = 35,
  FUSE_ADD_RELU = 37,
  FUSE_ADD_SIGMOID = 38,
  FUSE_ADD_TANH = 39,
  RMULH = 43,
  NOT = 52,
  LOG_SUM_EXP = 28,
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
// ElemwiseMultiTypeMode values.
enum MultiMode : uint32_t {
  M_EQ = 58,
  M_NEQ = 59,
  M_LT = 60,
  M_LEQ = 61,
  M_ISNAN = 62,
  M_ISINF = 63
};

constexpr int kFloat32 = 0;
constexpr int kBool = 18;

bool Commutative(uint32_t mode) {
  switch (mode) {
    case ADD:
    case FUSE_ADD_RELU:
    case FUSE_ADD_SIGMOID:
    case FUSE_ADD_TANH:
    case MUL:
    case RMULH:
    case MAX_:
    case MIN_:
    case EQ:
    case LOG_SUM_EXP:
      return true;
    default:
      return false;
  }
}

uint32_t ParamMode(const Operator& op, uint8_t type) {
  if (op.params.empty() || op.params[0].type != type || op.params[0].table == nullptr) return 0;
  return reinterpret_cast<const flatbuffers::Table*>(op.params[0].table)->GetField<uint32_t>(4, 0);
}

bool ElemwiseNeedsRewrite(uint32_t m) {
  switch (m) {
    case SQRT:
    case SQUARE:
    case TAN:
    case COSH:
    case SINH:
    case ASINH:
    case ACOSH:
    case ATANH:
    case CLIP:
    case SIGN:
    case HSIGMOID:
    case RELU6:
    case PRELU:
    case SOFTPLUS:
    case LOGSIGMOID:
      return true;
    default:
      return false;
  }
}

bool MultiTypeNeedsRewrite(uint32_t m) { return m >= M_EQ && m <= M_ISINF; }

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
};

class Rewriter {
 public:
  Rewriter(const Graph& g, DumpFormat target, RewrittenGraph* out)
      : g_(g), target_(target), out_(out) {}

  bool Run() {
    if (!NeedsAny()) return false;
    std::vector<std::optional<int>> dtypes = InferVarDTypes(g_);
    std::vector<Ref> replace(g_.vars.size());
    for (size_t i = 0; i < g_.oprs.size(); ++i) {
      const Operator& op = g_.oprs[i];
      Node n;
      n.op = op;
      n.rank = i;
      n.outputs = static_cast<uint32_t>(op.outputs.size());
      if (op.inputs) {
        for (uint32_t id : *op.inputs) n.inputs.push_back(replace[id]);
      }
      for (size_t k = 0; k < op.outputs.size(); ++k) {
        n.middle.push_back(g_.vars[op.outputs[k]].middle);
        n.dtypes.push_back(dtypes[op.outputs[k]]);
      }
      if (op.output_names) {
        n.has_v1_names = true;
        for (const auto& s : *op.output_names) n.v1_names.push_back(s);
      }
      current_priority_ = op.priority;
      current_ = i;
      std::optional<Ref> replaced = Convert(n);
      if (replaced) {
        ++out_->rewritten;
        // The replacement var keeps the old var's name and place among the outputs.
        Node& r = nodes_[replaced->node];
        r.middle[0] = n.middle[0];
        if (n.has_v1_names) {
          r.has_v1_names = true;
          r.v1_names = {n.v1_names.empty() ? std::nullopt : n.v1_names[0]};
        }
        replace[op.outputs[0]] = *replaced;
      } else {
        uint32_t index = Add(std::move(n));
        for (uint32_t k = 0; k < op.outputs.size(); ++k) replace[op.outputs[k]] = {index, k};
        RememberExisting(index);
      }
    }
    Emit(replace);
    return true;
  }

 private:
  // --- which operators convert ----------------------------------------------------------
  bool NeedsAny() {
    bool any = false;
    for (size_t i = 0; i < g_.oprs.size(); ++i) {
      const Operator& op = g_.oprs[i];
      if (op.cls == nullptr) continue;
      const std::string& key = op.cls->key;
      if ((key == "Elemwise" && ElemwiseNeedsRewrite(ParamMode(op, 17))) ||
          (key == "ElemwiseMultiType" && MultiTypeNeedsRewrite(ParamMode(op, 18))) ||
          key == "Where") {
        any = true;
      }
      static const std::set<std::string> kV1Only = {"Softmax", "LayerNorm", "Dropout",
                                                    "CheckNonFinite"};
      static const std::set<std::string> kBoth = {"GroupNorm", "GroupNormBackward", "InstanceNorm",
                                                  "InstanceNormBackward"};
      if (target_ == DumpFormat::kFbsV1 && (kV1Only.count(key) || kBoth.count(key))) {
        Unsupported(i, key +
                           ": FBS v1 needs MegEngine's compatibility rewrite of it, which "
                           "graphport does not implement yet (dump it as FBS_V2)");
      }
      if (target_ == DumpFormat::kFbsV2 && kBoth.count(key)) {
        out_->notes.push_back(key + " kept (MegEngine would decompose it; not implemented)");
      }
    }
    return any;
  }

  [[noreturn]] void Unsupported(size_t opr, const std::string& what) {
    const Operator& op = g_.oprs[opr];
    std::string label = OprLabel(opr, op.DisplayType());
    if (op.name) label += " '" + *op.name + "'";
    ErrorLocation where;
    where.opr = label;
    throw Error(ErrorCode::kUnsupported, "operator " + label + ": " + what, where);
  }

  // --- building nodes -------------------------------------------------------------------
  uint32_t Add(Node n) {
    nodes_.push_back(std::move(n));
    return static_cast<uint32_t>(nodes_.size() - 1);
  }

  Operator NewOp(const std::string& key) {
    Operator op;
    op.cls = FindClassByKey(key);
    op.priority = current_priority_;
    if (g_.format == DumpFormat::kFbsV2) {
      V2Registration reg;
      V2RegistrationOf(*op.cls, &reg);
      op.type_id = reg.type_id;
      op.opr_version = reg.opr_version;
      op.type = reg.type;
      op.has_outputs_vector = true;
    } else {
      V1TypeIdOf(*op.cls, g_.magic == V1Magic::kMgbc ? V1Ids::kPersist : V1Ids::kUnversioned,
                 &op.type_id);
    }
    return op;
  }

  Param OwnedParam(uint8_t type, flatbuffers::FlatBufferBuilder* fbb,
                   flatbuffers::Offset<void> table) {
    fbb->Finish(table);
    auto buffer = std::make_unique<flatbuffers::DetachedBuffer>(fbb->Release());
    Param p{type, reinterpret_cast<const uint8_t*>(
                      flatbuffers::GetRoot<flatbuffers::Table>(buffer->data()))};
    out_->storage.push_back(std::move(buffer));
    return p;
  }

  std::optional<int> DTypeOf(Ref r) const { return nodes_[r.node].dtypes[r.output]; }

  // The comp node of a var: its operator's, or its tensor's, or its first input's.
  std::optional<std::string> LocatorOf(Ref r) const {
    for (int depth = 0; depth < 64; ++depth) {
      const Node& n = nodes_[r.node];
      if (n.op.comp_nodes && !n.op.comp_nodes->empty() && (*n.op.comp_nodes)[0]) {
        return (*n.op.comp_nodes)[0];
      }
      if (!n.op.tensors.empty() && n.op.tensors[0].comp_node && *n.op.tensors[0].comp_node) {
        return *n.op.tensors[0].comp_node;
      }
      if (n.inputs.empty()) return std::nullopt;
      r = n.inputs[0];
    }
    return std::nullopt;
  }

  // ImmutableTensor::make of a Float32 scalar: shape (1,), the reference var's comp node;
  // the same value on the same comp node is the same operator (the value caches).
  Ref Const(float v, Ref like) {
    std::optional<std::string> locator = LocatorOf(like);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    auto key = std::make_tuple(bits, kFloat32, locator.value_or(""));
    auto it = consts_.find(key);
    if (it != consts_.end()) return {it->second, 0};
    Node n;
    n.op = NewOp("ImmutableTensor");
    if (locator) n.op.comp_nodes = std::vector<std::optional<std::string>>{locator};
    Tensor t;
    t.shape = std::vector<uint32_t>{1};
    if (locator) t.comp_node = std::optional<std::string>(*locator);
    t.dtype = DType{};
    if (g_.format == DumpFormat::kFbsV2) t.format = TensorFormat{1};
    auto value = std::make_unique<std::string>(reinterpret_cast<const char*>(&v), 4);
    t.has_value = true;
    t.value = *value;
    out_->values.push_back(std::move(value));
    n.op.tensors.push_back(t);
    n.op.has_tensors_vector = true;
    n.op.items = {{DumpItem::kTensor, 0}};
    n.middle.resize(1);
    n.dtypes = {kFloat32};
    n.rank = next_rank_++;
    uint32_t index = Add(std::move(n));
    consts_[key] = index;
    return {index, 0};
  }

  Ref Elemwise(uint32_t mode, std::vector<Ref> in) {
    if (Commutative(mode) && in.size() == 2) SortByRank(&in, 0, 2);
    if (mode == FUSE_MUL_ADD3) SortByRank(&in, 0, 2);
    auto key = std::make_pair(mode, in);
    auto it = elemwise_.find(key);
    if (it != elemwise_.end()) return {it->second, 0};
    Node n;
    n.op = NewOp("Elemwise");
    flatbuffers::FlatBufferBuilder fbb(64);
    n.op.params.push_back(OwnedParam(
        17, &fbb, param::CreateElemwise(fbb, static_cast<param::ElemwiseMode>(mode)).Union()));
    n.op.items = {{DumpItem::kParam, 0}};
    std::vector<std::optional<int>> in_types;
    for (const Ref& r : in) in_types.push_back(DTypeOf(r));
    n.inputs = in;
    n.middle.resize(1);
    n.dtypes = {in_types.empty() ? std::nullopt : in_types[0]};
    n.rank = next_rank_++;
    uint32_t index = Add(std::move(n));
    elemwise_[key] = index;
    return {index, 0};
  }

  // TypeCvt::make: the input itself when the dtype already matches.
  Ref TypeCvt(Ref x, int dtype) {
    if (DTypeOf(x) && *DTypeOf(x) == dtype) return x;
    Node n;
    n.op = NewOp("TypeCvt");
    flatbuffers::FlatBufferBuilder fbb(64);
    DType d;
    d.type = static_cast<int8_t>(dtype);
    n.op.params.push_back(OwnedParam(67, &fbb, BuildDType(&fbb, d)));
    n.op.items = {{DumpItem::kParam, 0}};
    n.inputs = {x};
    n.middle.resize(1);
    n.dtypes = {dtype};
    n.rank = next_rank_++;
    return {Add(std::move(n)), 0};
  }

  void SortByRank(std::vector<Ref>* in, size_t from, size_t to) {
    std::stable_sort(in->begin() + from, in->begin() + to, [&](const Ref& a, const Ref& b) {
      return std::make_pair(nodes_[a.node].rank, a.output) <
             std::make_pair(nodes_[b.node].rank, b.output);
    });
  }

  // Existing operators take part in deduplication like MegEngine's insert_pre.
  void RememberExisting(uint32_t index) {
    const Node& n = nodes_[index];
    if (n.op.cls == nullptr) return;
    if (n.op.cls->key == "Elemwise") {
      elemwise_.emplace(std::make_pair(ParamMode(n.op, 17), n.inputs), index);
    } else if (n.op.cls->key == "ImmutableTensor" && n.op.tensors.size() == 1) {
      const Tensor& t = n.op.tensors[0];
      if (t.shape && *t.shape == std::vector<uint32_t>{1} && t.dtype && t.value.size() == 4 &&
          t.dtype->type == kFloat32) {
        uint32_t bits;
        std::memcpy(&bits, t.value.data(), 4);
        std::string locator = t.comp_node && *t.comp_node ? **t.comp_node : "";
        consts_.emplace(std::make_tuple(bits, kFloat32, locator), index);
      }
    }
  }

  void RequireFloat32(const Node& n, size_t count) {
    for (size_t k = 0; k < count && k < n.inputs.size(); ++k) {
      std::optional<int> t = DTypeOf(n.inputs[k]);
      if (!t || *t != kFloat32) {
        Unsupported(current_,
                    "the compatibility rewrite is implemented for Float32 inputs; "
                    "input " +
                        std::to_string(k) + " is " +
                        (t ? DTypeName(*t) : std::string("of unknown dtype")));
      }
    }
  }

  // --- the converters ---------------------------------------------------------------------
  std::optional<Ref> Convert(const Node& n) {
    if (n.op.cls == nullptr) return std::nullopt;
    const std::string& key = n.op.cls->key;
    if (key == "Elemwise") {
      uint32_t mode = ParamMode(n.op, 17);
      if (!ElemwiseNeedsRewrite(mode)) return std::nullopt;
      RequireFloat32(n, n.inputs.size());
      return ConvertElemwise(mode, n.inputs);
    }
    if (key == "ElemwiseMultiType") {
      uint32_t mode = ParamMode(n.op, 18);
      if (!MultiTypeNeedsRewrite(mode)) return std::nullopt;
      return ConvertMultiType(mode, n);
    }
    if (key == "Where") {
      if (n.inputs.size() != 3) Unsupported(current_, "Where needs 3 inputs");
      RequireFloat32(n, 0);
      std::optional<int> xt = DTypeOf(n.inputs[1]);
      if (!xt || *xt != kFloat32) Unsupported(current_, "Where is rewritten for Float32 x only");
      Ref m = TypeCvt(n.inputs[0], *xt);
      Ref a = Elemwise(SWITCH_GT0, {m, n.inputs[1]});
      Ref one = Const(1.0f, m);
      Ref k = Elemwise(SUB, {one, m});
      Ref b = Elemwise(SWITCH_GT0, {k, n.inputs[2]});
      return Elemwise(ADD, {a, b});
    }
    return std::nullopt;
  }

  Ref ConvertElemwise(uint32_t mode, const std::vector<Ref>& in) {
    auto need = [&](size_t n) {
      if (in.size() != n) Unsupported(current_, "wrong number of inputs for its mode");
    };
    need(mode == CLIP ? 3 : mode == PRELU ? 2 : 1);
    Ref x = in[0];
    switch (mode) {
      case SQRT:
        return Elemwise(POW, {x, Const(0.5f, x)});
      case SQUARE:
        return Elemwise(POW, {x, Const(2.0f, x)});
      case TAN: {
        Ref s = Elemwise(SIN, {x});
        Ref c = Elemwise(COS, {x});
        return Elemwise(TRUE_DIV, {s, c});
      }
      case COSH: {
        Ref h = Const(0.5f, x);
        Ref e = Elemwise(EXP, {x});
        Ref n = Elemwise(NEGATE, {x});
        Ref en = Elemwise(EXP, {n});
        Ref a = Elemwise(ADD, {e, en});
        return Elemwise(MUL, {h, a});
      }
      case SINH: {
        Ref t = Const(2.0f, x), h = Const(0.5f, x), o = Const(1.0f, x);
        Ref u = Elemwise(EXPM1, {x});
        Ref p = Elemwise(MUL, {u, h});
        Ref q1 = Elemwise(ADD, {u, o});
        Ref q2 = Elemwise(ADD, {u, t});
        Ref r = Elemwise(TRUE_DIV, {p, q1});
        return Elemwise(MUL, {r, q2});
      }
      case ASINH:
      case ACOSH: {
        Ref t = Const(2.0f, x), h = Const(0.5f, x), o = Const(1.0f, x);
        Ref s = Elemwise(POW, {x, t});
        Ref a = Elemwise(mode == ASINH ? ADD : SUB, {s, o});
        Ref r = Elemwise(POW, {a, h});
        Ref b = Elemwise(ADD, {x, r});
        return Elemwise(LOG, {b});
      }
      case ATANH: {
        Ref t = Const(2.0f, x), o = Const(1.0f, x);
        Ref p = Elemwise(MUL, {t, x});
        Ref q = Elemwise(SUB, {o, x});
        Ref r = Elemwise(TRUE_DIV, {p, q});
        Ref l = Elemwise(LOG1P, {r});
        return Elemwise(TRUE_DIV, {l, t});
      }
      case CLIP: {
        Ref m = Elemwise(MAX_, {x, in[1]});
        return Elemwise(MIN_, {m, in[2]});
      }
      case SIGN: {
        Ref zero = Const(0.0f, x);
        Ref a = Elemwise(LT, {x, zero});
        Ref b = Elemwise(LT, {zero, x});
        return Elemwise(SUB, {a, b});
      }
      case HSIGMOID: {
        Ref six = Const(6.0f, x), zero = Const(0.0f, x), three = Const(3.0f, x);
        Ref a = Elemwise(ADD, {x, three});
        Ref b = Elemwise(MAX_, {a, zero});
        Ref c = Elemwise(MIN_, {b, six});
        return Elemwise(TRUE_DIV, {c, six});
      }
      case RELU6: {
        Ref six = Const(6.0f, x), zero = Const(0.0f, x);
        Ref a = Elemwise(MAX_, {x, zero});
        return Elemwise(MIN_, {a, six});
      }
      case PRELU: {
        Ref zero = Const(0.0f, x);
        Ref a = Elemwise(MIN_, {x, zero});
        Ref b = Elemwise(MAX_, {x, zero});
        return Elemwise(FUSE_MUL_ADD3, {a, in[1], b});
      }
      case SOFTPLUS:
      case LOGSIGMOID: {
        Ref a = Elemwise(ABS, {x});
        Ref n = Elemwise(NEGATE, {a});
        Ref e = Elemwise(EXP, {n});
        Ref l = Elemwise(LOG1P, {e});
        if (mode == SOFTPLUS) return Elemwise(ADD, {l, Elemwise(RELU, {x})});
        Ref nx = Elemwise(NEGATE, {x});
        Ref r = Elemwise(RELU, {nx});
        Ref s = Elemwise(ADD, {l, r});
        return Elemwise(NEGATE, {s});
      }
      default:
        Unsupported(current_, "no converter for Elemwise mode " + std::to_string(mode));
    }
  }

  Ref ConvertMultiType(uint32_t mode, const Node& n) {
    size_t arity = mode == M_ISNAN || mode == M_ISINF ? 1 : 2;
    if (n.inputs.size() != arity) Unsupported(current_, "wrong number of inputs for its mode");
    std::optional<int> t0 = DTypeOf(n.inputs[0]);
    std::optional<int> t1 = arity == 2 ? DTypeOf(n.inputs[1]) : t0;
    if (!t0 || !t1 || *t0 != *t1) {
      Unsupported(current_, "the compatibility rewrite needs inputs of one known dtype");
    }
    Ref x = n.inputs[0];
    switch (mode) {
      case M_EQ:
      case M_LT:
      case M_LEQ: {
        uint32_t m = mode == M_EQ ? EQ : mode == M_LT ? LT : LEQ;
        return TypeCvt(Elemwise(m, {x, n.inputs[1]}), kBool);
      }
      case M_NEQ:
        return Elemwise(NOT, {TypeCvt(Elemwise(EQ, {x, n.inputs[1]}), kBool)});
      case M_ISNAN:
        return Elemwise(NOT, {TypeCvt(Elemwise(EQ, {x, x}), kBool)});
      default: {  // ISINF: only +inf is detected after the conversion, as in MegEngine
        Ref inf = Const(std::numeric_limits<float>::infinity(), x);
        Ref f = TypeCvt(x, kFloat32);
        return TypeCvt(Elemwise(EQ, {f, inf}), kBool);
      }
    }
  }

  // --- renumbering in the dumper's order ----------------------------------------------------
  void Emit(const std::vector<Ref>& replace) {
    std::vector<uint32_t> order;
    std::vector<int> state(nodes_.size(), 0);  // 0 new, 1 on the stack, 2 emitted
    for (const OutputVar& v : g_.outputs) {
      uint32_t root = replace[v.compact_id].node;
      // Iterative post-order DFS, inputs left to right.
      std::vector<std::pair<uint32_t, size_t>> stack;
      if (state[root] == 0) {
        stack.push_back({root, 0});
        state[root] = 1;
      }
      while (!stack.empty()) {
        auto& [node, next] = stack.back();
        if (next < nodes_[node].inputs.size()) {
          uint32_t in = nodes_[node].inputs[next++].node;
          if (state[in] == 0) {
            state[in] = 1;
            stack.push_back({in, 0});
          }
        } else {
          state[node] = 2;
          order.push_back(node);
          stack.pop_back();
        }
      }
    }
    Graph& out = out_->graph;
    out.format = g_.format;
    out.magic = g_.magic;
    out.feature_bits = g_.feature_bits;
    out.version = g_.version;
    out.model_version = g_.model_version;
    out.hash = g_.hash;
    out.nr_shared_tensor = g_.nr_shared_tensor;
    out.has_middle_tensors = g_.has_middle_tensors;
    out.has_output_alias = g_.has_output_alias;
    out.aliases = g_.aliases;
    out.metadata = g_.metadata;
    std::map<Ref, uint32_t> ids;
    for (uint32_t index : order) {
      Node& n = nodes_[index];
      Operator op = n.op;
      if (!n.inputs.empty() || op.inputs) {
        op.inputs = std::vector<uint32_t>();
        for (const Ref& r : n.inputs) op.inputs->push_back(ids.at(r));
      }
      op.outputs.clear();
      op.output_names.reset();
      if (n.has_v1_names) {
        op.output_names = std::vector<std::string>();
        for (const auto& s : n.v1_names) op.output_names->push_back(s.value_or(""));
      }
      for (uint32_t k = 0; k < n.outputs; ++k) {
        uint32_t id = static_cast<uint32_t>(out.vars.size());
        ids[{index, k}] = id;
        op.outputs.push_back(id);
        Var var;
        var.opr = static_cast<uint32_t>(out.oprs.size());
        var.index = k;
        var.middle = k < n.middle.size() ? n.middle[k] : MiddleTensor();
        out.vars.push_back(var);
      }
      out.oprs.push_back(std::move(op));
    }
    for (const OutputVar& v : g_.outputs) {
      out.outputs.push_back({ids.at(replace[v.compact_id]), v.original_id});
    }
    for (const Operator& op : out.oprs) {
      for (const Tensor& t : op.tensors) out.value_bytes += t.has_value ? t.value.size() : 0;
    }
  }

  const Graph& g_;
  DumpFormat target_;
  RewrittenGraph* out_;
  std::vector<Node> nodes_;
  std::map<std::pair<uint32_t, std::vector<Ref>>, uint32_t> elemwise_;
  std::map<std::tuple<uint32_t, int, std::string>, uint32_t> consts_;
  int32_t current_priority_ = 0;
  size_t current_ = 0;
  uint64_t next_rank_ = uint64_t{1} << 40;
};

}  // namespace

bool RewriteForCompat(const Graph& graph, DumpFormat target, RewrittenGraph* out) {
  return Rewriter(graph, target, out).Run();
}

}  // namespace graphport::mge
