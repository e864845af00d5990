// The human-readable form of an export preview (Model::PreviewJson), shared by the native CLI
// and the Node CLI (through the bindings) so `graphport export --dry-run` prints the same in
// both.
#ifndef GRAPHPORT_API_PREVIEW_TEXT_H_
#define GRAPHPORT_API_PREVIEW_TEXT_H_

#include <nlohmann/json.hpp>
#include <string>

namespace graphport {

// "export preview: 120 nodes -> 95 (25 dropped, 89 changed, 0 added); nothing written", then
// one line per option ("clearDevices: 89 nodes changed") with the first names of each list.
std::string PreviewText(nlohmann::json preview);
// The same of JSON text (a std::string would otherwise become a JSON string value).
std::string PreviewText(const std::string& preview_json);

}  // namespace graphport

#endif  // GRAPHPORT_API_PREVIEW_TEXT_H_
