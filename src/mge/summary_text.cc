#include "mge/summary_text.h"

#include "core/op_histogram.h"

// Built with std::string, not an ostringstream (iostreams are heavy in WebAssembly).
namespace graphport::mge {
namespace {

std::string Num(const nlohmann::json& v) {
  return v.is_number_unsigned() ? std::to_string(v.get<uint64_t>())
                                : std::to_string(v.get<int64_t>());
}

std::string Text(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : std::string("(unnamed)");
}

}  // namespace

std::string MgeSummaryText(const nlohmann::json& s) {
  const nlohmann::json& m = s["megengine"];
  const nlohmann::json& h = m["header"];
  std::string out;
  // The common header already says "format:" (graphport's format name); this is MegEngine's.
  out += "producer:    " + s["producerText"].get<std::string>() + "\n";
  if (h.contains("hash")) out += "hash:        " + h["hash"].get<std::string>() + "\n";
  if (m["graphs"].size() > 1) {
    out += "graphs:      " + std::to_string(m["graphs"].size()) + " (showing graph " +
           Num(m["graph"]) + ")\n";
  }
  if (m.contains("testCases")) {
    out += "test cases:  " + std::to_string(m["testCases"].size()) + " (mgbtest0)\n";
  }
  out += "operators:   " + Num(m["operatorCount"]) + " (" + std::to_string(m["ops"].size()) +
         " types)\n";
  out += OpHistogramText(m["ops"], "");
  const nlohmann::json& info = m["dumpInfo"];
  std::string inputs;
  for (const auto& name : info["inputs"]) inputs += (inputs.empty() ? "" : ", ") + Text(name);
  out += "inputs:      " + (inputs.empty() ? std::string("(none)") : inputs) + "\n";
  std::string outputs;
  for (const auto& v : m["outputs"]) outputs += (outputs.empty() ? "" : ", ") + Text(v["name"]);
  out += "outputs:     " + outputs + "\n";
  out += "values:      " + Num(info["tensor_value_bytes"]) + " bytes\n";
  const nlohmann::json& md = m["metadata"];
  if (md.is_null()) {
    out += "metadata:    none\n";
  } else {
    out += "metadata:    " + std::string(md["isValid"].get<bool>() ? "valid" : "invalid");
    if (md["optimizedForInference"].get<bool>()) {
      std::string flags;
      for (const auto& f : md["optimizeFlags"]) flags += (flags.empty() ? "" : ", ") + Text(f);
      out += ", optimized for inference (" + flags + ")";
    }
    if (md["userInfo"].is_object() && !md["userInfo"]["value"].is_null()) {
      out += ", user_info " + md["userInfo"]["value"].dump();
    }
    out += "\n";
  }
  return out;
}

}  // namespace graphport::mge
