#include "mge/optimize/opr_name.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "mge/dtype.h"
#include "mge/optimize/eval/opr_eval.h"
#include "mge/optimize/opr_maker.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

constexpr size_t kNameListLimit = 64;  // make_name closes the input list from here on

std::string Printf(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string ShapeText(const Shape& shape) {
  std::string s = "{";
  for (size_t k = 0; k < shape.size(); ++k) s += (k ? "," : "") + std::to_string(shape[k]);
  return s + "}";
}

// ImmutableTensor's name: its value when it has one element, else its shape.
std::string ValueSummary(const Operator& op) {
  std::optional<HostValue> value = StoredValue(op, 0);
  if (!value) return "const";
  if (value->size() == 1) {
    std::string s = "const<" + Printf("%.3g", value->AsFloat(0)) + ">";
    if (value->shape.size() != 1) s += ShapeText(value->shape);
    return s;
  }
  return "const" + ShapeText(value->shape);
}

// MegEngine's default name of each operator class (the name its constructor passes on), and
// whether it names its first input only: reshape(x), not reshape(x,target).
struct ClassName {
  const char* key;
  const char* base;
  bool first_input_only;
};
constexpr ClassName kClassNames[] = {
    {"AdaptivePooling", "adaptive_pooling", false},
    {"AddUpdate", "inplace_add", false},
    {"Argsort", "argsort", false},
    {"AxisAddRemove", "axis_add_rm", true},
    {"BatchConvBiasForward", "batch_conv_bias", false},
    {"BatchNorm", "batch_norm", false},
    {"BatchedMatrixMul", "batched_matrix_mul", false},
    {"Broadcast", "broadcast", true},
    {"Concat", "concat", false},
    {"CondTake", "cond_take", false},
    {"ConvBiasForward", "conv_bias", false},
    {"Convolution", "conv", false},
    {"Convolution3D", "conv3d", false},
    {"Convolution3DBackwardData", "conv3d_bwd_data", false},
    {"Convolution3DBackwardFilter", "conv3d_bwd_filter", false},
    {"ConvolutionBackwardData", "conv_bwd_data", false},
    {"ConvolutionBackwardFilter", "conv_bwd_filter", false},
    {"Copy", "copy", true},
    {"Correlation", "correlation", false},
    {"Dimshuffle", "dimshuffle", true},
    {"Dot", "dot", false},
    {"Dropout", "dropout", false},
    {"GeneralNorm", "general_norm", false},
    {"GetVarShape", "shape_of", false},
    {"GroupNorm", "group_norm", false},
    {"Host2DeviceCopy", "h2d", false},
    {"Identity", "identity", false},
    {"InstanceNorm", "instance_norm", false},
    {"LayerNorm", "layer_norm", false},
    {"LocalShareBackwardData", "local_share_bwd_data", false},
    {"LocalShareForward", "local_share", false},
    {"MarkNoBroadcastElemwise", "no_brdcst", false},
    {"MatrixMul", "matrix_mul", false},
    {"MultipleDeviceTensorHolder", "multi_dv", false},
    {"Pooling", "pooling", true},
    {"PoolingBackward", "pooling_bwd", false},
    {"ROIAlign", "roi_align", false},
    {"ROIPooling", "roi_pooling", false},
    {"Reshape", "reshape", true},
    {"SetSubtensor", "set_subtensor", false},
    {"ShapeHint", "shape_hint", false},
    {"SharedDeviceTensor", "shared", false},
    {"Softmax", "softmax", false},
    {"Split", "split", true},
    {"Subtensor", "subtensor", true},
    {"TopK", "top_k", false},
    {"WarpPerspective", "warp_perspective", false},
};

const ClassName* FindClassName(std::string_view key) {
  for (const ClassName& c : kClassNames) {
    if (key == c.key) return &c;
  }
  return nullptr;
}

// The class's part of a default name.
std::string Base(const OptGraph& g, uint32_t node) {
  const Operator& op = g.node(node).op();
  const std::string_view key = g.Key(node);
  if (std::optional<uint32_t> mode = g.node(node).elemwise_mode()) {
    const char* name = param::EnumNameElemwiseMode(static_cast<param::ElemwiseMode>(*mode));
    return name && *name ? name : "Elemwise";
  }
  const bool has_param = !op.params.empty() && op.params[0].table != nullptr;
  if (key == "PowC" && has_param) {
    return "powc_" + Printf("%g", reinterpret_cast<const param::PowC*>(op.params[0].table)->exp());
  }
  if (key == "Reduce" && has_param) {
    return "reduce" + std::to_string(static_cast<int>(
                          reinterpret_cast<const param::Reduce*>(op.params[0].table)->mode()));
  }
  if (key == "TypeCvt") {
    const std::optional<int>& dtype =
        g.node(node).outputs.empty() ? std::optional<int>() : g.node(node).outputs[0].dtype;
    return "as" + (dtype ? DTypeName(*dtype) : std::string());
  }
  if (key == "ImmutableTensor") {
    // A loaded constant's value is set up from a device tensor, which MegEngine sums up by
    // its shape only; one a pass makes from a host value, by its value when it has one element.
    if (node < g.loaded_count()) {
      std::optional<HostValue> value = StoredValue(op, 0);
      return value ? "const" + ShapeText(value->shape) : "const";
    }
    return ValueSummary(op);
  }
  if (const ClassName* c = FindClassName(key)) return c->base;
  return key.empty() ? op.DisplayType() : std::string(key);
}

// How many inputs the default name lists.
size_t NamedInputs(const OptGraph& g, uint32_t node) {
  const std::string_view key = g.Key(node);
  const ClassName* c = FindClassName(key);
  const bool first_only =
      key == "Reduce" || key == "TypeCvt" || key == "PowC" || (c != nullptr && c->first_input_only);
  return first_only ? std::min<size_t>(1, g.node(node).inputs.size()) : g.node(node).inputs.size();
}

// An input's part: its name without the outermost parenthesised span (from the first '(' to
// the last ')', or to the end when no ')' follows), appended to `out`.
void AppendStripped(std::string_view name, std::string* out) {
  const size_t open = name.find('(');
  if (open == std::string_view::npos) {
    out->append(name);
    return;
  }
  out->append(name.substr(0, open));
  const size_t close = name.rfind(')');
  if (close != std::string_view::npos && close > open) out->append(name.substr(close + 1));
}

// When a var's name is read: while MegEngine loads the graph (a loaded operator's default
// name is made then, from its inputs' names at that time), or after Network.load named each
// input var after its tensor (G.load_graph) and before the passes.
enum class View { kLoading, kLoaded };

// The var's own name: the file's middle tensor or FBS v1 output name, or a pass's.
const std::string* ExplicitName(const OptVar& var) {
  if (var.middle().name) return &*var.middle().name;
  if (var.v1_name() && !var.v1_name()->empty()) return var.v1_name();
  return nullptr;
}

// A loaded input's tensor name, which names its var once the graph is loaded.
const std::string* InputTensorName(const OptGraph& g, uint32_t node) {
  const OptNode& n = g.node(node);
  if (n.name_source() == OptNode::kNoNameSource || g.Key(node) != "Host2DeviceCopy") {
    return nullptr;
  }
  const Operator& op = n.op();
  if (op.tensors.empty() || !op.tensors[0].name) return nullptr;
  return &*op.tensors[0].name;
}

// ":o<k>" after the operator's name for one of several outputs.
void AppendOutputSuffix(const OptNode& n, uint32_t output, std::string* out) {
  if (n.outputs.size() == 1) return;
  out->append(":o");
  out->append(std::to_string(output));
}

// The same as AppendStripped(name of v) without making the name: a default name stripped is
// its base and id (a pass names every operator it makes after its inputs).
void AppendStrippedVarName(const OptGraph& g, VarRef v, View view, std::string* out) {
  if (const std::string* name = ExplicitName(g.var(v))) return AppendStripped(*name, out);
  const OptNode& n = g.node(v.node);
  if (view == View::kLoaded) {
    if (const std::string* tensor = InputTensorName(g, v.node)) {
      return AppendStripped(*tensor, out);
    }
  }
  if (n.op().name) {
    AppendStripped(*n.op().name, out);
  } else {
    const uint32_t source = n.name_source() == OptNode::kNoNameSource ? v.node : n.name_source();
    out->append(Base(g, source));
    out->append("[" + std::to_string(g.node(source).id) + "]");
  }
  AppendOutputSuffix(n, v.output, out);
}

}  // namespace

std::string VarName(const OptGraph& g, VarRef v) {
  if (const std::string* name = ExplicitName(g.var(v))) return *name;
  if (const std::string* tensor = InputTensorName(g, v.node)) return *tensor;
  const OptNode& n = g.node(v.node);
  std::string name;
  if (n.op().name) {
    name = *n.op().name;
  } else if (n.name_source() != OptNode::kNoNameSource) {
    name = DefaultOprName(g, n.name_source());
  } else {
    name = Base(g, v.node) + "[" + std::to_string(n.id) + "]";
  }
  AppendOutputSuffix(n, v.output, &name);
  return name;
}

bool HasNameSet(const OptGraph& g, VarRef v) {
  if (ExplicitName(g.var(v)) != nullptr) return true;
  const OptNode& n = g.node(v.node);
  if (n.names_set()) return true;
  if (v.node >= g.loaded_count()) return false;
  const std::string_view key = g.Key(v.node);
  if (key == "Host2DeviceCopy" || key == "ImmutableTensor" || key == "SharedDeviceTensor") {
    return true;
  }
  const std::vector<VarRef>& outputs = g.loaded_endpoints();
  return std::find(outputs.begin(), outputs.end(), v) != outputs.end();
}

std::string DefaultOprName(const OptGraph& g, uint32_t node, const VarList* as_given) {
  const OptNode& n = g.node(node);
  const VarList& inputs =
      as_given != nullptr && as_given->size() == n.inputs.size() ? *as_given : n.inputs;
  const View view = node < g.loaded_count() ? View::kLoading : View::kLoaded;
  std::string name = Base(g, node);
  const size_t named = NamedInputs(g, node);
  if (named != 0) {
    name += "(";
    for (size_t k = 0; k < named; ++k) {
      if (k) name += ",";
      if (name.size() >= kNameListLimit) {
        name += "...";
        break;
      }
      AppendStrippedVarName(g, inputs[k], view, &name);
    }
    name += ")";
  }
  name += "[";
  name += std::to_string(n.id);
  name += "]";
  return name;
}

}  // namespace graphport::mge::opt
