// The human-readable form of inspect()'s summary, shared by the native CLI and the Node CLI
// (through the bindings) so both print exactly the same.
#ifndef GRAPHPORT_API_SUMMARY_TEXT_H_
#define GRAPHPORT_API_SUMMARY_TEXT_H_

#include <nlohmann/json.hpp>
#include <string>

namespace graphport {

std::string SummaryText(const nlohmann::json& summary);
// The same of JSON text (a std::string would otherwise become a JSON string value).
std::string SummaryText(const std::string& inspect_json);

}  // namespace graphport

#endif  // GRAPHPORT_API_SUMMARY_TEXT_H_
