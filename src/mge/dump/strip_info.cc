#include "mge/dump/strip_info.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/utf8.h"
#include "mge/dtype.h"
#include "mge/dtype_infer.h"
#include "mge/param_json.h"

namespace graphport::mge {
namespace {

using OrderedJson = nlohmann::ordered_json;

// Python's json.dumps(ensure_ascii=True) for a string.
void PyString(const std::string& s, std::string* out) {
  out->push_back('"');
  // Decode UTF-8 so non-ASCII becomes \uXXXX (surrogate pairs above the BMP). Bytes that are
  // not UTF-8 (a name from a damaged file) become U+FFFD: escaped one by one they would be
  // lone surrogates, which JSON parsers refuse.
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    uint32_t cp = c;
    size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (len == 0 || i + len > s.size() || !IsValidUtf8(std::string_view(s).substr(i, len))) {
      cp = 0xfffd;
      len = 1;
    } else if (len == 4) {
      cp = ((c & 7u) << 18) | ((s[i + 1] & 0x3fu) << 12) | ((s[i + 2] & 0x3fu) << 6) |
           (s[i + 3] & 0x3fu);
    } else if (len == 3) {
      cp = ((c & 0xfu) << 12) | ((s[i + 1] & 0x3fu) << 6) | (s[i + 2] & 0x3fu);
    } else if (len == 2) {
      cp = ((c & 0x1fu) << 6) | (s[i + 1] & 0x3fu);
    }
    i += len;
    char buf[16];
    switch (cp) {
      case '"':
        *out += "\\\"";
        continue;
      case '\\':
        *out += "\\\\";
        continue;
      case '\n':
        *out += "\\n";
        continue;
      case '\r':
        *out += "\\r";
        continue;
      case '\t':
        *out += "\\t";
        continue;
      case '\b':
        *out += "\\b";
        continue;
      case '\f':
        *out += "\\f";
        continue;
      default:
        break;
    }
    if (cp >= 0x20 && cp < 0x7f) {
      out->push_back(static_cast<char>(cp));
    } else if (cp >= 0x10000) {
      cp -= 0x10000;
      std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      *out += buf;
    } else {
      std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      *out += buf;
    }
  }
  out->push_back('"');
}

// Python's json.dump with default separators (", ", ": ").
void PyDump(const OrderedJson& v, std::string* out) {
  switch (v.type()) {
    case OrderedJson::value_t::object: {
      *out += "{";
      bool first = true;
      for (const auto& [k, item] : v.items()) {
        if (!first) *out += ", ";
        first = false;
        PyString(k, out);
        *out += ": ";
        PyDump(item, out);
      }
      *out += "}";
      break;
    }
    case OrderedJson::value_t::array: {
      *out += "[";
      for (size_t i = 0; i < v.size(); ++i) {
        if (i) *out += ", ";
        PyDump(v[i], out);
      }
      *out += "]";
      break;
    }
    case OrderedJson::value_t::string:
      PyString(v.get<std::string>(), out);
      break;
    case OrderedJson::value_t::boolean:
      *out += v.get<bool>() ? "true" : "false";
      break;
    case OrderedJson::value_t::number_float: {
      double d = v.get<double>();
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", d);
      // repr(): the shortest text that reads back the same double.
      for (int p = 1; p <= 17; ++p) {
        std::snprintf(buf, sizeof buf, "%.*g", p, d);
        if (std::strtod(buf, nullptr) == d) break;
      }
      std::string s = buf;
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
      *out += s;
      break;
    }
    case OrderedJson::value_t::null:
      *out += "null";
      break;
    default:
      *out += v.dump();  // integers
  }
}

std::vector<std::string> Sorted(const std::set<std::string>& s) {
  return std::vector<std::string>(s.begin(), s.end());  // std::set sorts by byte order
}

}  // namespace

StripInfo CollectStripInfo(const Graph& graph, uint64_t content_hash) {
  std::set<std::string> dtypes, modes, types;
  std::vector<std::optional<int>> var_dtypes = InferVarDTypes(graph);
  for (const Operator& op : graph.oprs) {
    types.insert(op.cls ? op.cls->cpp_class : op.DisplayType());
    if (HasWorkspaceOutput(op)) dtypes.insert("Byte");
    if (op.cls && op.cls->key == "Elemwise" && !op.params.empty()) {
      nlohmann::json p = ParamToJson(op.params[0], graph.version);
      if (p.contains("fields") && p["fields"]["mode"].is_string()) {
        modes.insert(p["fields"]["mode"].get<std::string>());
      }
    }
  }
  StripInfo info;
  for (const auto& t : var_dtypes) {
    if (t) {
      dtypes.insert(DTypeName(*t));
    } else {
      ++info.vars_without_dtype;
    }
  }
  info.dtypes = Sorted(dtypes);
  info.elemwise_modes = Sorted(modes);
  info.opr_types = Sorted(types);
  info.hash = content_hash;
  return info;
}

std::string StripInfoJson(const StripInfo& info, const std::optional<std::string>& existing) {
  OrderedJson fresh = OrderedJson::object();
  fresh["dtypes"] = info.dtypes;
  fresh["elemwise_modes"] = info.elemwise_modes;
  fresh["opr_types"] = info.opr_types;
  OrderedJson result;
  if (existing && !existing->empty()) {
    OrderedJson old = OrderedJson::parse(*existing, nullptr, /*allow_exceptions=*/false);
    if (old.is_discarded() || !old.is_object()) {
      ErrorLocation where;
      where.option = "appendJson";
      throw Error(ErrorCode::kInvalidOption,
                  "appendJson is not a JSON object (the existing strip-info file)", where);
    }
    result = old;
    for (auto& [key, values] : result.items()) {
      if (!fresh.contains(key) || !values.is_array()) continue;
      std::vector<std::string> added;
      for (const auto& v : fresh[key]) {
        if (std::find(values.begin(), values.end(), v) == values.end()) {
          added.push_back(v.get<std::string>());
        }
      }
      std::sort(added.begin(), added.end());
      for (auto& v : added) values.push_back(v);
    }
  } else {
    result = fresh;
  }
  result["hash"] = info.hash;
  std::string out;
  PyDump(result, &out);
  return out;
}

}  // namespace graphport::mge
