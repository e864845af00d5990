// Export of a loaded MegEngine file: Network.dump's options over the graph as loaded, the
// model file (plus the strip-info file) into an OutputSet, and the dump info.
#ifndef GRAPHPORT_MGE_EXPORT_H_
#define GRAPHPORT_MGE_EXPORT_H_

#include <nlohmann/json.hpp>

#include "core/option_schema.h"
#include "core/output_set.h"
#include "mge/mge_model.h"

namespace graphport::mge {

// Dumps file.graphs[graph] (an mgbtest0 model keeps its container and test cases). Every
// output is computed before the first Open(), so a failure leaves no partial file.
nlohmann::json ExportMgeGraph(const MgeFile& file, size_t graph, const OptionValues& options,
                              OutputSet* out);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_EXPORT_H_
