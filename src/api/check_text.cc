#include "api/check_text.h"

#include <nlohmann/json.hpp>

#include "core/json_parse.h"

// Built with std::string, not an ostringstream: see summary_text.cc.
namespace graphport {
namespace {

using nlohmann::json;

// A count as the report holds it: unsigned once it went through JSON text, signed as the core
// built it (the native CLI prints the value it got, with no text between).
bool IsCount(const json& value) {
  return value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0);
}

std::string Count(const json& value) {
  return std::to_string(IsCount(value) ? value.get<uint64_t>() : 0);
}

std::string Str(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// "VarHandleOp x4 (a, b, c, d, ...): freeze fixes this"
std::string OpLine(const json& op) {
  std::string line = Str(op, "op") + " x" + Count(op["count"]) + " (";
  const json& nodes = op["nodes"];
  for (size_t k = 0; k < nodes.size(); ++k) {
    line += (k ? ", " : "") + (nodes[k].is_string() ? nodes[k].get<std::string>() : "");
  }
  if (IsCount(op["count"]) && op["count"].get<uint64_t>() > nodes.size()) {
    line += ", ...";
  }
  line += ")";
  if (op["hint"].is_string()) line += ": " + op["hint"].get<std::string>();
  return line;
}

}  // namespace

std::string CheckText(json report) {  // a copy: operator[] reads absent keys as null
  const bool tfjs = Str(report, "target") == "tfjs";
  const std::string runtime = Str(report, "runtime");
  const std::string ops = Count(report["ops"]);
  const std::string nodes = Count(report["nodes"]);
  std::string out;
  const json& frozen = report["frozen"];
  if (frozen.is_object()) {
    out += "frozen: signature " + Str(frozen, "signature") + ", " + Count(frozen["variables"]) +
           " variables made constants, " + Count(frozen["inlinedCalls"]) + " calls inlined\n";
  }
  if (report["unfusedOps"].is_array() && !report["unfusedOps"].empty()) {
    out += "unfused: " + std::to_string(report["unfusedOps"].size()) + " nodes\n";
  }
  const json& quantization = report["quantization"];
  if (quantization.is_object() && quantization["note"].is_string()) {
    out += "quantization: " + quantization["note"].get<std::string>() + "\n";
  }
  const std::string written = "to: '" + Str(report, "to") + "'";
  if (report["runs"] == true) {
    out += "all " + ops + " ops (" + nodes + " nodes) " + (tfjs ? "run in " : "are in ") + runtime +
           "\n";
    return out;
  }
  const json& lacking = report["unsupportedOps"];
  out += runtime + (tfjs ? " cannot run " : " lacks ") + std::to_string(lacking.size()) +
         " of the " + ops + " ops (" + nodes + " nodes):\n";
  for (const json& op : lacking) out += "  " + OpLine(op) + "\n";
  const json& error = report["exportError"];
  if (error.is_object()) {
    out += "an export " + written + " fails with " + Str(error, "code") + ": " +
           Str(error, "message") + "\n";
  } else if (report["exportFails"] == true) {
    out +=
        "an export " + written + " fails with UNSUPPORTED (allowUnsupportedOps writes it anyway)\n";
  } else if (tfjs) {
    out += "an export " + written +
           " writes it (allowUnsupportedOps): it runs only where these ops are registered "
           "(tf.registerOp)\n";
  } else {
    out += "an export " + written + " writes it with a warning: TensorFlow cannot import it\n";
  }
  return out;
}

std::string CheckText(const std::string& report_json) { return CheckText(ParseJson(report_json)); }

}  // namespace graphport
