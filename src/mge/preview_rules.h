// The export preview's rules for MegEngine dumps (core/export_preview.h): the dry run keeps
// operator names (what the preview knows operators by), and what the optimize_for_inference
// passes removed, made and changed is theirs.
#ifndef GRAPHPORT_MGE_PREVIEW_RULES_H_
#define GRAPHPORT_MGE_PREVIEW_RULES_H_

#include <nlohmann/json.hpp>
#include <vector>

#include "core/export_preview.h"
#include "core/option_schema.h"

namespace graphport::mge {

// The caller's export options with keepOprName on: a dump without operator names reads back
// with "<Type>#<index>" names, which an optimized graph renumbers.
nlohmann::json MgePreviewExportOptions(nlohmann::json given);

std::vector<PreviewRule> MgePreviewRules(const OptionValues& options, const nlohmann::json& info);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_PREVIEW_RULES_H_
