// The CLI's text summary of a MegEngine model, after the common header: the lines a user
// reads before choosing dump options. Made from the object InspectMgeFile returns.
#ifndef GRAPHPORT_MGE_SUMMARY_TEXT_H_
#define GRAPHPORT_MGE_SUMMARY_TEXT_H_

#include <nlohmann/json.hpp>
#include <string>

namespace graphport::mge {

std::string MgeSummaryText(const nlohmann::json& inspect);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_SUMMARY_TEXT_H_
