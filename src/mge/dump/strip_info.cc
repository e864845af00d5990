#include "mge/dump/strip_info.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.h"
#include "core/ordered_json.h"
#include "core/utf8.h"
#include "mge/dtype.h"
#include "mge/dtype_infer.h"
#include "mge/param_json.h"

namespace graphport::mge {
namespace {

// A strip-info file nests two levels; the bound keeps a hostile appendJson from being built
// and printed recursively.
constexpr int kMaxAppendJsonDepth = 64;

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
  switch (v.kind()) {
    case OrderedJson::Kind::kObject: {
      *out += "{";
      bool first = true;
      for (const auto& [k, item] : v.members()) {
        if (!first) *out += ", ";
        first = false;
        PyString(k, out);
        *out += ": ";
        PyDump(item, out);
      }
      *out += "}";
      break;
    }
    case OrderedJson::Kind::kArray: {
      *out += "[";
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) *out += ", ";
        PyDump(v.items()[i], out);
      }
      *out += "]";
      break;
    }
    case OrderedJson::Kind::kString:
      PyString(v.string_value(), out);
      break;
    case OrderedJson::Kind::kBool:
      *out += v.bool_value() ? "true" : "false";
      break;
    case OrderedJson::Kind::kDouble: {
      double d = v.double_value();
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
    case OrderedJson::Kind::kNull:
      *out += "null";
      break;
    case OrderedJson::Kind::kInt:
      *out += std::to_string(v.int_value());
      break;
    case OrderedJson::Kind::kUInt:
      *out += std::to_string(v.uint_value());
      break;
  }
}

std::vector<std::string> Sorted(const std::set<std::string>& s) {
  return std::vector<std::string>(s.begin(), s.end());  // std::set sorts by byte order
}

OrderedJson StringArray(const std::vector<std::string>& strings) {
  OrderedJson out = OrderedJson::Array();
  for (const std::string& s : strings) out.PushBack(s);
  return out;
}

bool HoldsString(const OrderedJson& array, const std::string& s) {
  for (const OrderedJson& item : array.items()) {
    if (item.is_string() && item.string_value() == s) return true;
  }
  return false;
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
  OrderedJson fresh = OrderedJson::Object({{"dtypes", StringArray(info.dtypes)},
                                           {"elemwise_modes", StringArray(info.elemwise_modes)},
                                           {"opr_types", StringArray(info.opr_types)}});
  OrderedJson result;
  if (existing && !existing->empty()) {
    std::string why;
    std::optional<OrderedJson> old = OrderedJson::Parse(*existing, kMaxAppendJsonDepth, &why);
    if (!old || !old->is_object()) {
      ErrorLocation where;
      where.option = "appendJson";
      throw Error(ErrorCode::kInvalidOption,
                  "appendJson is not a JSON object (the existing strip-info file)" +
                      (why.empty() ? std::string() : ": " + why),
                  where);
    }
    result = std::move(*old);
    for (auto& [key, values] : result.members()) {
      const OrderedJson* new_values = fresh.Find(key);
      if (new_values == nullptr || !values.is_array()) continue;
      std::vector<std::string> added;
      for (const OrderedJson& v : new_values->items()) {
        if (!HoldsString(values, v.string_value())) added.push_back(v.string_value());
      }
      std::sort(added.begin(), added.end());
      for (auto& v : added) values.PushBack(std::move(v));
    }
  } else {
    result = std::move(fresh);
  }
  result["hash"] = info.hash;
  std::string out;
  PyDump(result, &out);
  return out;
}

}  // namespace graphport::mge
