#include "mge/inspect.h"

#include <map>

#include "core/base64.h"
#include "mge/dtype.h"
#include "mge/dump/dump_info.h"
#include "mge/json_int64.h"
#include "mge/param_json.h"
#include "mge/pickle/pickle_reader.h"

namespace graphport::mge {
namespace {

nlohmann::json DTypeJson(const std::optional<DType>& d) {
  if (!d) return nullptr;
  nlohmann::json out = {{"dtype", DTypeName(d->type)}};
  if (d->has_param) {
    out["scale"] = d->scale;
    if (HasZeroPoint(d->type)) out["zero_point"] = d->zero_point;
  }
  return out;
}

nlohmann::json CompNodeJson(const std::optional<std::optional<std::string>>& c) {
  if (!c) return nullptr;
  return *c ? nlohmann::json(**c) : nlohmann::json("");
}

nlohmann::json OptJson(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json();
}

nlohmann::json VarJson(const Graph& g, uint32_t id) {
  nlohmann::json v = {{"id", id}, {"name", OptJson(g.VarName(id))}};
  if (id < g.vars.size()) {
    const MiddleTensor& m = g.vars[id].middle;
    if (m.shape) v["shape"] = *m.shape;
    if (m.dtype) v["dtype"] = DTypeName(m.dtype->type);
    if (m.comp_node) v["compNode"] = CompNodeJson(m.comp_node);
  }
  return v;
}

nlohmann::json OperatorJson(const Graph& g, size_t index) {
  const Operator& op = g.oprs[index];
  nlohmann::json o;
  o["index"] = index;
  o["type"] = op.DisplayType();
  o["typeId"] = Hex64(op.type_id);
  if (g.format == DumpFormat::kFbsV2) o["oprVersion"] = op.opr_version;
  o["class"] = op.cls ? nlohmann::json(op.cls->cpp_class) : nlohmann::json();
  o["name"] = OptJson(op.name);
  nlohmann::json inputs = nlohmann::json::array();
  if (op.inputs) {
    for (uint32_t id : *op.inputs) inputs.push_back(VarJson(g, id));
  }
  o["inputs"] = inputs;
  nlohmann::json outputs = nlohmann::json::array();
  for (uint32_t id : op.outputs) outputs.push_back(VarJson(g, id));
  o["outputs"] = outputs;
  nlohmann::json params = nlohmann::json::array();
  for (const Param& p : op.params) params.push_back(ParamToJson(p, g.version));
  o["params"] = params;
  nlohmann::json tensors = nlohmann::json::array();
  for (const Tensor& t : op.tensors) {
    nlohmann::json tj = {{"name", OptJson(t.name)},
                         {"shape", t.shape ? nlohmann::json(*t.shape) : nlohmann::json()},
                         {"dtype", DTypeJson(t.dtype)},
                         {"compNode", CompNodeJson(t.comp_node)},
                         {"valueBytes", t.has_value ? t.value.size() : 0}};
    tensors.push_back(tj);
  }
  o["tensors"] = tensors;
  nlohmann::json blobs = nlohmann::json::array();
  for (const Blob& b : op.blobs) blobs.push_back(b.data.size());
  o["blobs"] = blobs;
  nlohmann::json cns = nlohmann::json::array();
  if (op.comp_nodes) {
    for (const auto& c : *op.comp_nodes) cns.push_back(c ? nlohmann::json(*c) : "");
  }
  o["compNodes"] = cns;
  o["priority"] = op.priority;
  o["outputDtype"] = DTypeJson(op.output_dtype);
  return o;
}

nlohmann::json MetadataJson(const Metadata& m) {
  if (!m.present) return nullptr;
  nlohmann::json j = {{"isValid", m.is_valid},
                      {"graphModified", m.graph_modified},
                      {"optimizeOptions", JsonUint64(m.optimize_options)},
                      {"optimizedForInference", m.optimize_options != 0},
                      {"optimizeFlags", OptimizeOptionNames(m.optimize_options)}};
  if (m.user_info) {
    nlohmann::json ui = {{"base64", Base64Encode(*m.user_info)}, {"size", m.user_info->size()}};
    nlohmann::json value;
    std::string why;
    if (m.user_info->empty()) {
      ui["value"] = nullptr;
      ui["note"] = "empty";
    } else if (ReadPlainPickle(*m.user_info, &value, &why)) {
      ui["value"] = value;
    } else {
      ui["value"] = nullptr;
      ui["note"] = "not a pickle of plain values: " + why;
    }
    j["userInfo"] = ui;
  } else {
    j["userInfo"] = nullptr;
  }
  return j;
}

nlohmann::json GraphSummary(const Graph& g, size_t index) {
  return {{"index", index},
          {"format", g.FormatName()},
          {"offset", g.file_offset},
          {"bytes", g.file_bytes},
          {"operators", g.oprs.size()}};
}

}  // namespace

std::vector<std::string> OptimizeOptionNames(uint64_t word) {
  static const char* kLayouts[] = {nullptr,         "enable_nchw4",  "enable_hwcd4",
                                   "enable_nchw88", "enable_nchw44", "enable_nchw44_dot",
                                   "enable_nchw32", "enable_chwn4",  "enable_nchw64"};
  std::vector<std::string> names;
  uint64_t layout = word >> 32;
  if (layout > 0 && layout < sizeof(kLayouts) / sizeof(kLayouts[0])) {
    names.push_back(kLayouts[layout]);
  }
  const std::pair<int, const char*> kFlags[] = {{0, "enable_io16xc32"},
                                                {1, "enable_ioc16"},
                                                {2, "enable_fuse_conv_bias_nonlinearity"},
                                                {3, "enable_fuse_conv_bias_with_z"},
                                                {5, "enable_fuse_preprocess"},
                                                {6, "enable_fuse_grain"}};
  for (const auto& [bit, name] : kFlags) {
    if (word & (uint64_t{1} << bit)) names.push_back(name);
  }
  return names;
}

nlohmann::json InspectMgeFile(const MgeFile& file, const InspectContext& ctx) {
  const Graph& g = file.graphs[ctx.graph];
  nlohmann::json j;
  j["family"] = "megengine";
  j["familyTitle"] = "MegEngine";
  j["format"] = file.test_container ? "mge-test" : g.FormatName();
  j["encoding"] = "binary";
  j["detection"] = ctx.detection;
  j["inputBytes"] = file.bytes.size();
  if (ctx.inputs.size() > 1) j["inputs"] = ctx.inputs;
  std::string producer;
  if (g.format == DumpFormat::kFbsV1) {
    producer = std::string("MegEngine FBS v1 (") + (g.magic == V1Magic::kMgbs ? "MGBS" : "MGBC") +
               "), mgb_version " + std::to_string(g.version);
  } else {
    producer = "MegEngine FBS_V2 (mgv2), mge_version " + std::to_string(g.version) +
               ", model version " + std::to_string(g.model_version);
  }
  if (file.test_container) {
    producer +=
        ", in an mgbtest0 container with " + std::to_string(file.declared_tests) + " test cases";
  }
  j["producerText"] = producer;
  uint64_t tensors = 0;  // tensors with values: weights and constants
  for (const Operator& op : g.oprs) {
    for (const Tensor& t : op.tensors) tensors += t.has_value ? 1 : 0;
  }
  // [label, number] pairs, shown in this order.
  j["counts"] = nlohmann::json::array({nlohmann::json::array({"operators", g.oprs.size()}),
                                       nlohmann::json::array({"vars", g.vars.size()}),
                                       nlohmann::json::array({"params", tensors}),
                                       nlohmann::json::array({"valueBytes", g.value_bytes}),
                                       nlohmann::json::array({"graphs", file.graphs.size()})});

  nlohmann::json m;
  m["graph"] = ctx.graph;
  nlohmann::json graphs = nlohmann::json::array();
  size_t first_test = file.test_container ? 1 : file.graphs.size();
  for (size_t i = 0; i < file.graphs.size(); ++i) {
    nlohmann::json s = GraphSummary(file.graphs[i], i);
    s["role"] = i >= first_test ? "test case" : "model";
    graphs.push_back(s);
  }
  m["graphs"] = graphs;
  if (file.test_container) {
    nlohmann::json tests = nlohmann::json::array();
    for (size_t i = 1; i < file.graphs.size(); ++i) {
      const Graph& t = file.graphs[i];
      nlohmann::json outputs = nlohmann::json::array();
      for (const OutputVar& v : t.outputs) outputs.push_back(OptJson(t.VarName(v.compact_id)));
      tests.push_back({{"index", i - 1},
                       {"graph", i},
                       {"operators", t.oprs.size()},
                       {"valueBytes", t.value_bytes},
                       {"outputs", outputs}});
    }
    m["testCases"] = tests;
  }
  nlohmann::json header = {{"format", g.format == DumpFormat::kFbsV1 ? "FBS" : "FBS_V2"}};
  if (g.format == DumpFormat::kFbsV1) {
    header["magic"] = g.magic == V1Magic::kMgbs ? "MGBS" : "MGBC";
    header["typeIds"] = g.magic == V1Magic::kMgbs ? "unversioned" : "persist";
    if (g.magic == V1Magic::kMgbc) header["featureBits"] = Hex64(g.feature_bits);
    header["hash"] = Hex64(g.hash);
    header["unusedValueBytes"] = g.unused_value_bytes;
  } else {
    header["modelVersion"] = g.model_version;
    header["middleTensors"] = g.has_middle_tensors;
  }
  header["version"] = g.version;
  header["nrSharedTensor"] = g.nr_shared_tensor;
  m["header"] = header;
  nlohmann::json oprs = nlohmann::json::array();
  std::map<std::string, uint64_t> ops;
  for (size_t i = 0; i < g.oprs.size(); ++i) {
    oprs.push_back(OperatorJson(g, i));
    ++ops[g.oprs[i].DisplayType()];
  }
  m["operators"] = oprs;
  m["ops"] = ops;
  nlohmann::json outputs = nlohmann::json::array();
  for (const OutputVar& v : g.outputs) {
    nlohmann::json o = VarJson(g, v.compact_id);
    o["originalId"] = v.original_id;
    outputs.push_back(o);
  }
  m["outputs"] = outputs;
  if (g.has_output_alias) {
    nlohmann::json aliases = nlohmann::json::array();
    for (const OutputAlias& a : g.aliases)
      aliases.push_back({{"id", a.id}, {"name", OptJson(a.name)}});
    m["outputAliases"] = aliases;
  }
  m["metadata"] = MetadataJson(g.metadata);
  m["dumpInfo"] = DumpInfoJson(LoadedDumpInfo(g));
  j["megengine"] = m;
  return j;
}

}  // namespace graphport::mge
