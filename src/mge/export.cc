#include "mge/export.h"

#include <algorithm>

#include "mge/container.h"
#include "mge/dump/compat_rewrite.h"
#include "mge/dump/dump_info.h"
#include "mge/dump/dump_plan.h"
#include "mge/dump/dump_request.h"
#include "mge/dump/set_priority_to_id.h"
#include "mge/dump/strip_info.h"
#include "mge/inspect.h"
#include "mge/optimize/optimize_for_inference.h"
#include "mge/write_v1.h"
#include "mge/write_v2.h"

namespace graphport::mge {
namespace {

void WriteFile(OutputSet* out, const std::string& name, const std::string& bytes) {
  ByteSink* sink = out->Open(name);
  sink->SizeHint(bytes.size());
  sink->Write(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  out->Close();
}

// info.optimized: the options' word and flags, the operator counts before and after, and
// each pass that changed the graph with what it did.
nlohmann::json OptimizedInfo(const Graph& loaded, const Graph& optimized,
                             const opt::OptimizeOptions& options,
                             const opt::OptimizeResult& result) {
  // A pass may take apart what a later one puts together again (ExpandFusedArith and
  // ArithFuse): when the graph written is the loaded one, no pass changed it.
  nlohmann::json passes = nlohmann::json::array();
  for (const opt::PassReport& p : result.passes) {
    if (result.changed && p.changed) passes.push_back({{"pass", p.pass}, {"did", p.summary}});
  }
  return {{"optimizeOptions", options.Serialize()},
          {"flags", OptimizeOptionNames(options.Serialize())},
          {"operators", {{"before", loaded.oprs.size()}, {"after", optimized.oprs.size()}}},
          {"passes", passes}};
}

// info.optimized in one line, for the CLIs' text output.
std::string OptimizedNote(const nlohmann::json& optimized) {
  std::string flags;
  for (const auto& f : optimized["flags"])
    flags += (flags.empty() ? "" : ", ") + f.get<std::string>();
  std::string note = "optimize_for_inference (" + (flags.empty() ? "no option" : flags) +
                     "): " + optimized["operators"]["before"].dump() + " operators before, " +
                     optimized["operators"]["after"].dump() + " after";
  if (optimized["passes"].empty()) return note + "; no pass changed the graph";
  for (const auto& p : optimized["passes"]) {
    note += "; " + p["pass"].get<std::string>() + ": " + p["did"].get<std::string>();
  }
  return note;
}

}  // namespace

nlohmann::json ExportMgeGraph(const MgeFile& file, size_t graph_index, const OptionValues& options,
                              OutputSet* out) {
  const Graph& loaded = file.graphs[graph_index];
  DumpRequest request = ReadDumpRequest(options);
  // Network.dump optimizes first (by default), then the dumper runs the compatibility
  // rewrite (no_change_graph=False).
  RewrittenGraph optimized_storage;
  opt::OptimizeResult optimized;
  const Graph* source = &loaded;
  if (request.optimize_for_inference) {
    optimized = opt::OptimizeForInference(loaded, request.optimize, &optimized_storage);
    source = optimized.graph;
  } else if (!request.as_loaded) {
    source = &opt::AsMegEngineLoadedIt(loaded, &optimized_storage);
  }
  Graph prioritized;
  if (request.keep_opr_priority && !request.as_loaded) {
    // Only kept priorities are written, so only then is the graph copied to set them.
    prioritized = *source;
    SetPriorityToId(source == &loaded ? nullptr : &optimized_storage.opr_ids, &prioritized);
    source = &prioritized;
  }
  RewrittenGraph rewritten;
  const bool was_rewritten =
      RewriteForCompat(*source, request.format, request.compat_814, &rewritten);
  const Graph& graph = was_rewritten ? rewritten.graph : *source;
  DumpPlan plan = MakeDumpPlan(graph, request);
  WrittenDump dump = request.format == DumpFormat::kFbsV1 ? WriteV1(plan) : WriteV2(plan);

  // The model file: the caller's bytes (append), then an mgbtest0 model keeps its container
  // and its test cases byte for byte.
  const bool keep_tests = file.test_container && graph_index == 0;
  std::string before = request.append.value_or("");
  std::string_view after;
  if (keep_tests) {
    before += kTestContainerMagic;
    uint32_t n = file.declared_tests;
    for (int i = 0; i < 4; ++i) before.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    // The test cases are the container's last dumps, one after another.
    if (file.graphs.size() > 1) {
      after = std::string_view(file.bytes).substr(file.graphs[1].file_offset);
    }
  }

  DumpInfo info;
  info.nr_opr = dump.nr_opr;
  info.tot_bytes = dump.size();
  info.tensor_value_bytes = dump.tensor_value_bytes;
  info.content_hash = dump.content_hash;
  for (size_t i = 0; i < graph.oprs.size(); ++i) {
    const Operator& op = graph.oprs[i];
    if (op.cls == nullptr || op.cls->key != "Host2DeviceCopy") continue;
    for (const auto& name : plan.tensor_names[i]) {
      if (name) info.inputs.push_back(*name);
    }
  }
  std::sort(info.inputs.begin(), info.inputs.end());
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    uint32_t id = graph.outputs[i].compact_id;
    if (request.keep_var_name == 0) {
      info.outputs.push_back("unnamed" + std::to_string(i));
    } else {
      auto name = graph.VarName(id);
      info.outputs.push_back(name                         ? *name
                             : plan.var_names[id].empty() ? "var" + std::to_string(id)
                                                          : plan.var_names[id]);
    }
  }
  info.params = plan.param_names;

  std::string strip_json;
  StripInfo strip;
  if (request.strip_info_file) {
    // Collected after optimization and before the compatibility rewrite, like
    // get_info_for_strip.
    strip = CollectStripInfo(*source, dump.content_hash);
    strip_json = StripInfoJson(strip, request.append_json);
  }

  ByteSink* sink = out->Open(request.filename);
  sink->SizeHint(before.size() + dump.size() + after.size());
  sink->Write(reinterpret_cast<const uint8_t*>(before.data()), before.size());
  dump.WriteTo(sink);
  sink->Write(reinterpret_cast<const uint8_t*>(after.data()), after.size());
  out->Close();
  nlohmann::json files = nlohmann::json::array({request.filename});
  if (request.strip_info_file) {
    WriteFile(out, *request.strip_info_file, strip_json);
    files.push_back(*request.strip_info_file);
  }

  nlohmann::json result = DumpInfoJson(info);
  result["files"] = files;
  result["format"] = request.format == DumpFormat::kFbsV1 ? "FBS" : "FBS_V2";
  if (request.format == DumpFormat::kFbsV1) {
    result["header"] = plan.magic == V1Magic::kMgbs ? "MGBS" : "MGBC";
  }
  result["optimized"] = request.optimize_for_inference
                            ? OptimizedInfo(loaded, *source, request.optimize, optimized)
                            : nlohmann::json(request.as_loaded ? "as loaded" : "no");
  nlohmann::json kept = {{"metadata", plan.metadata_note}};
  if (plan.synthesized_var_names) {
    kept["varNames"] = std::to_string(plan.synthesized_var_names) +
                       " var names the input did not store were written as var<id>";
  }
  if (plan.missing_opr_names) {
    kept["oprNames"] = std::to_string(plan.missing_opr_names) +
                       " operators have no name in the input, so none is written";
  }
  if (keep_tests) kept["testCases"] = file.declared_tests;
  if (was_rewritten) {
    kept["compatRewrite"] = std::to_string(rewritten.rewritten) +
                            " operators replaced by MegEngine's compatibility converters";
  }
  for (const std::string& note : rewritten.notes) kept["compatRewriteKept"].push_back(note);
  if (request.strip_info_file && strip.vars_without_dtype) {
    kept["stripInfoDtypes"] =
        std::to_string(strip.vars_without_dtype) + " vars have a dtype neither stored nor inferred";
  }
  result["kept"] = kept;
  if (request.optimize_for_inference) {
    result["notes"] = nlohmann::json::array({OptimizedNote(result["optimized"])});
  }
  return result;
}

}  // namespace graphport::mge
