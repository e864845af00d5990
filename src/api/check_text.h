// The human-readable form of a check's report (Model::CheckJson), shared by the native CLI
// and the Node CLI (through the bindings) so both print exactly the same.
#ifndef GRAPHPORT_API_CHECK_TEXT_H_
#define GRAPHPORT_API_CHECK_TEXT_H_

#include <nlohmann/json.hpp>
#include <string>

namespace graphport {

// "all 9 ops (31 nodes) run in TF.js 4.22", or the ops the target cannot run, one a line
// with their count, first nodes and fix, and what an export with the same options does.
std::string CheckText(nlohmann::json report);
// The same of JSON text (a std::string would otherwise become a JSON string value).
std::string CheckText(const std::string& report_json);

}  // namespace graphport

#endif  // GRAPHPORT_API_CHECK_TEXT_H_
