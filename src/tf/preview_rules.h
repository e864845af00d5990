// The export preview's rules for TensorFlow exports (core/export_preview.h): which option each
// difference between the input's graph and the output's belongs to, in the order the export
// applies them. TF.js exports of a TensorFlow graph (unfuseOps, quantize) are described here
// too, as the options are the TensorFlow family's export schema extended.
#ifndef GRAPHPORT_TF_PREVIEW_RULES_H_
#define GRAPHPORT_TF_PREVIEW_RULES_H_

#include <nlohmann/json.hpp>
#include <vector>

#include "core/export_preview.h"
#include "core/option_schema.h"

namespace graphport::tf {

// exportScope strips its scope from the names of the nodes inside it; nodes outside get "".
PreviewRename TfPreviewRenaming(const OptionValues& options);

std::vector<PreviewRule> TfPreviewRules(const OptionValues& options, const nlohmann::json& info);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_PREVIEW_RULES_H_
