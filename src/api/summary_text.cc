#include "api/summary_text.h"

#include <nlohmann/json.hpp>

#include "api/families.h"
#include "core/json_parse.h"

// Built with std::string, not an ostringstream: iostreams pull libc++'s locale machinery
// (about 70 KB) into the WebAssembly module.
namespace graphport {

std::string SummaryText(const nlohmann::json& s) {
  auto str = [&](const char* key) {
    return s.contains(key) && s[key].is_string() ? s[key].get<std::string>() : "";
  };
  // The common header, the same for every family; the family's own lines follow.
  std::string out;
  out += "family:      " + str("family") + "\n";
  out += "format:      " + str("format") + " (" + str("encoding") + ", " +
         std::to_string(s.contains("inputBytes") && s["inputBytes"].is_number()
                            ? s["inputBytes"].get<uint64_t>()
                            : 0) +
         " bytes)\n";
  const Family* family = FindFamily(str("family"));
  if (family != nullptr) out += family->SummaryText(s);
  return out;
}

std::string SummaryText(const std::string& inspect_json) {
  return SummaryText(ParseJson(inspect_json));
}

}  // namespace graphport
