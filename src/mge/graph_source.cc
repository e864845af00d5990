#include "mge/graph_source.h"

#include "core/content_digest.h"
#include "mge/dtype.h"
#include "mge/dtype_infer.h"
#include "mge/inspect.h"

namespace graphport::mge {
namespace {

using nlohmann::json;

uint64_t OperatorWeightBytes(const Operator& op) {
  uint64_t bytes = 0;
  for (const Tensor& t : op.tensors) bytes += t.has_value ? t.value.size() : 0;
  return bytes;
}

}  // namespace

std::string MgeGraphSource::NodeName(const Graph& graph, size_t index) {
  const Operator& op = graph.oprs[index];
  if (op.name && !op.name->empty()) return *op.name;
  return op.DisplayType() + "#" + std::to_string(index);
}

const GraphIndex& MgeGraphSource::Index() {
  if (index_ != nullptr) return *index_;
  auto index = std::make_unique<GraphIndex>('.');
  const Graph& g = *graph_;
  for (size_t i = 0; i < g.oprs.size(); ++i) {
    const Operator& op = g.oprs[i];
    index->AddNode(NodeName(g, i), op.DisplayType(), OperatorWeightBytes(op));
    if (!op.inputs) continue;
    for (uint32_t var : *op.inputs) {
      // A var the reader could not tie to an operator is left out (the reader checks them).
      if (var >= g.vars.size() || g.vars[var].opr >= g.oprs.size()) continue;
      index->AddInput({g.vars[var].opr, g.vars[var].index, false});
    }
  }
  index->Resolve();
  var_dtypes_ = InferVarDTypes(g);
  index_ = std::move(index);
  return *index_;
}

json MgeGraphSource::VarJson(uint32_t id) const {
  const Graph& g = *graph_;
  json out = {{"var", id}};
  if (auto name = g.VarName(id)) out["varName"] = *name;
  if (id >= g.vars.size()) return out;
  const Var& var = g.vars[id];
  if (var.middle.dtype) {
    out["dtype"] = DTypeName(var.middle.dtype->type);
  } else if (id < var_dtypes_.size() && var_dtypes_[id]) {
    out["dtype"] = DTypeName(*var_dtypes_[id]);
  }
  if (var.middle.shape) out["shape"] = *var.middle.shape;
  // An operator holding one tensor (Host2DeviceCopy, ImmutableTensor, SharedDeviceTensor)
  // makes its first var of that tensor's dtype and shape.
  if (var.opr < g.oprs.size() && var.index == 0 && g.oprs[var.opr].tensors.size() == 1) {
    const Tensor& t = g.oprs[var.opr].tensors[0];
    if (!out.contains("shape") && t.shape) out["shape"] = *t.shape;
    if (!out.contains("dtype") && t.dtype) out["dtype"] = DTypeName(t.dtype->type);
  }
  return out;
}

json MgeGraphSource::NodeDetails(uint32_t node) {
  const GraphIndex& index = Index();
  const Graph& g = *graph_;
  const Operator& opr = g.oprs[node];
  json op = OperatorJson(g, node);
  json inputs = json::array();
  for (uint32_t id : opr.inputs.value_or(std::vector<uint32_t>())) {
    json item = VarJson(id);
    if (id < g.vars.size() && g.vars[id].opr < g.oprs.size()) {
      item["node"] = std::string(index.name(g.vars[id].opr));
      item["output"] = g.vars[id].index;
      item["name"] =
          std::string(index.name(g.vars[id].opr)) + ":" + std::to_string(g.vars[id].index);
    } else {
      item["missing"] = true;
      item["name"] = "var " + std::to_string(id);
    }
    item["control"] = false;
    inputs.push_back(std::move(item));
  }
  json outputs = json::array();
  for (size_t k = 0; k < opr.outputs.size(); ++k) {
    json item = VarJson(opr.outputs[k]);
    item["index"] = k;
    outputs.push_back(std::move(item));
  }
  // Each tensor's value by its digest: the export preview compares operators by it.
  json tensors = op["tensors"];
  for (size_t k = 0; k < tensors.size() && k < opr.tensors.size(); ++k) {
    if (opr.tensors[k].has_value) tensors[k]["digest"] = ContentDigestHex(opr.tensors[k].value);
  }
  json out = {{"name", std::string(index.name(node))},
              {"op", op["type"]},
              {"params", op["params"]},
              {"inputs", std::move(inputs)},
              {"outputs", std::move(outputs)},
              {"tensors", std::move(tensors)},
              {"weightBytes", index.weight_bytes(node)},
              {"operator", node}};
  if (!op["class"].is_null()) out["class"] = op["class"];
  json devices = json::array();
  for (const json& c : op["compNodes"]) {
    if (c.is_string() && !c.get<std::string>().empty()) devices.push_back(c);
  }
  if (devices.empty()) {
    for (const json& t : op["tensors"]) {
      if (t["compNode"].is_string() && !t["compNode"].get<std::string>().empty()) {
        devices.push_back(t["compNode"]);
      }
    }
  }
  if (!devices.empty()) out["device"] = devices.size() == 1 ? devices[0] : devices;
  return out;
}

}  // namespace graphport::mge
