#include "mge/optimize/opr_name.h"

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
  if (key == "ImmutableTensor") return ValueSummary(op);
  if (key == "GetVarShape") return "shape_of";
  if (key == "Reshape") return "reshape";
  if (key == "Broadcast") return "broadcast";
  if (key == "Concat") return "concat";
  if (key == "Subtensor") return "subtensor";
  if (key == "Dimshuffle") return "dimshuffle";
  if (key == "Host2DeviceCopy") return "h2d";
  if (key == "SharedDeviceTensor") return "shared";
  if (key == "MultipleDeviceTensorHolder") return "multi_dv";
  return key.empty() ? op.DisplayType() : std::string(key);
}

// An input's part: its name without the outermost parenthesised span, appended to `out`
// (no copy of the name: a pass names every operator it makes after its inputs).
void AppendStripped(std::string_view name, std::string* out) {
  const size_t open = name.find('(');
  const size_t close = name.rfind(')');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    out->append(name.substr(0, open));
    out->append(name.substr(close + 1));
  } else {
    out->append(name);
  }
}

// The same for VarName(g, v).
void AppendStrippedVarName(const OptGraph& g, VarRef v, std::string* out) {
  const OptVar& var = g.var(v);
  if (var.middle().name) return AppendStripped(*var.middle().name, out);
  if (var.v1_name() && !var.v1_name()->empty()) return AppendStripped(*var.v1_name(), out);
  AppendStripped(VarName(g, v), out);
}

}  // namespace

std::string VarName(const OptGraph& g, VarRef v) {
  const OptVar& var = g.var(v);
  if (var.middle().name) return *var.middle().name;
  if (var.v1_name() && !var.v1_name()->empty()) return *var.v1_name();
  const OptNode& n = g.node(v.node);
  // Not the inputs' names again: a chain of nameless operators would repeat them all.
  const std::string opr =
      n.op().name ? *n.op().name : Base(g, v.node) + "[" + std::to_string(n.id) + "]";
  if (n.outputs.size() == 1) return opr;
  return opr + ":o" + std::to_string(v.output);
}

std::string DefaultOprName(const OptGraph& g, uint32_t node) {
  const OptNode& n = g.node(node);
  std::string name = Base(g, node);
  const std::string_view key = g.Key(node);
  // Reshape and Broadcast name only the var they reshape; sources have no inputs.
  const size_t named = (key == "Reshape" || key == "Broadcast") ? 1 : n.inputs.size();
  if (named != 0 && !n.inputs.empty()) {
    name += "(";
    for (size_t k = 0; k < named && k < n.inputs.size(); ++k) {
      if (k) name += ",";
      if (name.size() >= kNameListLimit) {
        name += "...";
        break;
      }
      AppendStrippedVarName(g, n.inputs[k], &name);
    }
    name += ")";
  }
  name += "[";
  name += std::to_string(n.id);
  name += "]";
  return name;
}

}  // namespace graphport::mge::opt
