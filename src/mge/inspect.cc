#include "mge/inspect.h"

#include <algorithm>
#include <map>

#include "core/base64.h"
#include "core/error.h"
#include "core/json_parse.h"
#include "core/strings.h"
#include "mge/dtype.h"
#include "mge/dump/dump_info.h"
#include "mge/json_int64.h"
#include "mge/json_text.h"
#include "mge/param_json.h"
#include "mge/pickle/pickle_reader.h"

namespace graphport::mge {
namespace {

nlohmann::json OptJson(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json();
}

// Keys in sorted order throughout: the text must equal nlohmann's dump of the same object.
void WriteDType(const std::optional<DType>& d, JsonText* out) {
  if (d) {
    out->Dom(DTypeJson(d));
  } else {
    out->Null();
  }
}

void WriteCompNode(const std::optional<std::optional<std::string>>& c, JsonText* out) {
  if (!c) {
    out->Null();
  } else {
    out->String(*c ? **c : std::string());
  }
}

// A var: {compNode?, dtype?, id, name, originalId (graph outputs), shape?}.
void WriteVar(const Graph& g, uint32_t id, const std::optional<uint32_t>& original_id,
              JsonText* out) {
  const MiddleTensor* m = id < g.vars.size() ? &g.vars[id].middle : nullptr;
  out->BeginObject();
  if (m != nullptr && m->comp_node) {
    out->Key("compNode");
    WriteCompNode(m->comp_node, out);
  }
  if (m != nullptr && m->dtype) {
    out->Key("dtype");
    out->String(DTypeName(m->dtype->type));
  }
  out->Key("id");
  out->Uint(id);
  out->Key("name");
  out->OptString(g.VarName(id));
  if (original_id) {
    out->Key("originalId");
    out->Uint(*original_id);
  }
  if (m != nullptr && m->shape) {
    out->Key("shape");
    out->Uints(*m->shape);
  }
  out->EndObject();
}

void WriteTensor(const Tensor& t, JsonText* out) {
  out->BeginObject();
  out->Key("compNode");
  WriteCompNode(t.comp_node, out);
  out->Key("dtype");
  WriteDType(t.dtype, out);
  out->Key("name");
  out->OptString(t.name);
  out->Key("shape");
  if (t.shape) {
    out->Uints(*t.shape);
  } else {
    out->Null();
  }
  out->Key("valueBytes");
  out->Uint(t.has_value ? t.value.size() : 0);
  out->EndObject();
}

void WriteOperator(const Graph& g, size_t index, JsonText* out) {
  const Operator& op = g.oprs[index];
  out->BeginObject();
  out->Key("blobs");
  out->BeginArray();
  for (const Blob& b : op.blobs) out->Uint(b.data.size());
  out->EndArray();
  out->Key("class");
  if (op.cls) {
    out->String(op.cls->cpp_class);
  } else {
    out->Null();
  }
  out->Key("compNodes");
  out->BeginArray();
  if (op.comp_nodes) {
    for (const auto& c : *op.comp_nodes) out->String(c ? *c : std::string());
  }
  out->EndArray();
  out->Key("index");
  out->Uint(index);
  out->Key("inputs");
  out->BeginArray();
  if (op.inputs) {
    for (uint32_t id : *op.inputs) WriteVar(g, id, std::nullopt, out);
  }
  out->EndArray();
  out->Key("name");
  out->OptString(op.name);
  if (g.format == DumpFormat::kFbsV2) {
    out->Key("oprVersion");
    out->Uint(op.opr_version);
  }
  out->Key("outputDtype");
  WriteDType(op.output_dtype, out);
  out->Key("outputs");
  out->BeginArray();
  for (uint32_t id : op.outputs) WriteVar(g, id, std::nullopt, out);
  out->EndArray();
  out->Key("params");
  out->BeginArray();
  for (const Param& p : op.params) out->Dom(ParamToJson(p, g.version));
  out->EndArray();
  out->Key("priority");
  out->Int(op.priority);
  out->Key("tensors");
  out->BeginArray();
  for (const Tensor& t : op.tensors) WriteTensor(t, out);
  out->EndArray();
  out->Key("type");
  out->String(op.DisplayType());
  out->Key("typeId");
  out->String(Hex64(op.type_id));
  out->EndObject();
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

nlohmann::json OperatorJson(const Graph& graph, size_t index) {
  std::string text;
  {
    JsonText out(&text);
    WriteOperator(graph, index, &out);
  }
  return nlohmann::json::parse(text);
}

std::string InspectMgeFileText(const MgeFile& file, const InspectContext& ctx, size_t listed) {
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
  // The operators and the outputs are written as text (the rest is small): see json_text.h.
  std::map<std::string, uint64_t> ops;
  for (const Operator& op : g.oprs) ++ops[op.DisplayType()];
  m["ops"] = ops;
  m["operatorCount"] = g.oprs.size();
  std::map<std::string, MemberWriter> more;
  more["operators"] = [&](JsonText* out) {
    out->BeginArray();
    // The operators are most of the text: room for them is reserved from the average size
    // of a sample spread over the graph, so the string is not regrown by doubling (which can
    // leave it twice the text, and holds the old and the new buffer at once). A poor guess
    // only costs a regrowth.
    constexpr size_t kSample = 64;
    const size_t n = std::min(g.oprs.size(), listed);
    if (n > 4 * kSample) {
      std::string sample;
      JsonText sample_text(&sample);
      sample_text.BeginArray();
      for (size_t k = 0; k < kSample; ++k) WriteOperator(g, k * n / kSample, &sample_text);
      out->Reserve(sample_text.size() / kSample * n * 9 / 8 + 4096);
    }
    for (size_t i = 0; i < n; ++i) WriteOperator(g, i, out);
    out->EndArray();
  };
  more["outputs"] = [&](JsonText* out) {
    out->BeginArray();
    for (const OutputVar& v : g.outputs) WriteVar(g, v.compact_id, v.original_id, out);
    out->EndArray();
  };
  if (g.has_output_alias) {
    nlohmann::json aliases = nlohmann::json::array();
    for (const OutputAlias& a : g.aliases)
      aliases.push_back({{"id", a.id}, {"name", OptJson(a.name)}});
    m["outputAliases"] = aliases;
  }
  m["metadata"] = MetadataJson(g.metadata);
  m["dumpInfo"] = DumpInfoJson(LoadedDumpInfo(g));
  std::string text;
  {
    JsonText out(&text);
    WriteObjectWithMembers(
        j, {{"megengine", [&](JsonText* o) { WriteObjectWithMembers(m, more, o); }}}, &out);
  }  // the text is whole once `out` is gone
  return text;
}

nlohmann::json InspectMgeFile(const MgeFile& file, const InspectContext& context, size_t listed) {
  return ParseJson(InspectMgeFileText(file, context, listed));
}

std::string OperatorPageJson(const MgeFile& file, const InspectContext& context,
                             const SummaryPageRequest& request) {
  if (request.list != "operators") {
    throw Error(ErrorCode::kInvalidOption,
                "MegEngine summaries page only their 'operators' list, not '" +
                    request.list.substr(0, 80) + "'",
                ErrorLocation::OfOption("list"));
  }
  const Graph& g = file.graphs[context.graph];
  // The page's filter: what the page's operator table matches on.
  auto matches = [&](const Operator& op) {
    if (request.filter.empty()) return true;
    return ContainsLowerAscii(op.DisplayType(), request.filter) ||
           (op.cls && ContainsLowerAscii(op.cls->cpp_class, request.filter)) ||
           (op.name && ContainsLowerAscii(*op.name, request.filter));
  };
  std::string text;
  {
    JsonText out(&text);
    out.BeginObject();
    out.Key("items");
    out.BeginArray();
    size_t matched = 0;
    for (size_t i = 0; i < g.oprs.size(); ++i) {
      if (!matches(g.oprs[i])) continue;
      if (matched >= request.offset && matched - request.offset < request.limit) {
        WriteOperator(g, i, &out);
      }
      ++matched;
    }
    out.EndArray();
    out.Key("list");
    out.String(request.list);
    out.Key("matched");
    out.Uint(matched);
    out.Key("offset");
    out.Uint(request.offset);
    out.Key("total");
    out.Uint(g.oprs.size());
    out.EndObject();
  }
  return text;
}

}  // namespace graphport::mge
