// What both CLIs print on stdout after an export (without --json), made once so both print
// exactly the same.
#ifndef GRAPHPORT_API_EXPORT_TEXT_H_
#define GRAPHPORT_API_EXPORT_TEXT_H_

#include <nlohmann/json.hpp>
#include <string>

namespace graphport {

// A "graphport: warning: ..." line per warning of the export's info record (what the export
// wrote but the target cannot take), then a "graphport: note: ..." line per note (what the
// export did to the graph on its way: a MegEngine dump's optimization). "" when it has none.
std::string ExportText(const nlohmann::json& info);

}  // namespace graphport

#endif  // GRAPHPORT_API_EXPORT_TEXT_H_
